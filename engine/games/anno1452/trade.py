"""Expert phase 3, Trade & Agreements, and the 2-player open-card swap.

Players take turns, in turn order, to make a structured offer to one other
player or to declare themselves done; the addressee accepts or declines.
An offer gives at most one item (gold, a card, an Estate or a
non-aggression pact that lasts until the next Trade phase) and asks at most
one (gold or an Estate). Accepted offers are carried out at once and
pacts are enforced by ``attack_problem``. Each player makes at most
``MAX_OFFERS`` offers per phase, so the phase always ends. The phase ends
when every player has declared done.
"""

from ...params import IntRange, OneOf, Optional
from .actionkit import CARD, ESTATE, SEAT, make_spec
from .board import citizen_supply, estate_at, estate_supply, settle_holdings
from .data import CARDS, HAND_SIZE, REGION_NAMES
from .deck import next_card, resolve_event
from .flow import decide, push_front
from .state import event

MAX_OFFERS = 3
GOLD_STEPS = (1, 2, 5, 10)
OPEN_CARDS = HAND_SIZE


def _trade_start(d, events):
    if d["pacts"]:
        event(events, "pacts_expired", pacts=d["pacts"])
    d["pacts"] = []
    d["trade"] = {"done": [], "offers": {str(s): 0 for s in d["order"]}, "cursor": 0}
    if d["num_players"] == 2:
        _deal_open_cards(d, events)
        # In the first trade round the second player swaps first.
        first = d["order"][1] if d["row"] == 0 else d["order"][0]
        d["swap"] = {"seat": first, "swaps": 0, "declined_first": False}
        push_front(d, ["open_swap"], ["trade_round"])
    else:
        push_front(d, ["trade_round"])


def _deal_open_cards(d, events):
    while len(d["open_cards"]) < OPEN_CARDS:
        card = next_card(d, events)
        if card is None:
            break
        if CARDS[card]["kind"] == "event":
            event(events, "event_drawn", None, card=card, effect=CARDS[card]["effect"])
            resolve_event(d, None, card, events, True)
            continue
        d["open_cards"].append(card)
    event(events, "open_cards_dealt", cards=list(d["open_cards"]))


def _open_swap(d, events):
    if d["swap"] is not None:
        decide(d, "open_swap", [d["swap"]["seat"]])


def _other(d, seat):
    return d["order"][1] if d["order"][0] == seat else d["order"][0]


def pass_open_swap(d, seat, events):
    swap = d["swap"]
    event(events, "open_swap_stopped", seat)
    d["decision"] = None
    if swap["swaps"] == 0 and not swap["declined_first"]:
        swap["declined_first"] = True
        swap["seat"] = _other(d, seat)
        push_front(d, ["open_swap"])
    else:
        d["swap"] = None


def _check_swap(d, seat, a):
    if a["card"] not in d["players"][seat]["hand"]:
        return "card_not_in_hand"
    return None if a["open_card"] < len(d["open_cards"]) else "no_such_open_card"


def _cand_swap(d, seat):
    return [{"type": "swap_open", "card": c, "open_card": i}
            for c in d["players"][seat]["hand"] for i in range(len(d["open_cards"]))]


def _do_swap(d, seat, a, events):
    hand = d["players"][seat]["hand"]
    taken = d["open_cards"][a["open_card"]]
    hand.remove(a["card"])
    hand.append(taken)
    d["open_cards"][a["open_card"]] = a["card"]
    event(events, "open_card_swapped", seat, given=a["card"], taken=taken)
    d["swap"]["swaps"] += 1
    d["swap"]["seat"] = _other(d, seat)
    d["decision"] = None
    push_front(d, ["open_swap"])


# --- offers -------------------------------------------------------------------------------

def _trade_round(d, events):
    t = d["trade"]
    n = len(d["order"])
    for k in range(n):
        seat = d["order"][(t["cursor"] + k) % n]
        if seat not in t["done"]:
            t["cursor"] = (t["cursor"] + k + 1) % n
            decide(d, "trade", [seat])
            return
    d["discard"] += d["open_cards"]
    d["open_cards"] = []
    d["trade"] = None
    event(events, "trade_ended")


def offer_problem(d, seat, a):
    """Why the offer ``a`` from ``seat`` is not allowed (now), or None."""
    to = a["to"]
    if to == seat or to >= d["num_players"]:
        return "no_such_partner"
    gives = [k for k in ("give_gold", "give_card", "give_estate", "pact") if a.get(k) is not None]
    asks = [k for k in ("ask_gold", "ask_estate") if a.get(k) is not None]
    pact = a.get("pact") == "yes"
    if len(gives) > 1 or len(asks) > 1:
        return "one_item_each_way"
    if not gives and not asks:
        return "empty_offer"
    for key in ("give_gold", "ask_gold"):
        if a.get(key) is not None and a[key] not in GOLD_STEPS:
            return "gold_step"
    if pact and sorted([seat, to]) in d["pacts"]:
        return "pact_exists"
    return (_side_problem(d, seat, to, a.get("give_gold"), a.get("give_estate"))
            or _side_problem(d, to, seat, a.get("ask_gold"), a.get("ask_estate"))
            or _card_problem(d, seat, a.get("give_card")))


def _side_problem(d, giver, taker, gold, ref):
    if gold is not None and d["players"][giver]["gold"] < gold:
        return "not_enough_gold"
    if ref is not None:
        est = estate_at(d, *ref)
        if est is None or est["owner"] != giver:
            return "not_their_estate"
        if (est["citizens"] and citizen_supply(d, taker) < est["citizens"]) or estate_supply(d, taker) == 0:
            return "no_room_for_estate"
    return None


def _card_problem(d, seat, card):
    return None if card is None or card in d["players"][seat]["hand"] else "card_not_in_hand"


def _check_offer(d, seat, a):
    if d["trade"]["offers"][str(seat)] >= MAX_OFFERS:
        return "offer_limit"
    return offer_problem(d, seat, a)


def _cand_offer(d, seat):
    if d["trade"]["offers"][str(seat)] >= MAX_OFFERS:
        return []
    out = []
    for to in d["order"]:
        if to == seat:
            continue
        gold, their_gold = d["players"][seat]["gold"], d["players"][to]["gold"]
        gives = [{}] + [{"give_gold": g} for g in GOLD_STEPS if g <= gold]
        gives += [{"give_card": c} for c in d["players"][seat]["hand"]] + [{"pact": "yes"}]
        gives += [{"give_estate": [r, s]} for r, reg in enumerate(d["regions"])
                  for s, e in enumerate(reg["slots"]) if e is not None and e["owner"] == seat]
        asks = [{}] + [{"ask_gold": g} for g in GOLD_STEPS if g <= their_gold]
        asks += [{"ask_estate": [r, s]} for r, reg in enumerate(d["regions"])
                 for s, e in enumerate(reg["slots"]) if e is not None and e["owner"] == to]
        out += [{"type": "offer", "to": to, **give, **ask} for give in gives for ask in asks if give or ask]
    return out


def _do_offer(d, seat, a, events):
    d["trade"]["offers"][str(seat)] += 1
    offer = {k: v for k, v in a.items() if k != "type"}
    offer["from"] = seat
    d["offer"] = offer
    event(events, "offer_made", seat, to=a["to"], private={str(seat): {"offer": offer}, str(a["to"]): {"offer": offer}})
    decide(d, "offer_reply", [a["to"]])


def _check_reply(d, seat, a):
    return offer_problem(d, d["offer"]["from"], {**d["offer"], "type": "offer"}) if a["type"] == "accept_offer" else None


def _do_accept(d, seat, a, events):
    offer, d["offer"] = d["offer"], None
    giver = offer["from"]
    _transfer(d, giver, seat, offer.get("give_gold"), offer.get("give_card"), offer.get("give_estate"), events)
    _transfer(d, seat, giver, offer.get("ask_gold"), None, offer.get("ask_estate"), events)
    if offer.get("pact") == "yes":
        d["pacts"].append(sorted([giver, seat]))
        event(events, "pact_concluded", seat, parties=sorted([giver, seat]))
    event(events, "offer_accepted", seat, by=seat, offer_from=giver)
    settle_holdings(d, events)
    d["decision"] = None
    push_front(d, ["trade_round"])


def _transfer(d, giver, taker, gold, card, ref, events):
    if gold:
        d["players"][giver]["gold"] -= gold
        d["players"][taker]["gold"] += gold
        event(events, "gold_transferred", giver, to=taker, amount=gold)
    if card is not None:
        d["players"][giver]["hand"].remove(card)
        d["players"][taker]["hand"].append(card)
        event(events, "card_transferred", giver, to=taker,
              private={str(giver): {"card": card}, str(taker): {"card": card}})
    if ref is not None:
        estate_at(d, *ref)["owner"] = taker
        event(events, "estate_transferred", giver, to=taker, region=REGION_NAMES[ref[0]], slot=ref[1])


def _do_decline(d, seat, a, events):
    event(events, "offer_declined", seat, offer_from=d["offer"]["from"])
    d["offer"] = None
    d["decision"] = None
    push_front(d, ["trade_round"])


def _do_end(d, seat, a, events):
    d["trade"]["done"].append(seat)
    event(events, "trading_done", seat)
    d["decision"] = None
    push_front(d, ["trade_round"])


STEPS = {"trade": _trade_start, "open_swap": _open_swap, "trade_round": _trade_round}

SPECS = [
    make_spec("swap_open", {"card": CARD, "open_card": IntRange(0, OPEN_CARDS - 1)},
              _cand_swap, _check_swap, _do_swap,
              "2 players, expert: exchange a hand card for the open card at this index."),
    make_spec("offer", {"to": SEAT, "give_gold": Optional(IntRange(1, 10)), "give_card": Optional(CARD),
                        "give_estate": Optional(ESTATE), "ask_gold": Optional(IntRange(1, 10)),
                        "ask_estate": Optional(ESTATE), "pact": Optional(OneOf(["yes"]))},
              _cand_offer, _check_offer, _do_offer,
              "Expert trade: offer at most one item (gold 1/2/5/10, a card, an Estate or a "
              "non-aggression pact) for at most one item (gold or an Estate)."),
    make_spec("accept_offer", {}, lambda d, seat: [{"type": "accept_offer"}], _check_reply, _do_accept,
              "Accept the offer made to you; it is carried out at once and binds both."),
    make_spec("decline_offer", {}, lambda d, seat: [{"type": "decline_offer"}], lambda d, s, a: None, _do_decline,
              "Decline the offer made to you."),
    make_spec("end_trading", {}, lambda d, seat: [{"type": "end_trading"}], lambda d, s, a: None, _do_end,
              "Declare that you have concluded your deals for this phase."),
]
