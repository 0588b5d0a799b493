"""Anno 1452 support for the generic engine tests (proposed
``tests/engine/support/anno1452.py``; not collected here).

Same functions as ``tests/engine/support/anno1503.py``: bookkeeping
(``state_problems``, ``victory_points``) and secrets (``perturbations``,
``view_leaks``, ``event_leaks``).
"""

import orjson

from engine.games.anno1452.data import CITIZENS_PER_PLAYER, ESTATES_PER_PLAYER, MAX_CITIES, NUM_CARDS

GAME_ID = "anno1452"
FORBIDDEN_VIEW_KEYS = {"rng", "deck", "queue", "seed"}


def _owned(dump, seat):
    estates = [e for reg in dump["regions"] for e in reg["slots"] if e is not None and e["owner"] == seat]
    return estates


def state_problems(dump):
    """Everything wrong with a dump's bookkeeping (empty list when fine)."""
    problems = []
    cards = list(dump["deck"]) + list(dump["discard"]) + list(dump["open_cards"])
    for p in dump["players"]:
        cards += p["hand"] + p["titles"] + ([p["marriage"]["card"]] if p["marriage"] else [])
    if sorted(cards) != list(range(NUM_CARDS)):
        problems.append(f"cards are not each in exactly one place: {len(cards)} places")
    for seat, p in enumerate(dump["players"]):
        estates = _owned(dump, seat)
        if p["gold"] < 0:
            problems.append(f"seat {seat} has {p['gold']} gold")
        if not 0 <= p["prestige"] <= 20:
            problems.append(f"seat {seat} prestige {p['prestige']}")
        if len(estates) > ESTATES_PER_PLAYER or sum(e["citizens"] for e in estates) > CITIZENS_PER_PLAYER:
            problems.append(f"seat {seat} has more pieces than the box holds")
    for r, reg in enumerate(dump["regions"]):
        cities = sum(1 for e in reg["slots"] if e is not None and e["city"])
        if cities > MAX_CITIES[r]:
            problems.append(f"region {r} holds {cities} Cities")
        for e in reg["slots"]:
            if e is not None and not 0 <= e["citizens"] <= (6 if e["city"] else 3):
                problems.append(f"region {r}: an Estate with {e['citizens']} Citizens")
    return problems


def victory_points(dump):
    """VP per seat from holdings (ruling 12)."""
    out = []
    for seat, p in enumerate(dump["players"]):
        estates = _owned(dump, seat)
        principalities = sum(1 for reg in dump["regions"] if reg["principality"] == seat)
        out.append(len(estates) + sum(e["citizens"] for e in estates) // 2 + sum(e["city"] for e in estates)
                   + principalities + p["gold"] // 10 + p["prestige"])
    return out


def perturbations(dump, viewer):
    out = []
    for name, edit in _PERTURBERS.items():
        changed = orjson.loads(orjson.dumps(dump))
        if edit(changed, viewer):
            out.append((name, changed))
    return out


def _other_hands(dump, viewer):
    """Swap one card of each other non-empty hand with the deck's top card."""
    done = False
    for seat, p in enumerate(dump["players"]):
        if seat != viewer and p["hand"] and dump["deck"]:
            p["hand"][0], dump["deck"][-1] = dump["deck"][-1], p["hand"][0]
            done = True
    return done


def _deck_order(dump, viewer):
    if len(dump["deck"]) < 2:
        return False
    dump["deck"].reverse()
    return True


def _others_offer(dump, viewer):
    offer = dump["offer"]
    if offer is None or viewer in (offer["from"], offer["to"]):
        return False
    offer["give_gold"] = 10 if offer.get("give_gold") != 10 else 5
    return True


def _generator(dump, viewer):
    dump["rng"] = (dump["rng"] * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    return True


_PERTURBERS = {
    "other_hands": _other_hands,
    "deck_order": _deck_order,
    "others_offer": _others_offer,
    "generator": _generator,
}
PERTURBATIONS = tuple(_PERTURBERS)


def view_leaks(view, dump, viewer):
    problems = []
    for entry in view["players"]:
        seat = entry["seat"]
        hand = dump["players"][seat]["hand"]
        if seat == viewer and entry.get("hand") != hand:
            problems.append(f"own hand shown as {entry.get('hand')}")
        elif seat != viewer and ("hand" in entry or entry.get("hand_size") != len(hand)):
            problems.append(f"seat {seat}'s hand is shown to {viewer}")
    for key in FORBIDDEN_VIEW_KEYS & set(view):
        problems.append(f"forbidden key {key}")
    offer = dump["offer"]
    if offer is not None and viewer not in (offer["from"], offer["to"]) and view["offer"] != {
            "from": offer["from"], "to": offer["to"]}:
        problems.append("an offer's content is shown to a third party")
    return problems


def event_leaks(event):
    data = event["data"]
    if event["type"] in ("cards_drawn", "card_transferred") and ("cards" in data or "card" in data):
        return [f"{event['type']} shows cards publicly: {data}"]
    if event["type"] == "offer_made" and "offer" in data:
        return ["offer_made shows the offer publicly"]
    return []
