"""The authoring kit: how a game's rules are written, one way for every game.

Every bundled game (and a third one) is written with these pieces:

Events
    ``event(events, event_type, seat, private=..., **data)`` appends the one event
    shape the service stores and redacts (``core.redact_event``):
    ``{"type", "seat", "data", "private"?}``. ``data`` is public; ``private``
    maps a seat to what only that seat may learn (a drawn card, a discovered
    tile). Rules never build event dicts by hand.

Actions
    Each action type is one ``ActionSpec`` with three hooks, named after the
    action's stem in the module that holds them::

        def _sell_candidates(state, seat): ...        # well-formed, maybe legal
        def _sell_check(state, seat, action): ...     # a reason string, or None
        def _sell_perform(state, seat, action, events): ...  # mutates the clone

        SPECS = [ActionSpec("sell", {...params...}, _sell_candidates,
                            _sell_check, _sell_perform, "description")]

    An action module ends with its ``SPECS`` list; the game joins them with
    ``specs_by_name``, which refuses a type defined twice, so the table is
    built in one visible place, never filled as a side effect of an import.

Variants
    A variant (an expansion) is a package of its own with its own state part
    and the hooks the base rules call at fixed points; the base rules read as
    the base game (see ``games/anno1503/expansion``).
"""

from collections.abc import Iterable, Mapping
from typing import Any

from .core import ActionSpec, Event, Seat

__all__ = ["ActionSpec", "event", "private_to", "specs_by_name"]


def event(
    events: list[Event],
    event_type: str,  # not "kind": an event's data has a field "kind", and mypyc refuses the two
    seat: Seat | None = None,
    /,
    private: Mapping[int, Mapping[str, Any]] | Mapping[str, Mapping[str, Any]] | None = None,
    **data: Any,
) -> None:
    """Append an event ``{"type", "seat", "data", "private"?}`` to ``events``.

    ``private`` is ``{seat: extra data}`` (int or str seats); it is stored
    with string keys, as JSON carries them, and left out when empty.
    """
    ev: Event = {"type": event_type, "seat": seat, "data": data}
    if private:
        ev["private"] = {str(who): extra for who, extra in private.items()}
    events.append(ev)


def private_to(seats: Iterable[Seat], **data: Any) -> dict[Seat, dict[str, Any]]:
    """``event``'s ``private`` when several seats learn the same thing (the two
    parties of an exchange): ``{seat: data}`` for each of ``seats``, in order."""
    return {seat: dict(data) for seat in seats}


def specs_by_name(*spec_lists: Iterable[ActionSpec[Any]]) -> dict[str, ActionSpec[Any]]:
    """``{name: ActionSpec}`` over the action modules' ``SPECS`` lists, in order.

    Raises ``ValueError`` when two specs share a name: a later one would
    otherwise silently replace the earlier.
    """
    table: dict[str, ActionSpec[Any]] = {}
    for specs in spec_lists:
        for spec in specs:
            if spec.name in table:
                raise ValueError(f"action type {spec.name!r} is defined twice")
            table[spec.name] = spec
    return table
