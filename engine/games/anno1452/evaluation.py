"""The evaluation round: cards, income, prestige, coronation, turn order.

Each phase is a step of ``flow``'s queue; the phases run in the printed
order and every player finishes a phase before the next one starts. The
final evaluation plays only income and prestige, then scores.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...kit import event
from .board import Area, Slot, principalities_of, set_slots, settle_holdings, totals
from .data import AR_TEXTS, CARDS, ER_TEXTS, ESTATE_STRENGTH, HAND_SIZE, ROWS
from .deck import draw_cards, elect_king, end_crowns
from .state import change_prestige, gain_gold, pay_gold, players_of, roll
from .steps import decide, push_front

if TYPE_CHECKING:
    from collections.abc import Callable

    from ...core import Event
    from .state import Data


# Special Action cards usable in each ER window (their "ER:" text).
WINDOW_CARDS = {
    "income": ("sondersteuer", "messe", "pest", "steuerpacht"),
    "prestige": ("reichstag", "ablass", "turnier"),
    "coronation": ("bestechung",),
    "order": ("landfrieden",),
}


def empty_effects():
    return {
        "sondersteuer": [],
        "messe": [],
        "steuerpacht": [],
        "reichstag": [],
        "bestechung": None,
        "landfrieden": [],
    }


def er_steps(d: Data):
    """The queue of an ordinary evaluation round."""
    opts = d["options"]
    steps = []
    if opts["marriage_end"] == "last_action_round":
        steps.append(["marriages_end"])
    steps += [["discard_turn", seat] for seat in d["order"]]
    steps += [["window", "income"], ["income"]]
    if opts["rules"] == "expert":
        steps.append(["trade"])
    steps += [["window", "prestige"], ["prestige"]]
    if opts["marriage_end"] == "prestige_phase":
        steps.append(["marriages_end"])
    if ROWS[d["row"]]["coronation"]:
        steps += [["window", "coronation"], ["coronation"]]
    steps += [["window", "order"], ["order"], ["epoch"]]
    return steps


# --- phase 1: cards --------------------------------------------------------


def discard_limits(d: Data, seat):
    """``(must, may)``: cards ``seat`` must / may still discard this phase.

    Expert rule: only one card, beyond the cards over 5 (keep at least 4).
    """
    hand = len(d["players"][seat]["hand"])
    must = max(0, hand - HAND_SIZE)
    if d["options"]["rules"] == "expert" and d["options"]["discard_limit"] == "one_card":
        start = d["decision"]["hand_start"]
        allowed = min(start, max(1, start - (HAND_SIZE - 1)))
        return must, max(0, allowed - d["decision"]["discarded"])
    return must, hand


def _discard_turn(d: Data, events: list[Event], seat) -> None:
    push_front(d, ["refill", seat])
    if d["players"][seat]["hand"]:
        decide(d, "discard", [seat], discarded=0, hand_start=len(d["players"][seat]["hand"]))


def _refill(d: Data, events: list[Event], seat) -> None:
    need = HAND_SIZE - len(d["players"][seat]["hand"])
    if need > 0:
        draw_cards(d, seat, need, events)


# --- special action windows --------------------------------------------------


# Per window, the ids of the Special Action cards usable in it (card ids
# are CARDS indices): a hand is checked against a set, not card by card
# against the texts (every seat at every window of every round).
_WINDOW_CARD_IDS = {
    window: frozenset(
        card for card, text in enumerate(CARDS) if text["kind"] == "special" and text.get("effect") in effects
    )
    for window, effects in WINDOW_CARDS.items()
}


def window_cards(d: Data, seat, window):
    """Cards in ``seat``'s hand usable in this ER window now."""
    if seat in d["er_used"]:
        return []
    usable = _WINDOW_CARD_IDS[window]
    player = d["players"][seat]
    out = []
    hand: list[int] = player["hand"]
    for card in hand:
        if card not in usable:
            continue
        effect = CARDS[card]["effect"]
        if effect == "ablass" and player["gold"] < AR_TEXTS["ablass"]["gold_per_point"]:
            continue
        if effect == "bestechung" and (
            player["gold"] < ER_TEXTS["bestechung"]["cost"]
            or d["interregnum"]
            or d["er_effects"]["bestechung"] is not None
        ):
            continue
        out.append(card)
    return out


def _window(d: Data, events: list[Event], window) -> None:
    push_front(d, *[["ask_special", window, seat] for seat in d["order"] if window_cards(d, seat, window)])


def _ask_special(d: Data, events: list[Event], window, seat) -> None:
    if window_cards(d, seat, window):
        decide(d, "er_special", [seat], window=window)


# --- phase 2: income -----------------------------------------------------------


def income_of(d: Data, seat):
    """Estate value (3 or its reduction) + Citizens + Cities + Principalities;
    Sondersteuer and Messe played in this ER raise a Citizen's and a City's pay."""
    effects = d["er_effects"]
    per_citizen: int = ER_TEXTS["sondersteuer"]["gold_per_citizen"] if seat in effects["sondersteuer"] else 1
    per_city: int = 1 + (ER_TEXTS["messe"]["extra_gold_per_city"] if seat in effects["messe"] else 0)
    # One typed pass over the map (compiled: machine ints, no generator).
    total = 0
    areas: list[Area] = d["regions"]
    for area in areas:
        if area["principality"] == seat:
            total += 1
        slots: list[Slot] = area["slots"]
        for estate in slots:
            if estate is not None and estate["owner"] == seat:
                strength: int = estate["strength"]
                settled: int = estate["citizens"]
                total += strength + settled * per_citizen
                if estate["city"]:
                    total += per_city
    return total


def _income(d: Data, events: list[Event]) -> None:
    for seat in d["order"]:
        gain_gold(d, seat, income_of(d, seat), events, "income")
    toll = ER_TEXTS["steuerpacht"]["gold"]
    for seat in d["er_effects"]["steuerpacht"]:
        for other in d["order"]:
            if other != seat and d["players"][other]["gold"] >= toll:
                pay_gold(d, other, toll, events, "steuerpacht")
                gain_gold(d, seat, toll, events, "steuerpacht")
    _heal_estates(d)


def _heal_estates(d: Data) -> None:
    """Estates heal: reduction tokens go back after the payout (ruling 8).
    A region's healed Estates are replaced at once (``board.set_slots``)."""
    areas: list[Area] = d["regions"]
    for region, area in enumerate(areas):
        slots: list[Slot] = area["slots"]
        healed = [
            (slot, {**estate, "strength": ESTATE_STRENGTH})
            for slot, estate in enumerate(slots)
            if estate is not None and estate["strength"] != ESTATE_STRENGTH
        ]
        if healed:
            set_slots(d, region, healed)


# --- phase 4: prestige -------------------------------------------------------


def category_counts(d: Data, seat):
    estates, citizens, cities = totals(d, seat)
    return {
        "estates": estates,
        "citizens": citizens,
        "cities": cities,
        "principalities": len(principalities_of(d, seat)),
    }


def _prestige(d: Data, events: list[Event]) -> None:
    counts = {seat: category_counts(d, seat) for seat in players_of(d)}
    spared = set(d["er_effects"]["reichstag"])
    for category in ("estates", "citizens", "cities", "principalities"):
        values = {seat: of_seat[category] for seat, of_seat in counts.items()}
        most, fewest = max(values.values()), min(values.values())
        if most == fewest:
            continue
        for seat in d["order"]:
            if values[seat] == most:
                change_prestige(d, seat, 1, events, "most_" + category)
            elif values[seat] == fewest:
                if seat in spared:
                    spared.discard(seat)
                    event(events, "penalty_ignored", seat, category=category, reason="reichstag")
                    continue
                change_prestige(d, seat, -1, events, "fewest_" + category)


def _marriages_end(d: Data, events: list[Event]) -> None:
    for seat in players_of(d):
        player = d["players"][seat]
        player["married_this_epoch"] = False
        if player["marriage"] is not None:
            d["discard"].append(player["marriage"]["card"])
            event(events, "marriage_ended", seat, card=player["marriage"]["card"], reason="epoch_end")
            player["marriage"] = None
    settle_holdings(d, events)


# --- phase 5: coronation -------------------------------------------------------


def _coronation(d: Data, events: list[Event]) -> None:
    if d["king"] is not None:
        event(events, "crown_lost", d["king"], role="king", reason="reign_over")
        d["king"] = None
        d["soldiers"]["king"] = 0
    if d["anti_king"] is not None and d.get("anti_king_row") != d["row"]:
        event(events, "crown_lost", d["anti_king"], role="anti_king", reason="reign_over")
        d["anti_king"] = None
        d["soldiers"]["anti_king"] = 0
    if d["interregnum"]:
        event(events, "coronation_skipped", reason="interregnum")
        end_crowns(d, events, "interregnum")
    else:
        briber = d["er_effects"]["bestechung"]
        if briber is not None:
            pay_gold(d, briber, ER_TEXTS["bestechung"]["cost"], events, "bestechung")
        elect_king(d, events, bribed_by=briber)
        if d["anti_king"] == d["king"]:
            d["anti_king"] = None
            d["soldiers"]["anti_king"] = 0
    d["crowned"] = True


# --- phase 6: turn order -------------------------------------------------------


def _order(d: Data, events: list[Event]) -> None:
    d["new_order"] = [None] * d["num_players"]
    choosers = [seat for seat in (d["king"], d["anti_king"]) if seat is not None]
    choosers += [
        seat for seat in d["order"] if seat in d["er_effects"]["landfrieden"] and seat not in choosers
    ]
    push_front(d, *[["position", seat] for seat in choosers], ["order_rest"])


def _position(d: Data, events: list[Event], seat) -> None:
    decide(d, "position", [seat])


def _order_rest(d: Data, events: list[Event]) -> None:
    placed = {seat for seat in d["new_order"] if seat is not None}
    rest = [seat for seat in d["order"] if seat not in placed]
    rest.sort(key=lambda seat: -d["players"][seat]["prestige"])
    ranked = []
    first = 0  # the first seat in ``rest`` not ranked yet
    while first < len(rest):
        prestige = d["players"][rest[first]]["prestige"]
        group = [seat for seat in rest if d["players"][seat]["prestige"] == prestige]
        ranked += _order_ties(d, group, events)
        first += len(group)
    free = [position for position, seat in enumerate(d["new_order"]) if seat is None]
    for position, seat in zip(free, ranked):
        d["new_order"][position] = seat
    d["order"] = d["new_order"]
    d["new_order"] = None
    event(events, "turn_order", order=list(d["order"]))


def _order_ties(d: Data, group, events: list[Event]):
    """Dice decide the order of players tied on prestige (highest first)."""
    if len(group) == 1:
        return group
    dice = roll(d, len(group), events, "turn_order_tie")
    best = max(dice)
    top = [seat for seat, value in zip(group, dice) if value == best]
    if len(top) > 1:
        top = _order_ties(d, top, events)
    return (
        top + _order_ties(d, [seat for seat in group if seat not in top], events)
        if len(top) < len(group)
        else top
    )


# --- the end -----------------------------------------------------------------------


def victory_points(d: Data, seat):
    estates, citizens, cities = totals(d, seat)
    player = d["players"][seat]
    return (
        estates
        + citizens // 2
        + cities
        + len(principalities_of(d, seat))
        + player["gold"] // 10
        + player["prestige"]
    )


def _final(d: Data, events: list[Event]) -> None:
    scores = {seat: victory_points(d, seat) for seat in players_of(d)}
    # Tie-break (ruling 12): more Prestige, then more gold.
    key = {
        seat: (scores[seat], d["players"][seat]["prestige"], d["players"][seat]["gold"]) for seat in scores
    }
    best = max(key.values())
    winners = [seat for seat in scores if key[seat] == best]
    d["result"] = {
        "winners": winners,
        "reason": "final_evaluation",
        "scores": {str(seat): value for seat, value in scores.items()},
    }
    d["phase"] = "over"
    d["decision"] = None
    event(events, "game_over", winners=winners, scores=d["result"]["scores"])


STEPS: dict[str, Callable[..., Any]] = {
    "discard_turn": _discard_turn,
    "refill": _refill,
    "window": _window,
    "ask_special": _ask_special,
    "income": _income,
    "prestige": _prestige,
    "marriages_end": _marriages_end,
    "coronation": _coronation,
    "order": _order,
    "position": _position,
    "order_rest": _order_rest,
    "final": _final,
}
