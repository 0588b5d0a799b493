"""A fixed index space of actions per variant, and the codec both ways
between an index and the action JSON the engine and the HTTP API take.

The space is the list of every action that can ever appear in
``legal_actions`` for the variant, in a fixed order: action types in the
game's ``action_specs`` order, and within a type the values of its
parameters in the order of their domains (``engine.params``). A type whose
parameters are few is the plain product of its domains (an optional
parameter adds "left out" before its values; a seat parameter stops at the
player count). Types whose product would be huge are enumerated from the
rules' structure instead (the enumerators the game's registry entry names,
``actions_anno1452``): only the combinations the rules can ever offer.

    >>> from tabula_env.codec import codec_for
    >>> from tabula_env.variants import get_variant
    >>> codec = codec_for(get_variant("anno1503-base-2p"))
    >>> codec.decode(codec.encode({"type": "end_turn"}))
    {'type': 'end_turn'}

Optional parameters that are left out and those sent as ``null`` are the
same action to the engine; ``decode`` always leaves them out.
"""

from __future__ import annotations

import functools
import itertools
from typing import TYPE_CHECKING, Any

import numpy as np

import engine
from engine.params import IntRange, OneOf, Optional, Square
from engine.registry import get_entry, resolve

from .masks import MaskCache
from .variants import get_variant

if TYPE_CHECKING:
    from typing import Any

    from engine.core import Action
    from tabula_env.variants import Variant


if TYPE_CHECKING:
    pass


# A plain product larger than this is refused: it needs a structured enumerator.
MAX_PRODUCT = 5000


def normalize(action: Action):
    """The action with its left-out optional parameters dropped."""
    return {name: value for name, value in action.items() if value is not None}


def domain_values(domain, num_players: int):
    """Every value of ``domain`` in order; None first when it is optional."""
    if isinstance(domain, Optional):
        return [None] + domain_values(domain.inner, num_players)
    if isinstance(domain, OneOf):
        return list(domain.values)
    if isinstance(domain, IntRange):
        hi = domain.hi
        if "seat" in domain.description:
            hi = min(hi, num_players - 1)
        return list(range(domain.lo, hi + 1))
    if isinstance(domain, Square):
        return [[r, c] for r in range(domain.rows) for c in range(domain.cols)]
    raise TypeError(f"no enumeration for domain {domain!r}")


def product_actions(spec, num_players: int):
    """Every combination of the spec's parameter values, as actions."""
    names = list(spec.params)
    values = [domain_values(spec.params[n], num_players) for n in names]
    size = 1
    for vals in values:
        size *= len(vals)
    if size > MAX_PRODUCT:
        raise ValueError(f"{spec.name}: {size} combinations; add a structured enumerator")
    out = []
    for combo in itertools.product(*values):
        action = {"type": spec.name}
        action.update((n, v) for n, v in zip(names, combo) if v is not None)
        out.append(action)
    return out


def _square(value):
    return value if value is None else tuple(value)


def _plain_key_function(kind, names):
    """The key of a type without squares. One closure per parameter count:
    ``(kind, *map(action.get, names))`` costs about four times as much."""
    if not names:
        key = (kind,)
        return lambda action: key
    if len(names) == 1:
        (n0,) = names
        return lambda action: (kind, action.get(n0))
    if len(names) == 2:
        n0, n1 = names
        return lambda action: (kind, action.get(n0), action.get(n1))
    if len(names) == 3:
        n0, n1, n2 = names
        return lambda action: (kind, action.get(n0), action.get(n1), action.get(n2))
    return lambda action: (kind, *map(action.get, names))


def _key_function(kind, names, squares):
    """The key of an action of type ``kind``: it runs for every legal action of
    every step, so the common shapes get a loop-free function."""
    if not squares:
        return _plain_key_function(kind, names)
    flags = tuple(name in squares for name in names)
    if flags == (True,):
        (n0,) = names
        return lambda action: (kind, _square(action.get(n0)))
    if flags == (False, True):
        n0, n1 = names
        return lambda action: (kind, action.get(n0), _square(action.get(n1)))
    if flags == (True, True):
        n0, n1 = names
        return lambda action: (kind, _square(action.get(n0)), _square(action.get(n1)))
    if flags == (True, True, True):
        n0, n1, n2 = names
        return lambda action: (
            kind,
            _square(action.get(n0)),
            _square(action.get(n1)),
            _square(action.get(n2)),
        )

    def key(action: Action):
        out = [kind]
        for value in map(action.get, names):
            out.append(tuple(value) if type(value) is list else value)
        return tuple(out)

    return key


def _index_function(names, key_function, own, index):
    """``action -> its index`` for a type whose keys -> indices are ``own``
    (``KeyError`` outside the space). With no parameter or one plain one, a
    lookup without building a key tuple: most legal actions are of such types."""
    if not names and len(own) == 1:
        (only,) = own.values()
        return lambda action: only
    if len(names) == 1 and all(type(key[1]) is not tuple for key in own):
        (n0,) = names
        by_value = {key[1]: i for key, i in own.items()}
        return lambda action: by_value[action.get(n0)]
    if len(names) == 2 and all(type(key[1]) is not tuple and type(key[2]) is tuple for key in own):
        # A value and a square it needs (a ship and where it goes): the square's
        # numbers go straight into the key, no conversion call.
        n0, n1 = names
        by_values = {(key[1], *key[2]): i for key, i in own.items()}
        return lambda action: by_values[(action.get(n0), *action[n1])]
    flat = _flat_square_index(names, own)
    if flat is not None:
        return flat
    mapped = _mapped_index(names, own)
    if mapped is not None:
        return mapped
    return lambda action: index[key_function(action)]


_NO_SQUARE = (None, None)


def _flat_square_index(names, own):
    """For a type of two or three squares (settling, attacking: hundreds of
    legal actions a step), a lookup by the squares' numbers in one flat tuple
    (an absent square as ``(None, None)``), with no conversion call; None
    when the type is not of that shape."""
    if len(names) not in (2, 3) or not all(
        value is None or (type(value) is tuple and len(value) == 2) for key in own for value in key[1:]
    ):
        return None
    by_flat = {tuple(n for value in key[1:] for n in (value or _NO_SQUARE)): i for key, i in own.items()}
    if len(names) == 2:
        n0, n1 = names
        return lambda action: by_flat[(*(action.get(n0) or _NO_SQUARE), *(action.get(n1) or _NO_SQUARE))]
    n0, n1, n2 = names
    return lambda action: by_flat[
        (*(action.get(n0) or _NO_SQUARE), *(action.get(n1) or _NO_SQUARE), *(action.get(n2) or _NO_SQUARE))
    ]


def _mapped_index(names, own):
    """For the other types (a trade draft's item, a card's target, a card and
    an open card: thousands of legal actions a step in a trade phase), one
    lookup by a flat tuple: the plain values, then the squares' numbers (an
    absent square as ``(None, None)``), read by a loop-free closure for each
    shape in use. None for any other shape."""
    squares = [i for i in range(len(names)) if any(type(key[i + 1]) is tuple for key in own)]
    if not all(
        key[i + 1] is None or (type(key[i + 1]) is tuple and len(key[i + 1]) == 2)
        for key in own
        for i in squares
    ):
        return None
    plain = [name for i, name in enumerate(names) if i not in squares]
    by = {
        (
            *(value for i, value in enumerate(key[1:]) if i not in squares),
            *(n for i in squares for n in (key[i + 1] or _NO_SQUARE)),
        ): index
        for key, index in own.items()
    }
    shape = (len(plain), len(squares))
    if shape == (2, 0):
        p0, p1 = plain
        return lambda a: by[(a.get(p0), a.get(p1))]
    if shape == (3, 1):
        p0, p1, p2, s0 = *plain, names[squares[0]]
        return lambda a: by[(a.get(p0), a.get(p1), a.get(p2), *(a.get(s0) or _NO_SQUARE))]
    if shape == (4, 1):
        p0, p1, p2, p3, s0 = *plain, names[squares[0]]
        return lambda a: by[(a.get(p0), a.get(p1), a.get(p2), a.get(p3), *(a.get(s0) or _NO_SQUARE))]
    if shape == (3, 2):
        p0, p1, p2, s0, s1 = *plain, *(names[i] for i in squares)
        return lambda a: by[
            (a.get(p0), a.get(p1), a.get(p2), *(a.get(s0) or _NO_SQUARE), *(a.get(s1) or _NO_SQUARE))
        ]
    return None


def _copier(action: Action):
    """A call that returns a fresh copy of ``action``, lists copied too."""
    if any(type(value) is list for value in action.values()):
        return lambda: {k: list(v) if type(v) is list else v for k, v in action.items()}
    return functools.partial(dict, action)


class ActionCodec:
    """The index space of one variant: ``encode``, ``decode``, ``mask``."""

    def __init__(self, name, actions: list[Action], param_names, square_params=None):
        square_params = square_params or {}
        self.name = name
        self.actions = tuple(actions)
        self.size = len(self.actions)  # an attribute: read on every step
        # type -> its parameter names, in spec order; the key of an action is
        # its type and its values in that order (lists as tuples, to hash).
        self._names = {kind: tuple(names) for kind, names in param_names.items()}
        self._keys = {
            kind: _key_function(kind, names, square_params.get(kind, ()))
            for kind, names in self._names.items()
        }
        self._index: dict[Any, int] = {}
        by_kind: dict[str, dict[Any, int]] = {kind: {} for kind in self._names}
        for i, action in enumerate(self.actions):
            key = self._key(action)
            if key in self._index:
                raise ValueError(f"action listed twice in the space: {action}")
            self._index[key] = by_kind[action["type"]][key] = i
        # type -> action -> index: what ``indices`` runs for every legal action.
        self._index_of = {
            kind: _index_function(names, self._keys[kind], by_kind[kind], self._index)
            for kind, names in self._names.items()
        }
        # index -> a call that gives a fresh copy of its action (``dict(action)``
        # as one C call where no value is a list): ``fresh`` runs on every step.
        self._copies = tuple(_copier(action) for action in self.actions)
        self.no_actions = np.zeros(len(self.actions), dtype=np.int8)
        self.no_actions.flags.writeable = False
        self.masks = MaskCache(self.size)  # the read-only masks (in a small space, cached per legal set)

    def _key(self, action: Action):
        return self._keys[action["type"]](action)

    def encode(self, action: Action):
        """The index of ``action``; ``ValueError`` if it is outside the space."""
        try:
            if set(action) - {"type"} - set(self._names[action["type"]]):
                raise KeyError("unexpected parameter")
            return self._index[self._key(action)]
        except (KeyError, TypeError, AttributeError):
            raise ValueError(f"action outside the {self.name} space: {action!r}") from None

    def decode(self, index):
        """The action JSON (a fresh dict) at ``index``."""
        index = int(index)
        if not 0 <= index < self.size:
            raise ValueError(f"action index {index} outside 0..{self.size - 1}")
        return self.fresh(index)

    def fresh(self, index):
        """``decode`` for an int index known to be in the space (no checks)."""
        return self._copies[index]()

    def indices(self, actions: list[Action]):
        """The indices of ``actions`` as ``legal_actions`` gives them, in order."""
        index_of = self._index_of
        try:
            return [index_of[a["type"]](a) for a in actions]
        except (KeyError, TypeError):
            outside = [a for a in actions if self._key(a) not in self._index]
            raise ValueError(f"legal actions outside the {self.name} space: {outside[:3]}") from None

    def mask(self, actions: list[Action]):
        """An int8 vector over the space: 1 where an action of ``actions`` is."""
        out = np.zeros(len(self.actions), dtype=np.int8)
        if actions:
            out[self.indices(actions)] = 1
        return out


def enumerate_actions(game_id, num_players: int):
    """Every action of the space of ``game_id`` at ``num_players``, in index order."""
    entry = get_entry(game_id)
    game = entry.game
    # Enumerators for the types whose plain product is too big (the entry names them).
    structured = resolve(entry.action_enumerators) if entry.action_enumerators else {}
    out = []
    for name, spec in game.action_specs.items():
        if name in structured:
            out += structured[name](num_players)
        else:
            out += product_actions(spec, num_players)
    return out


@functools.cache
def _codec(game_id, num_players: int):
    specs = engine.get_game(game_id).action_specs
    names = {kind: list(spec.params) for kind, spec in specs.items()}
    squares = {
        kind: [n for n, d in spec.params.items() if isinstance(getattr(d, "inner", d), Square)]
        for kind, spec in specs.items()
    }
    return ActionCodec(f"{game_id} {num_players}p", enumerate_actions(game_id, num_players), names, squares)


def codec_for(variant: Variant):
    """The (shared, immutable) codec of ``variant`` (a ``Variant`` or its name).

    The space depends on the game and the player count only (the seat
    parameters stop at it): variants that differ in rule options share it,
    and an action a variant never allows is simply never unmasked."""
    variant = get_variant(variant)
    return _codec(variant.game, variant.num_players)
