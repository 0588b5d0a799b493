"""Hidden information: views must not depend on, nor contain, what is hidden.

The game module of this package says what a viewer cannot see, as
``perturbations(dump, viewer)`` (edited copies of a dump that change only
hidden things, each with a name) and ``view_leaks(view, dump, viewer)``
(problems found by searching a view's JSON). This module runs both for every
viewer, spectators (``None``) included.
"""

from collections import Counter

from .checks import first_diff, strict_json


def step_generator(dump, viewer):
    """A perturbation every game has: advance the hidden generator state."""
    dump["rng"] = (dump["rng"] * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    return True


def hand_leaks(view, dump, viewer, size=len):
    """Each seat's hand is shown to its owner only; others see ``hand_size``
    (``size`` counts a dumped hand: a list of cards by default)."""
    problems = []
    for entry in view["players"]:
        seat = entry["seat"]
        hand = dump["players"][seat]["hand"]
        if seat == viewer:
            if entry.get("hand") != hand:
                problems.append(f"own hand shown as {entry.get('hand')} instead of {hand}")
        elif "hand" in entry:
            problems.append(f"seat {seat}'s hand is in the view of {viewer}")
        elif entry.get("hand_size") != size(hand):
            problems.append(f"seat {seat} hand_size {entry.get('hand_size')} != {size(hand)}")
    return problems


def viewers(num_players):
    """Every seat, then the spectator."""
    return [*range(num_players), None]


def check_views(game, support, state, dump, num_players, where, done=None):
    """Views are JSON, leak nothing, and ignore hidden changes.

    ``done`` (a Counter) counts the perturbations really applied, by name, so
    a match can prove its secrecy checks were not all vacuous.
    """
    done = done if done is not None else Counter()
    to_act = game.to_act(state)
    for viewer in viewers(num_players):
        at = f"{where}, viewer {viewer}"
        view = strict_json(game.view(state, viewer), f"view at {at}")
        if viewer not in to_act:
            assert "legal_actions" not in view, f"a seat with nothing to decide gets legal_actions at {at}"
        problems = support.view_leaks(view, dump, viewer)
        assert not problems, f"view leaks at {at}: {problems}"
        _insensitive_to_hidden(game, support, view, dump, viewer, at, done)
    return done


def _insensitive_to_hidden(game, support, view, dump, viewer, where, done):
    for name, changed in support.perturbations(dump, viewer):
        assert changed != dump, f"perturbation {name!r} changed nothing at {where}"
        other = game.view(game.load(changed), viewer)
        assert other == view, f"view depends on hidden {name!r} at {where}: {first_diff(view, other)}"
        done[name] += 1


def find_dicts(value, predicate, path="$"):
    """``(path, dict)`` for every dict inside ``value`` matching ``predicate``."""
    if isinstance(value, dict):
        if predicate(value):
            yield path, value
        for key, item in value.items():
            yield from find_dicts(item, predicate, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from find_dicts(item, predicate, f"{path}[{i}]")


def find_keys(value, keys, path="$"):
    """Paths of every dict key in ``keys`` anywhere inside ``value``."""
    for where, found in find_dicts(value, lambda d: bool(keys & set(d)), path):
        for key in sorted(keys & set(found)):
            yield f"{where}.{key}"


def find_values(value, targets, path="$"):
    """Paths where a scalar in ``targets`` occurs inside ``value``."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from find_values(item, targets, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from find_values(item, targets, f"{path}[{i}]")
    elif type(value) in (int, str) and value in targets:
        yield path
