"""Playing action cards: City, Marriage, Title, Inheritance and Kindbett.

Special Action cards are in ``actions_special``. A card is one action: a
region card is played either for its main effect or as a City card.
"""

from ...params import Optional
from .actionkit import CARD, ESTATE, SEAT, discard_from_hand, end_decision, make_spec, own_card
from .board import (
    can_build_city,
    can_place_estate,
    capacity,
    citizen_supply,
    iter_estates,
    meets,
    place_estate,
    remove_citizens_auto,
    settle_holdings,
    totals,
    transfer_principality,
)
from .data import CARDS, REGION_INDEX, REGION_NAMES
from .state import change_prestige, event, gain_gold, pay_gold

CITY_COST = 6
REGION_KINDS = ("marriage", "title", "inheritance")
TITLE_PRESTIGE = 2


def _in_turn(d):
    return d["decision"]["kind"] == "action_turn"


# --- City --------------------------------------------------------------------------------

def _check_city(d, seat, a):
    card = a["card"]
    if card not in d["players"][seat]["hand"] or CARDS[card]["kind"] not in REGION_KINDS:
        return "no_city_card"
    r, s = a["at"]
    if r != REGION_INDEX[CARDS[card]["region"]]:
        return "wrong_region"
    if not can_build_city(d, seat, r, s):
        return "no_room_for_city"
    return None if d["players"][seat]["gold"] >= CITY_COST else "not_enough_gold"


def _cand_city(d, seat):
    out = []
    for card in d["players"][seat]["hand"]:
        if CARDS[card]["kind"] in REGION_KINDS:
            r = REGION_INDEX[CARDS[card]["region"]]
            out += [{"type": "build_city", "card": card, "at": [r, s]} for rr, s, _ in iter_estates(d, seat) if rr == r]
    return out


def add_city(d, seat, r, s, events, reason):
    d["regions"][r]["slots"][s]["city"] = True
    event(events, "city_built", seat, region=REGION_NAMES[r], slot=s, reason=reason)


def _do_city(d, seat, a, events):
    discard_from_hand(d, seat, a["card"])
    pay_gold(d, seat, CITY_COST, events, "city")
    add_city(d, seat, *a["at"], events, "city_card")
    settle_holdings(d, events)
    end_decision(d)


# --- Marriage --------------------------------------------------------------------------

def _disadvantage_problem(d, seat, card, extra):
    p = d["players"][seat]
    needs_discard = False
    for dis in CARDS[card]["disadvantages"]:
        if p["gold"] < dis.get("pay", 0):
            return "cannot_pay_marriage"
        if totals(d, seat)[1] < dis.get("remove_citizens", 0):
            return "not_enough_citizens"
        if p["prestige"] < dis.get("lose_prestige", 0):
            return "not_enough_prestige"
        needs_discard = needs_discard or "discard" in dis
    if needs_discard != (extra is not None):
        return "discard_required" if needs_discard else "nothing_to_discard"
    if extra is not None and (extra == card or extra not in p["hand"]):
        return "card_not_in_hand"
    return None


def _check_marry(d, seat, a):
    card = a["card"]
    why = own_card(d, seat, card, "marriage")
    if why:
        return why
    p = d["players"][seat]
    if p["marriage"] is not None or p["married_this_epoch"]:
        return "already_married_this_epoch"
    if not meets(d, seat, CARDS[card]["requirement"]):
        return "requirement_not_met"
    return _disadvantage_problem(d, seat, card, a.get("discard"))


def _cand_marry(d, seat):
    out = []
    hand = d["players"][seat]["hand"]
    for card in hand:
        if CARDS[card]["kind"] != "marriage":
            continue
        if any("discard" in dis for dis in CARDS[card]["disadvantages"]):
            out += [{"type": "marry", "card": card, "discard": c} for c in hand if c != card]
        else:
            out.append({"type": "marry", "card": card})
    return out


def _do_marry(d, seat, a, events):
    card = a["card"]
    p = d["players"][seat]
    p["hand"].remove(card)
    p["marriage"] = {"card": card, "conveyed": []}
    p["married_this_epoch"] = True
    event(events, "married", seat, card=card, region=CARDS[card]["region"])
    for dis in CARDS[card]["disadvantages"]:
        pay_gold(d, seat, dis.get("pay", 0), events, "marriage")
        remove_citizens_auto(d, seat, dis.get("remove_citizens", 0), events, "marriage")
        change_prestige(d, seat, -dis.get("lose_prestige", 0), events, "marriage")
        if "discard" in dis:
            discard_from_hand(d, seat, a["discard"])
            event(events, "card_discarded", seat, card=a["discard"], reason="marriage")
    placed = None
    for ben in CARDS[card]["benefits"]:
        placed = _marriage_benefit(d, seat, ben, placed, events) or placed
    settle_holdings(d, events)
    end_decision(d)


def _marriage_benefit(d, seat, ben, placed, events):
    """Apply one benefit as far as the limits allow; returns a placed Estate."""
    if "gold" in ben:
        gain_gold(d, seat, ben["gold"], events, "marriage")
    if "prestige" in ben:
        change_prestige(d, seat, ben["prestige"], events, "marriage")
    if "principality" in ben:
        r = REGION_INDEX[ben["principality"]]
        if d["regions"][r]["principality"] != seat:
            transfer_principality(d, r, seat, events, "marriage")
            d["players"][seat]["marriage"]["conveyed"].append(r)
    if "estate" in ben:
        r = REGION_INDEX[ben["estate"]]
        if not can_place_estate(d, seat, r):
            event(events, "benefit_lost", seat, benefit="estate", region=ben["estate"])
            return None
        s = place_estate(d, seat, r, events, "marriage")
        est = d["regions"][r]["slots"][s]
        est["citizens"] = min(ben.get("citizens", 0), capacity(est), citizen_supply(d, seat))
        return [r, s]
    if "city" in ben:
        _marriage_city(d, seat, REGION_INDEX[ben["city"]], placed, events)
    return None


def _marriage_city(d, seat, r, placed, events):
    spots = ([placed] if placed and placed[0] == r else []) + [[rr, s] for rr, s, _ in iter_estates(d, seat) if rr == r]
    for rr, s in spots:
        if can_build_city(d, seat, rr, s):
            add_city(d, seat, rr, s, events, "marriage")
            return
    event(events, "benefit_lost", seat, benefit="city", region=REGION_NAMES[r])


# --- Title, Inheritance -------------------------------------------------------------------

def _check_title(d, seat, a):
    why = own_card(d, seat, a["card"], "title")
    if why:
        return why
    return None if meets(d, seat, CARDS[a["card"]]["requirement"]) else "requirement_not_met"


def _do_title(d, seat, a, events):
    d["players"][seat]["hand"].remove(a["card"])
    d["players"][seat]["titles"].append(a["card"])
    event(events, "title_taken", seat, card=a["card"])
    change_prestige(d, seat, TITLE_PRESTIGE, events, "title")
    end_decision(d)


def _check_inherit(d, seat, a):
    why = own_card(d, seat, a["card"], "inheritance")
    if why:
        return why
    return None if can_place_estate(d, seat, REGION_INDEX[CARDS[a["card"]]["region"]]) else "cannot_place_estate"


def _do_inherit(d, seat, a, events):
    discard_from_hand(d, seat, a["card"])
    place_estate(d, seat, REGION_INDEX[CARDS[a["card"]]["region"]], events, "inheritance")
    settle_holdings(d, events)
    end_decision(d)


def _cand_kind(kind, name):
    return lambda d, seat: [{"type": name, "card": c} for c in d["players"][seat]["hand"] if CARDS[c]["kind"] == kind]


# --- Kindbett: an extra, not the turn's action -----------------------------------------------

def _check_kindbett(d, seat, a):
    if d["decision"]["extra_used"]:
        return "one_reaction_per_action"
    card = a["card"]
    if card not in d["players"][seat]["hand"] or CARDS[card].get("effect") != "kindbett":
        return "no_kindbett_card"
    target = a["target"]
    if target >= d["num_players"] or d["players"][target]["marriage"] is None:
        return "no_marriage"
    return None


def _cand_kindbett(d, seat):
    cards = [c for c in d["players"][seat]["hand"] if CARDS[c].get("effect") == "kindbett"]
    return [{"type": "kindbett", "card": c, "target": t} for c in cards for t in range(d["num_players"])]


def _do_kindbett(d, seat, a, events):
    discard_from_hand(d, seat, a["card"])
    target = d["players"][a["target"]]
    d["discard"].append(target["marriage"]["card"])
    event(events, "marriage_ended", a["target"], card=target["marriage"]["card"], reason="kindbett", by=seat)
    target["marriage"] = None
    settle_holdings(d, events)
    d["decision"]["extra_used"] = True


SPECS = [
    make_spec("build_city", {"card": CARD, "at": ESTATE}, _cand_city, _check_city, _do_city,
              "Play a region card as City card: 6 gold, a City under your Estate in that region."),
    make_spec("marry", {"card": CARD, "discard": Optional(CARD)}, _cand_marry, _check_marry, _do_marry,
              "Play a Marriage card (discard: the card a 'discard 1 card' disadvantage costs)."),
    make_spec("take_title", {"card": CARD}, _cand_kind("title", "take_title"), _check_title, _do_title,
              "Play a Title card: +2 Prestige, kept while its requirement holds."),
    make_spec("inherit", {"card": CARD}, _cand_kind("inheritance", "inherit"), _check_inherit, _do_inherit,
              "Play an Inheritance card: a free Estate in its region."),
    make_spec("kindbett", {"card": CARD, "target": SEAT}, _cand_kindbett, _check_kindbett, _do_kindbett,
              "Reaction Kindbett (not the turn's action): end the marriage of the target seat."),
]
