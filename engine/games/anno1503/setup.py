"""Setting up a match by player count (S1 "Game material" and setup)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import Event
from ...kit import event
from ...rng import Rng
from .data import (
    BUILDINGS,
    BUILDINGS_BY_BACK,
    COMMODITIES,
    MARKS,
    RULES,
    SPACES,
    START,
    TILE_BACKS,
)
from .state import Player, State
from .turn import begin_turn
from .variants import check_options, variant_for

if TYPE_CHECKING:
    from ...core import Event
    from .state import Player, State


_BACKS = tuple(sorted(set(TILE_BACKS)))


def new_state(num_players, options, seed):
    """A fresh match; the first turn has begun (its roll is in the events).

    Returns ``(state, events)``.
    """
    options = check_options(num_players, options)
    s = State.__new__(State)
    s.options = options
    s.num_players = num_players
    s.seed = seed
    s.rng = Rng(seed)
    s.turn = 1
    s.phase = "main"
    s.last_roll = {"production": None, "event": None}
    s.queue = []
    s.choice = None
    s.discovery = None
    s.winner = None
    s.removed = []
    _deal_commodities(s)
    _lay_out_tiles(s)
    _lay_out_buildings(s)
    s.variant = variant_for(options)
    s.variant.set_up(s, _used_backs(num_players))
    events: list[Event] = []
    s.start_player = _roll_for_start(s, events)
    s.active = s.start_player
    begin_turn(s, events)
    return s, events


def _deal_commodities(s: State) -> None:
    start = RULES["start"]
    s.players = [Player.new(start["gold"], start["hand"], start["slots"]) for _ in range(s.num_players)]
    s.stacks = dict.fromkeys(COMMODITIES, RULES["stack_size"])
    for player in s.players:
        for commodity, n in player.hand.items():
            s.stacks[commodity] -= n
    # one ship on the start space, the second in stock
    for player in s.players:
        player.ship_at[0] = START


def _used_backs(num_players):
    """Tile stacks (and building cards) by the player count printed on their
    backs: 2p: 2; 3p: 2, 3; 4p: 2, 3, 4."""
    return tuple(back for back in _BACKS if back <= num_players)


def _lay_out_tiles(s: State) -> None:
    """Each used stack is shuffled and dealt face down on its marks; the
    leftovers form the reserve, unused stacks stay in the box."""
    backs = _used_backs(s.num_players)
    s.spaces = [None] * len(SPACES)
    s.seen = [()] * len(SPACES)
    reserve = []
    for back in backs:
        stack = [t for t, b in enumerate(TILE_BACKS) if b == back]
        s.rng.shuffle(stack)
        for i, mark in enumerate(MARKS):
            if mark == back and stack:
                s.spaces[i] = stack.pop()
        reserve.extend(stack)
    s.rng.shuffle(reserve)
    s.reserve = reserve
    s.box = tuple(t for t, b in enumerate(TILE_BACKS) if b not in backs)


def _lay_out_buildings(s: State) -> None:
    supply = dict.fromkeys(BUILDINGS, 0)
    for back in _used_backs(s.num_players):
        for name in BUILDINGS_BY_BACK[back]:
            supply[name] += 1
    s.buildings = supply


def _roll_for_start(s: State, events: list[Event]):
    """Everyone rolls; the highest starts; ties re-roll among the tied."""
    contenders = list(range(s.num_players))
    while True:
        rolls = {}
        for seat in contenders:
            rolls[seat] = s.rng.die()
            event(events, "die_rolled", seat, purpose="start_player", value=rolls[seat])
        best = max(rolls.values())
        contenders = [seat for seat in contenders if rolls[seat] == best]
        if len(contenders) == 1:
            return contenders[0]
