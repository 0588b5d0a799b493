"""Play complete matches with any players; used by tests, benches and bots.

>>> import engine
>>> from engine.runner import play_match
>>> game = engine.get_game("anno1503")
>>> result = play_match(game, [engine.ai.get_player("random")] * 2, seed=3)
>>> result.outcome["winners"] != []
True
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .core import Action, Event, Game, Outcome, Player, Seat
from .rng import mix_seed

# on_step(state, seat, action, new_state, events), after every action.
StepHook = Callable[[Any, Seat, Action, Any, list[Event]], None]


@dataclass
class MatchRecord:
    """What a finished (or cut-off) match leaves: enough to replay it."""

    seed: int
    options: Mapping[str, Any]
    num_players: int
    actions: list[tuple[Seat, Action]] = field(default_factory=list)
    outcome: Outcome | None = None
    final_state: Any = None


def play_match(
    game: Game[Any],
    players: Sequence[Player],
    seed: int,
    options: Mapping[str, Any] | None = None,
    max_actions: int = 1_000_000,
    on_step: StepHook | None = None,
) -> MatchRecord:
    """Play until the outcome is known (or ``max_actions``).

    ``players[seat]`` chooses from the seat's own view and legal actions.
    ``on_step(state, seat, action, new_state, events)`` is called after every
    action, for invariant checks.
    """
    options = options or {}
    state = game.setup(len(players), options, seed)
    record = MatchRecord(seed=seed, options=options, num_players=len(players))
    for step in range(max_actions):
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        view = game.view(state, seat)
        action = players[seat].choose(game, seat, view, actions, seed=mix_seed(seed, step))
        new_state, events = game.apply(state, seat, action)
        record.actions.append((seat, action))
        if on_step is not None:
            on_step(state, seat, action, new_state, events)
        state = new_state
    record.outcome = game.outcome(state)
    record.final_state = state
    return record


def replay(
    game: Game[Any],
    num_players: int,
    options: Mapping[str, Any] | None,
    seed: int,
    actions: Iterable[tuple[Seat, Action]],
) -> tuple[Any, list[Event]]:
    """Re-run a recorded match; returns ``(state, all_events)``."""
    state = game.setup(num_players, options or {}, seed)
    events: list[Event] = []
    for seat, action in actions:
        state, new_events = game.apply(state, seat, action)
        events.extend(new_events)
    return state, events
