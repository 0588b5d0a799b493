"""The game definition every game implements, and the checked apply.

A game is a ``Game`` subclass plus a list of ``ActionSpec``. Each spec knows
how to enumerate candidate actions, why one would be illegal now, and how to
apply it. ``legal_actions`` is the candidates that pass ``check``; ``apply``
refuses with exactly that ``check``'s reason. Because both go through the
same function, the list and the checked apply cannot drift apart.

A spec may also give ``legal(state, seat)``: the same list generated
directly (for action types with many candidates, where generate-then-check
dominates a game's speed). It must equal the checked candidates, order
included; ``Game.checked_legal_actions`` is the reference a test compares
it with on every state of seeded matches.
"""

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from .errors import GameOverError, IllegalActionError, NotYourTurnError
from .params import Domain, check_shape

# The JSON shapes of the public API (api-contract.md): plain dicts at run time.
Action = dict[str, Any]  # {"type": ..., **params}, as in the HTTP API
Event = dict[str, Any]  # {"type", "seat", "data", "private"?} (kit.event)
View = dict[str, Any]  # one seat's (or a spectator's) view, as in the HTTP API
Outcome = dict[str, Any]  # {"winners": [...], "reason": ..., "scores": {...}}
Seat = int


class State(Protocol):
    """What the machinery needs of a game's state: a deep copy. The rest of
    a state is the game's own business (opaque to callers)."""

    def clone(self) -> Self: ...


StateT = TypeVar("StateT", bound=State)


class ActionSpec(Generic[StateT]):
    """One action type: its parameters and three hooks.

    ``candidates(state, seat)`` yields well-formed actions that may be legal
    (a superset of the legal ones); ``check(state, seat, action)`` returns a
    reason string when illegal, else None; ``perform(state, seat, action,
    events)`` mutates a cloned state. ``legal(state, seat)``, optional, is the
    candidates that pass ``check``, in their order, generated directly.
    """

    def __init__(
        self,
        name: str,
        params: Mapping[str, Domain],
        candidates: Callable[[StateT, Seat], Iterable[Action]],
        check: Callable[[StateT, Seat, Action], str | None],
        perform: Callable[[StateT, Seat, Action, list[Event]], None],
        description: str = "",
        legal: Callable[[StateT, Seat], list[Action]] | None = None,
    ) -> None:
        self.name = name
        self.legal = legal
        self.params = params
        self.candidates = candidates
        self.check = check
        self.perform = perform
        self.description = description


class Game(Generic[StateT]):
    """Base class: the generic checked-apply machinery.

    Subclasses set ``id``, ``title``, ``min_players``, ``max_players``,
    ``version``, ``options`` and ``action_specs`` (name -> ActionSpec) and
    implement ``setup_with_events``, ``resolve_options``, ``to_act``,
    ``outcome``, ``view``, ``dump``, ``load``, ``_available_types(state,
    seat)`` (the spec names that may apply now) and optionally
    ``_after_apply``. ``StateT`` is the game's state class (opaque to callers).
    """

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    version: ClassVar[int] = 1
    # The catalogue's options: {name: {"type", "default", "choices"?, ...}}.
    options: ClassVar[dict[str, dict[str, Any]]] = {}
    action_specs: ClassVar[dict[str, ActionSpec[Any]]] = {}

    # --- the public API -------------------------------------------------

    def setup(self, num_players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> StateT:
        """A new match's state; raises ``InvalidOptionsError``."""
        return self.setup_with_events(num_players, options, seed)[0]

    def setup_with_events(
        self, num_players: int, options: Mapping[str, Any] | None = None, seed: int = 0
    ) -> tuple[StateT, list[Event]]:
        """``(state, events)``: a new match and the events of its set-up.

        The events show every chance of the set-up a player may learn of
        (start rolls, shuffled turn order, cards dealt), shaped as ``apply``'s
        are: what only one seat may see goes in that seat's private part.
        Raises ``InvalidOptionsError``.
        """
        raise NotImplementedError

    def resolve_options(self, num_players: int, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The complete options a match of ``num_players`` is played with.

        The given ``options`` plus a default for every one left out; a default
        may depend on the player count (only the game knows), so callers that
        store a match's options store these, never the catalogue's defaults.
        Raises ``InvalidOptionsError`` for a count or option ``setup`` refuses.
        """
        raise NotImplementedError

    def to_act(self, state: StateT) -> list[Seat]:
        """The seats with a decision pending (none once the match is over)."""
        raise NotImplementedError

    def outcome(self, state: StateT) -> Outcome | None:
        """None while the match goes on, else ``{"winners", "reason", "scores"}``."""
        raise NotImplementedError

    def view(self, state: StateT, seat: Seat | None) -> View:
        """What ``seat`` may see (None: a spectator), as in the HTTP API."""
        raise NotImplementedError

    def dump(self, state: StateT) -> dict[str, Any]:
        """The state as JSON-compatible data (``load`` reads it back)."""
        raise NotImplementedError

    def load(self, data: Mapping[str, Any]) -> StateT:
        """The state ``dump`` wrote."""
        raise NotImplementedError

    def legal_actions(self, state: StateT, seat: Seat) -> list[Action]:
        """Every legal action of ``seat`` now, in a deterministic order."""
        if self.outcome(state) is not None or seat not in self.to_act(state):
            return []
        out: list[Action] = []
        for name in self._available_types(state, seat):
            spec = self.action_specs[name]
            if spec.legal is not None:
                out += spec.legal(state, seat)
                continue
            check = spec.check
            for action in spec.candidates(state, seat):
                if check(state, seat, action) is None:
                    out.append(action)
        return out

    def checked_legal_actions(self, state: StateT, seat: Seat, name: str) -> list[Action]:
        """The candidates of action type ``name`` that pass its ``check``: the
        reference a spec's ``legal`` generator must equal (tests compare them)."""
        spec = self.action_specs[name]
        return [action for action in spec.candidates(state, seat) if spec.check(state, seat, action) is None]

    def apply(self, state: StateT, seat: Seat, action: Action) -> tuple[StateT, list[Event]]:
        """Apply ``action`` for ``seat``; return ``(new_state, events)``.

        The input state is never changed. Raises ``GameOverError``,
        ``NotYourTurnError``, ``InvalidActionError`` (malformed) or
        ``IllegalActionError`` (with ``reason``).
        """
        spec = self._check(state, seat, action)
        new = self.clone(state)
        events: list[Event] = []
        spec.perform(new, seat, action, events)
        self._after_apply(new, events)
        return new, events

    def apply_legal(self, state: StateT, seat: Seat, action: Action) -> tuple[StateT, list[Event]]:
        """``apply`` for an action known to be legal: one of ``legal_actions(state,
        seat)`` (e.g. picked by its index in that list, as the environments
        do), so the check ``apply`` would repeat is skipped. Anything else is
        undefined behaviour: use ``apply`` for actions from outside."""
        spec = self.action_specs[action["type"]]
        new = self.clone(state)
        events: list[Event] = []
        spec.perform(new, seat, action, events)
        self._after_apply(new, events)
        return new, events

    def is_legal(self, state: StateT, seat: Seat, action: Action) -> bool:
        """True when ``apply`` would accept ``action``."""
        try:
            self._check(state, seat, action)
        except (GameOverError, NotYourTurnError, ValueError):
            return False
        return True

    def describe(self) -> dict[str, Any]:
        """Catalogue entry (the contract's ``Game``), minus service fields."""
        return {
            "id": self.id,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "version": self.version,
            "options": self.options,
        }

    def describe_actions(self) -> dict[str, dict[str, Any]]:
        """``{type: {"description", "params": {name: domain description}}}``."""
        return {
            name: {
                "description": spec.description,
                "params": {p: d.describe() for p, d in spec.params.items()},
            }
            for name, spec in self.action_specs.items()
        }

    # --- hooks for subclasses ------------------------------------------

    def clone(self, state: StateT) -> StateT:
        return state.clone()

    def _available_types(self, state: StateT, seat: Seat) -> Collection[str]:
        raise NotImplementedError

    def _after_apply(self, state: StateT, events: list[Event]) -> None:
        """Resolve automatic steps after an action (chance, end checks)."""

    # --- internals -----------------------------------------------------

    def _check(self, state: StateT, seat: Seat, action: Action) -> ActionSpec[Any]:
        if self.outcome(state) is not None:
            raise GameOverError("the match is over")
        if seat not in self.to_act(state):
            raise NotYourTurnError(f"seat {seat} has nothing to decide now", seat=seat)
        spec = check_shape(action, self.action_specs)
        if spec.name not in self._available_types(state, seat):
            raise IllegalActionError("wrong_phase", f"{spec.name} is not possible at this point of the turn")
        reason = spec.check(state, seat, action)
        if reason is not None:
            raise IllegalActionError(reason)
        return spec


class Player(Protocol):
    """A player of any game (``engine.ai.get_player`` gives one; so may a bot):
    given the game, its seat, that seat's view and its legal actions (never
    the state), it picks one of the actions, the same one for the same seed."""

    def choose(
        self, game: Game[Any], seat: Seat, view: View, actions: list[Action], seed: int = 0
    ) -> Action: ...


def redact_event(event: Mapping[str, Any], viewer: Seat | None) -> Event:
    """The event as ``viewer`` (a seat, or None for a spectator) may see it.

    Engine events are ``{"type", "seat", "data", "private"?}``; ``private``
    maps a seat (as a string) to extra data only that seat may see, which is
    merged into ``data`` for that seat and dropped for everyone else.
    """
    out = {"type": event["type"], "seat": event.get("seat"), "data": event.get("data", {})}
    private = event.get("private")
    if private and viewer is not None:
        extra = private.get(str(viewer))
        if extra:
            out["data"] = {**out["data"], **extra}
    return out
