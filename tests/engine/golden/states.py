"""Each golden record's states, stored compactly so that a change can be shown.

A record keeps one digest per step (``playthrough``): enough to notice a
change, not to show it. Beside each record, ``<name>.states.gz`` keeps the
states themselves as flat ``[path, value]`` leaves of the game's dump: the
set-up state in full, then per step only the leaves that changed (``[path,
value]``) or went away (``[path]``). When a replay's digest differs from
the record's, ``first_difference`` rebuilds the recorded state at that step
and lists the leaves that differ from the state the engine gives now, as a
readable diff.
"""

import gzip
import json

import orjson

_MISSING = object()


def flatten(value, path=()):
    """``{path: leaf}`` of a JSON-compatible value (paths are tuples of keys
    and list indices; an empty dict or list is a leaf)."""
    out = {}
    _flatten_into(out, value, path)
    return out


def _flatten_into(out, value, path):
    if isinstance(value, dict) and value:
        for key, inner in value.items():
            _flatten_into(out, inner, (*path, key))
    elif isinstance(value, (list, tuple)) and value:
        for index, inner in enumerate(value):
            _flatten_into(out, inner, (*path, index))
    else:
        out[path] = value


def unflatten(leaves):
    """The nested value of ``{path: leaf}`` (``flatten``'s inverse)."""
    root = {}
    for path, leaf in leaves.items():
        if not path:
            return leaf
        node = root
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = leaf
    return _lists(root)


def _lists(node):
    if not isinstance(node, dict) or not node:
        return node
    if all(type(key) is int for key in node):
        return [_lists(node[i]) for i in range(len(node))]
    return {key: _lists(inner) for key, inner in node.items()}


def patch(before, after):
    """The changes from ``before`` to ``after`` (flat): ``[path, value]`` or ``[path]`` (gone)."""
    changes = [[list(path), leaf] for path, leaf in after.items() if before.get(path, _MISSING) != leaf]
    changes += [[list(path)] for path in before if path not in after]
    return changes


def apply_patch(leaves, changes):
    for change in changes:
        path = tuple(change[0])
        if len(change) == 1:
            leaves.pop(path, None)
        else:
            leaves[path] = change[1]


def save_states(path, dumps):
    """Write the dumps (set-up, then one per step) as the set-up's leaves and per-step patches."""
    lines, previous = [], {}
    for dump in dumps:
        leaves = flatten(dump)
        lines.append(orjson.dumps(patch(previous, leaves)))
        previous = leaves
    path.write_bytes(gzip.compress(b"\n".join(lines), compresslevel=9, mtime=0))


def recorded_leaves(path, step):
    """The flat state stored for ``step`` (0: after set-up), or None without a states file."""
    if not path.exists():
        return None
    leaves = {}
    for number, line in enumerate(gzip.decompress(path.read_bytes()).splitlines()):
        apply_patch(leaves, orjson.loads(line))
        if number == step:
            return leaves
    return None


def first_difference(recorded, now, limit=40):
    """A readable diff of two flat states: one line per differing leaf,
    ``path: recorded -> now`` (at most ``limit`` lines)."""
    paths = sorted(set(recorded) | set(now), key=lambda p: [str(k) for k in p])
    lines = []
    for path in paths:
        was, is_ = recorded.get(path, _MISSING), now.get(path, _MISSING)
        if was != is_:
            lines.append(f"  {_path_text(path)}: {_text(was)} -> {_text(is_)}")
    if len(lines) > limit:
        lines = lines[:limit] + [f"  ... and {len(lines) - limit} more"]
    return "\n".join(lines)


def _path_text(path):
    return "".join(f"[{key}]" if type(key) is int else f".{key}" for key in path).lstrip(".")


def _text(value):
    return "(absent)" if value is _MISSING else json.dumps(value, sort_keys=True)
