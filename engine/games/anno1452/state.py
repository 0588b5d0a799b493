"""The match state: one JSON-compatible dict plus small shared helpers.

``State.data`` is exactly what ``dump`` returns (see DESIGN.md), so a state
round-trips through JSON and copies cheaply. Helpers here are the only code
that touches gold, prestige and the generator, so the 0-20 bounds, the
insolvency rule and the seeded dice are applied in one place.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from ...kit import event
from ...rng import Dice, Rng
from .data import GOLD_PER_PRESTIGE, OTTOKAR_ID, PRESTIGE_MAX

if TYPE_CHECKING:
    from ...core import Event


def _copy(value):
    """Deep copy of plain JSON data (a marshal round trip, in memory)."""
    return marshal.loads(marshal.dumps(value))


# Lists of numbers (or None), copied flat by ``clone_data``.
_FLAT_LISTS: Final = ("deck", "discard", "open_cards")


def clone_data(d: Data) -> Data:
    """Copy of the state's data for ``apply`` to change.

    Cloning is part of every ``apply`` (and of every AI rollout step), so
    each part is copied by hand as its shape allows (DESIGN.md's dump
    format). Two parts are copy-on-write: the regions list is new but
    the regions in it, their slot lists and Estates are shared with ``d``,
    since they are only ever replaced (``board.set_slot``,
    ``board.change_estate``), and so are the queued steps (only ever pushed
    and popped). Some parts are shared whole: the options (never changed
    after the set-up), the pending decision (replaced when it changes:
    ``steps.change_decision``), the evaluation round's effects (replaced
    when a card marks one: ``actions_special._er_mark``), and the turn
    order and the lists of initial regions, of Landfrieden's seats and of
    the seats that played in this evaluation round (each replaced when it
    changes). ``test_anno1452_clone``
    checks on every state of seeded matches of every variant that the copy
    equals the state and shares no other list or dict with it (a part added
    to the format and not copied here fails it);
    ``tests/engine/test_input_untouched.py`` that no
    ``apply`` changes its input, shared parts included. (The lists are
    typed so that, compiled, mypyc copies them directly, engine/native.py.)
    """
    out = d.copy()
    for key in _FLAT_LISTS:
        flat: list[Any] = d[key]
        out[key] = flat[:]
    regions: list[Any] = d["regions"]
    queue: list[Any] = d["queue"]
    players: list[dict[str, Any]] = d["players"]
    out["regions"] = regions[:]
    out["queue"] = queue[:]
    out["players"] = [_copy_player(player) for player in players]
    _copy_pending(d, out)
    soldiers: dict[str, Any] = d["soldiers"]
    pacts: list[list[Any]] = d["pacts"]
    out["soldiers"] = soldiers.copy()
    out["pacts"] = [pact[:] for pact in pacts]
    return out


def _copy_pending(d: Data, out: Data) -> None:
    """``clone_data``'s parts that are None unless a battle or a trade is
    under way."""
    # Typed: compiled, the dicts are copied and iterated directly.
    battle: dict[str, Any] | None = d["battle"]
    swap, new_order, trade, offer = d["swap"], d["new_order"], d["trade"], d["offer"]
    if trade is not None:
        out["trade"] = _copy_trade(trade)
    if battle is not None:  # its parts hold numbers (or lists or dicts of them)
        out["battle"] = {key: _copy_flat(value) for key, value in battle.items()}
    if offer is not None:
        out["offer"] = {**offer, "give": _copy_side(offer["give"]), "ask": _copy_side(offer["ask"])}
    if swap is not None:
        out["swap"] = swap.copy()
    if new_order is not None:
        out["new_order"] = new_order[:]


def _copy_flat(value):
    """A copy of a list or dict of numbers; anything else as it is."""
    if type(value) is list:
        items: list[Any] = value
        return items[:]
    if type(value) is dict:
        entries: dict[Any, Any] = value
        return entries.copy()
    return value


def _copy_trade(trade):
    draft = trade["draft"]
    if draft is not None:
        draft = {**draft, "give": _copy_side(draft["give"]), "ask": _copy_side(draft["ask"])}
    return {**trade, "done": trade["done"][:], "offers": trade["offers"].copy(), "draft": draft}


def _copy_side(side):
    """One side of a trade draft (``bundles.empty_side``)."""
    return {**side, "cards": side["cards"][:], "estates": [estate[:] for estate in side["estates"]]}


def _copy_player(player: dict[str, Any]) -> dict[str, Any]:
    copy = player.copy()
    hand: list[int] = player["hand"]
    titles: list[int] = player["titles"]
    copy["hand"] = hand[:]
    copy["titles"] = titles[:]
    marriage = player["marriage"]
    if marriage is not None:
        copy["marriage"] = {**marriage, "conveyed": marriage["conveyed"][:]}
    return copy


# The match's plain data: one JSON dict in the DESIGN.md dump format.
Data = dict[str, Any]


class State:
    """A match position; ``data`` is plain JSON data."""

    __slots__ = ("data",)

    def __init__(self, data):
        self.data = data

    def clone(self):
        return State(clone_data(self.data))

    def frozen(self):
        """This position, for cloning many times and changing never (an AI
        player applies each of its moves to one position)."""
        return FrozenState(self.data)

    def __eq__(self, other):
        return isinstance(other, State) and self.data == other.data

    def __repr__(self):
        d = self.data
        return f"<Anno1452 row={d['row']} phase={d['phase']} decision={d['decision']}>"


class FrozenState(State):
    """A ``State`` whose data must not change. (Its clones were once read
    from the data serialized when it was made; ``clone_data`` is faster.)"""

    __slots__ = ()


def copy_data(data):
    return _copy(data)


# What makes the generator for the state's "rng" int: ``Rng``, unless a test
# scripts the dice (``use_dice``). A list, not a name to patch: ``Rng`` is a
# compiled class (engine/native.py), and a compiled caller binds it directly.
_DICE: Final[list[Callable[[int], Dice]]] = [Rng]


def use_dice(make: Callable[[int], Dice]) -> Callable[[int], Dice]:
    """Draw the rules' dice and shuffles from ``make(d["rng"])`` from now on;
    returns what made them until now, to be restored."""
    previous = _DICE[0]
    _DICE[0] = make
    return previous


def roll(d: Data, count, events: list[Event], purpose, seat=None):
    """Roll ``count`` dice with the state's generator; recorded as an event."""
    make = _DICE[0]
    if make is Rng:  # compiled, an Rng's methods are called directly, not looked up
        rng = Rng(d["rng"])
        dice = rng.dice(count)
        d["rng"] = rng.state
    else:
        scripted = make(d["rng"])
        dice = scripted.dice(count)
        d["rng"] = scripted.state
    event(events, "dice_rolled", seat, purpose=purpose, dice=dice)
    return dice


def shuffle(d: Data, items) -> None:
    make = _DICE[0]
    if make is Rng:  # as in ``roll``
        rng = Rng(d["rng"])
        rng.shuffle(items)
        d["rng"] = rng.state
        return
    scripted = make(d["rng"])
    scripted.shuffle(items)
    d["rng"] = scripted.state


def players_of(d: Data):
    """Seats of the real players (Ottokar is never one)."""
    return range(d["num_players"])


def is_player(owner) -> bool:
    return owner != OTTOKAR_ID


def gain_gold(d: Data, seat, amount, events: list[Event], reason) -> None:
    if amount > 0:
        d["players"][seat]["gold"] += amount
        event(events, "gold_received", seat, amount=amount, reason=reason)


def pay_gold(d: Data, seat, amount, events: list[Event], reason) -> None:
    """Pay ``amount`` to the supply; the caller checked that it is payable."""
    if amount > 0:
        d["players"][seat]["gold"] -= amount
        event(events, "gold_paid", seat, amount=amount, reason=reason)


def change_prestige(d: Data, seat, delta, events: list[Event], reason) -> None:
    """Move on the 0-20 prestige table with the 5-gold conversions.

    Points above 20 become 5 gold each; points lost below 0 cost 5 gold each,
    and a player who cannot pay that debt makes the supply pay the amount to
    every other player instead (the insolvency rule, ruling 9).
    """
    if seat == OTTOKAR_ID or delta == 0:
        return
    player = d["players"][seat]
    raw = player["prestige"] + delta
    player["prestige"] = min(PRESTIGE_MAX, max(0, raw))
    event(events, "prestige_changed", seat, delta=delta, prestige=player["prestige"], reason=reason)
    if raw > PRESTIGE_MAX:
        gain_gold(d, seat, (raw - PRESTIGE_MAX) * GOLD_PER_PRESTIGE, events, "prestige_above_20")
    elif raw < 0:
        debt = -raw * GOLD_PER_PRESTIGE
        if player["gold"] >= debt:
            pay_gold(d, seat, debt, events, "prestige_below_0")
        else:
            event(events, "insolvent", seat, amount=debt)
            for other in players_of(d):
                if other != seat:
                    gain_gold(d, other, debt, events, "insolvency")
