"""Playing action cards: City, Marriage, Title, Inheritance and Kindbett.

Special Action cards are in ``actions_special``. A card is one action: a
region card is played either for its main effect or as a City card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ...kit import event
from ...params import Optional
from .actionkit import CARD, ESTATE, SEAT, discard_from_hand, end_decision, make_spec, own_card
from .board import (
    can_build_city,
    can_place_estate,
    capacity,
    change_estate,
    cities_in,
    citizen_supply,
    estate_supply,
    free_slot,
    iter_estates,
    meets,
    place_estate,
    remove_citizens_auto,
    settle_holdings,
    totals,
    transfer_principality,
)
from .data import CARDS, CARDS_OF_KIND, ESTATES_PER_PLAYER, MAX_CITIES, PRICES, REGION_INDEX, REGION_NAMES
from .holdings import Holdings
from .state import change_prestige, gain_gold, pay_gold
from .steps import change_decision

if TYPE_CHECKING:
    from ...core import Action, ActionSpec, Event
    from .state import Data


CITY_COST = PRICES["city"]["cost"]
REGION_KINDS = ("marriage", "title", "inheritance")
# The generators' card ids (data.CARDS_OF_KIND): a hand card is tested
# against a set, not by its text, at every action turn.
_MARRIAGES: Final = CARDS_OF_KIND["marriage"]
_TITLES: Final = CARDS_OF_KIND["title"]
_INHERITANCES: Final = CARDS_OF_KIND["inheritance"]
_WITH_REGION: Final = frozenset().union(*(CARDS_OF_KIND[kind] for kind in REGION_KINDS))
_KINDBETTS: Final = frozenset(card for card, text in enumerate(CARDS) if text.get("effect") == "kindbett")
TITLE_PRESTIGE = PRICES["title"]["prestige"]


def _in_turn(d: Data):
    return d["decision"]["kind"] == "action_turn"


# --- City --------------------------------------------------------------------------------


def _build_city_check(d: Data, seat, action: Action) -> str | None:
    card = action["card"]
    if card not in d["players"][seat]["hand"] or CARDS[card]["kind"] not in REGION_KINDS:
        return "no_city_card"
    region, slot = action["at"]
    if region != REGION_INDEX[CARDS[card]["region"]]:
        return "wrong_region"
    if not can_build_city(d, seat, region, slot):
        return "no_room_for_city"
    return None if d["players"][seat]["gold"] >= CITY_COST else "not_enough_gold"


def _build_city_candidates(d: Data, seat) -> list[Action]:
    actions = []
    for card in d["players"][seat]["hand"]:
        if CARDS[card]["kind"] in REGION_KINDS:
            region = REGION_INDEX[CARDS[card]["region"]]
            actions += [
                {"type": "build_city", "card": card, "at": [region, slot]}
                for estate_region, slot, _ in iter_estates(d, seat)
                if estate_region == region
            ]
    return actions


def _build_city_legal(d: Data, seat) -> list[Action]:
    return build_city_actions(d, seat, Holdings(d, seat))


def build_city_actions(d: Data, seat, holdings: Holdings) -> list[Action]:
    """``_build_city_candidates`` that pass ``_build_city_check``: the gold
    checked once, and a region's room for a City only where ``seat`` has
    an Estate without one (``holdings``)."""
    player = d["players"][seat]
    if player["gold"] < CITY_COST or not holdings.cityless:
        return []
    actions = []
    for card in player["hand"]:
        if card in _WITH_REGION:
            region = REGION_INDEX[CARDS[card]["region"]]
            spots = [ref for ref in holdings.cityless if ref[0] == region]
            if spots and cities_in(d, region) < MAX_CITIES[region]:
                actions += [{"type": "build_city", "card": card, "at": ref} for ref in spots]
    return actions


def add_city(d: Data, seat, region, slot, events: list[Event], reason) -> None:
    change_estate(d, region, slot, city=True)
    event(events, "city_built", seat, region=REGION_NAMES[region], slot=slot, reason=reason)


def _build_city_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    discard_from_hand(d, seat, action["card"])
    pay_gold(d, seat, CITY_COST, events, "city")
    add_city(d, seat, action["at"][0], action["at"][1], events, "city_card")
    settle_holdings(d, events)
    end_decision(d)


# --- Marriage --------------------------------------------------------------------------


def _disadvantage_problem(d: Data, seat, card, extra):
    player = d["players"][seat]
    needs_discard = False
    for dis in CARDS[card]["disadvantages"]:
        if player["gold"] < dis.get("pay", 0):
            return "cannot_pay_marriage"
        # Counted only when asked for: it scans the map.
        if "remove_citizens" in dis and totals(d, seat)[1] < dis["remove_citizens"]:
            return "not_enough_citizens"
        if player["prestige"] < dis.get("lose_prestige", 0):
            return "not_enough_prestige"
        needs_discard = needs_discard or "discard" in dis
    if needs_discard != (extra is not None):
        return "discard_required" if needs_discard else "nothing_to_discard"
    if extra is not None and (extra == card or extra not in player["hand"]):
        return "card_not_in_hand"
    return None


def _marry_check(d: Data, seat, action: Action) -> str | None:
    card = action["card"]
    why = own_card(d, seat, card, "marriage")
    if why:
        return why
    player = d["players"][seat]
    if player["marriage"] is not None or player["married_this_epoch"]:
        return "already_married_this_epoch"
    if not meets(d, seat, CARDS[card]["requirement"]):
        return "requirement_not_met"
    return _disadvantage_problem(d, seat, card, action.get("discard"))


def _marry_candidates(d: Data, seat) -> list[Action]:
    actions = []
    hand = d["players"][seat]["hand"]
    for card in hand:
        if CARDS[card]["kind"] != "marriage":
            continue
        if any("discard" in dis for dis in CARDS[card]["disadvantages"]):
            actions += [{"type": "marry", "card": card, "discard": other} for other in hand if other != card]
        else:
            actions.append({"type": "marry", "card": card})
    return actions


def _marry_legal(d: Data, seat) -> list[Action]:
    """``_marry_candidates`` that pass ``_marry_check``: each card's
    requirement and disadvantages checked once, not once per discard."""
    player = d["players"][seat]
    if player["marriage"] is not None or player["married_this_epoch"]:
        return []
    actions = []
    hand = player["hand"]
    for card in hand:
        if card not in _MARRIAGES or not meets(d, seat, CARDS[card]["requirement"]):
            continue
        why = _disadvantage_problem(d, seat, card, None)
        if why is None:
            actions.append({"type": "marry", "card": card})
        elif why == "discard_required":  # any other hand card will do
            actions += [{"type": "marry", "card": card, "discard": other} for other in hand if other != card]
    return actions


def _marry_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    card = action["card"]
    player = d["players"][seat]
    player["hand"].remove(card)
    player["marriage"] = {"card": card, "conveyed": []}
    player["married_this_epoch"] = True
    event(events, "married", seat, card=card, region=CARDS[card]["region"])
    for dis in CARDS[card]["disadvantages"]:
        pay_gold(d, seat, dis.get("pay", 0), events, "marriage")
        remove_citizens_auto(d, seat, dis.get("remove_citizens", 0), events, "marriage")
        change_prestige(d, seat, -dis.get("lose_prestige", 0), events, "marriage")
        if "discard" in dis:
            discard_from_hand(d, seat, action["discard"])
            event(events, "card_discarded", seat, card=action["discard"], reason="marriage")
    placed = None
    for ben in CARDS[card]["benefits"]:
        placed = _marriage_benefit(d, seat, ben, placed, events) or placed
    settle_holdings(d, events)
    end_decision(d)


def _marriage_benefit(d: Data, seat, ben, placed, events: list[Event]):
    """Apply one benefit as far as the limits allow; returns a placed Estate."""
    if "gold" in ben:
        gain_gold(d, seat, ben["gold"], events, "marriage")
    if "prestige" in ben:
        change_prestige(d, seat, ben["prestige"], events, "marriage")
    if "principality" in ben:
        region = REGION_INDEX[ben["principality"]]
        if d["regions"][region]["principality"] != seat:
            transfer_principality(d, region, seat, events, "marriage")
            d["players"][seat]["marriage"]["conveyed"].append(region)
    if "estate" in ben:
        region = REGION_INDEX[ben["estate"]]
        if not can_place_estate(d, seat, region):
            event(events, "benefit_lost", seat, benefit="estate", region=ben["estate"])
            return None
        slot = place_estate(d, seat, region, events, "marriage")
        estate = d["regions"][region]["slots"][slot]
        citizens = min(ben.get("citizens", 0), capacity(estate), citizen_supply(d, seat))
        change_estate(d, region, slot, citizens=citizens)
        return [region, slot]
    if "city" in ben:
        _marriage_city(d, seat, REGION_INDEX[ben["city"]], placed, events)
    return None


def _marriage_city(d: Data, seat, region, placed, events: list[Event]) -> None:
    spots = ([placed] if placed and placed[0] == region else []) + [
        [estate_region, slot] for estate_region, slot, _ in iter_estates(d, seat) if estate_region == region
    ]
    for estate_region, slot in spots:
        if can_build_city(d, seat, estate_region, slot):
            add_city(d, seat, estate_region, slot, events, "marriage")
            return
    event(events, "benefit_lost", seat, benefit="city", region=REGION_NAMES[region])


# --- Title, Inheritance -------------------------------------------------------------------


def _take_title_check(d: Data, seat, action: Action) -> str | None:
    why = own_card(d, seat, action["card"], "title")
    if why:
        return why
    return None if meets(d, seat, CARDS[action["card"]]["requirement"]) else "requirement_not_met"


def _take_title_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    d["players"][seat]["hand"].remove(action["card"])
    d["players"][seat]["titles"].append(action["card"])
    event(events, "title_taken", seat, card=action["card"])
    change_prestige(d, seat, TITLE_PRESTIGE, events, "title")
    end_decision(d)


def _inherit_check(d: Data, seat, action: Action) -> str | None:
    why = own_card(d, seat, action["card"], "inheritance")
    if why:
        return why
    return (
        None
        if can_place_estate(d, seat, REGION_INDEX[CARDS[action["card"]]["region"]])
        else "cannot_place_estate"
    )


def _inherit_legal(d: Data, seat) -> list[Action]:
    return inherit_actions(d, seat, None)


def inherit_actions(d: Data, seat, holdings: Holdings | None) -> list[Action]:
    """``_inherit_check`` over the hand's Inheritance cards, the supply counted
    once (from ``holdings``, or only when one of them has a free slot:
    counting scans the map)."""
    actions = [
        {"type": "inherit", "card": card}
        for card in d["players"][seat]["hand"]
        if card in _INHERITANCES and free_slot(d, REGION_INDEX[CARDS[card]["region"]]) is not None
    ]
    if not actions:
        return []
    supply = estate_supply(d, seat) if holdings is None else ESTATES_PER_PLAYER - len(holdings.own)
    return actions if supply > 0 else []


def _inherit_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    discard_from_hand(d, seat, action["card"])
    place_estate(d, seat, REGION_INDEX[CARDS[action["card"]]["region"]], events, "inheritance")
    settle_holdings(d, events)
    end_decision(d)


def _take_title_legal(d: Data, seat) -> list[Action]:
    """``_take_title_check`` over the hand's Title cards."""
    return [
        {"type": "take_title", "card": card}
        for card in d["players"][seat]["hand"]
        if card in _TITLES and meets(d, seat, CARDS[card]["requirement"])
    ]


def _hand_cards_as(kind, name):
    return lambda d, seat: [
        {"type": name, "card": card} for card in d["players"][seat]["hand"] if CARDS[card]["kind"] == kind
    ]


# --- Kindbett: an extra, not the turn's action -----------------------------------------------


def _kindbett_check(d: Data, seat, action: Action) -> str | None:
    if d["decision"]["extra_used"]:
        return "one_reaction_per_action"
    card = action["card"]
    if card not in d["players"][seat]["hand"] or CARDS[card].get("effect") != "kindbett":
        return "no_kindbett_card"
    target = action["target"]
    if target >= d["num_players"] or d["players"][target]["marriage"] is None:
        return "no_marriage"
    return None


def _kindbett_candidates(d: Data, seat) -> list[Action]:
    cards = [card for card in d["players"][seat]["hand"] if CARDS[card].get("effect") == "kindbett"]
    return [
        {"type": "kindbett", "card": card, "target": target}
        for card in cards
        for target in range(d["num_players"])
    ]


def _kindbett_legal(d: Data, seat) -> list[Action]:
    """``_kindbett_check`` over ``_kindbett_candidates``: the married targets
    listed once, and nothing to list without a Kindbett card in hand."""
    if d["decision"]["extra_used"]:
        return []
    cards = [card for card in d["players"][seat]["hand"] if card in _KINDBETTS]
    if not cards:
        return []
    players = d["players"]
    married = [target for target in range(d["num_players"]) if players[target]["marriage"] is not None]
    return [{"type": "kindbett", "card": card, "target": target} for card in cards for target in married]


def _kindbett_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    discard_from_hand(d, seat, action["card"])
    target = d["players"][action["target"]]
    d["discard"].append(target["marriage"]["card"])
    event(
        events,
        "marriage_ended",
        action["target"],
        card=target["marriage"]["card"],
        reason="kindbett",
        by=seat,
    )
    target["marriage"] = None
    settle_holdings(d, events)
    change_decision(d, extra_used=True)


# Annotated: mypyc (engine.native) cannot infer a type across the package's import cycle.
SPECS: list[ActionSpec[Any]] = [
    make_spec(
        "build_city",
        {"card": CARD, "at": ESTATE},
        _build_city_candidates,
        _build_city_check,
        _build_city_perform,
        f"Play a region card as City card: {CITY_COST} gold, a City under your Estate in that region.",
        _build_city_legal,
    ),
    make_spec(
        "marry",
        {"card": CARD, "discard": Optional(CARD)},
        _marry_candidates,
        _marry_check,
        _marry_perform,
        "Play a Marriage card (discard: the card a 'discard 1 card' disadvantage costs).",
        _marry_legal,
    ),
    make_spec(
        "take_title",
        {"card": CARD},
        _hand_cards_as("title", "take_title"),
        _take_title_check,
        _take_title_perform,
        f"Play a Title card: +{TITLE_PRESTIGE} Prestige, kept while its requirement holds.",
        _take_title_legal,
    ),
    make_spec(
        "inherit",
        {"card": CARD},
        _hand_cards_as("inheritance", "inherit"),
        _inherit_check,
        _inherit_perform,
        "Play an Inheritance card: a free Estate in its region.",
        _inherit_legal,
    ),
    make_spec(
        "kindbett",
        {"card": CARD, "target": SEAT},
        _kindbett_candidates,
        _kindbett_check,
        _kindbett_perform,
        "Reaction Kindbett (not the turn's action): end the marriage of the target seat.",
        _kindbett_legal,
    ),
]
