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
import numbers
from typing import TYPE_CHECKING

import numpy as np

import engine
from engine.action_index import ActionIndex
from engine.params import IntRange, OneOf, Optional, Square
from engine.registry import get_entry, resolve

from .masks import MaskCache
from .variants import get_variant

if TYPE_CHECKING:
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
        # type -> its parameter names, in spec order.
        self._names = {kind: tuple(names) for kind, names in param_names.items()}
        # action -> index, for every legal action of every step: compiled with the
        # rules (engine.action_index), a list of a step's actions in one call.
        self._lookup = ActionIndex(self.actions, self._names, square_params, f"the {name}")
        # ``indices(actions)``: the indices of ``actions`` as ``legal_actions`` gives them,
        # in order; ``ValueError`` naming those outside the space. The compiled call
        # itself: a method passing it on cost a call a step.
        self.indices = self._lookup.indices
        # index -> a call that gives a fresh copy of its action (``dict(action)``
        # as one C call where no value is a list): ``decode``, the history's too.
        self._copies = tuple(_copier(action) for action in self.actions)
        self.no_actions = np.zeros(len(self.actions), dtype=np.int8)
        self.no_actions.flags.writeable = False
        self.masks = MaskCache(self.size)  # the read-only masks (in a small space, cached per legal set)

    def encode(self, action: Action):
        """The index of ``action``; ``ValueError`` if it is outside the space."""
        try:
            if set(action) - {"type"} - set(self._names[action["type"]]):
                raise KeyError("unexpected parameter")
            return self._lookup.index({key: _plain(value) for key, value in action.items()})
        except (KeyError, TypeError, ValueError, AttributeError):
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


def _plain(value):
    """``value`` as the rules write it: a NumPy integer (an agent's action read
    back from an array) or an integral float as an int, in lists too. The
    compiled lookup keys ints by value and type, where the dict it replaced
    matched any equal number."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def codec_for(variant: Variant):
    """The (shared, immutable) codec of ``variant`` (a ``Variant`` or its name).

    The space depends on the game and the player count only (the seat
    parameters stop at it): variants that differ in rule options share it,
    and an action a variant never allows is simply never unmasked."""
    variant = get_variant(variant)
    return _codec(variant.game, variant.num_players)
