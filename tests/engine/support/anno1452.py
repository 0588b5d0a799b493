"""What the generic invariant tests need to know about Anno 1452.

Same functions as ``anno1503``: bookkeeping (``state_problems``,
``victory_points``, ``outcome_problems``), secrets (``perturbations``,
``view_leaks``, ``event_leaks``) and how to play the seeded matches
(``MATCH_VARIANTS``, ``COVERAGE``). Everything works on dumps
(engine/games/anno1452/DESIGN.md "Dump format").

The piece and card counts are the printed box contents (16 Estates and 24
Citizens per player, one card of each id); region limits are the printed
map's, read from the engine's map data because they are part of the board.
"""

import orjson

from engine.games.anno1452 import Anno1452
from engine.games.anno1452.board import majority_owner
from engine.games.anno1452.data import MAX_CITIES, MAX_ESTATES, NUM_CARDS

from .secrecy import hand_leaks, step_generator
from .variants import Variant

GAME_ID = "anno1452"
ESTATES_PER_PLAYER = 16
CITIZENS_PER_PLAYER = 24
PRESTIGE_TRACK = (0, 20)
CITIZENS_ON = {False: 3, True: 6}  # an Estate holds 3 Citizens, a City 6
FORBIDDEN_VIEW_KEYS = {"rng", "deck", "queue", "seed"}

# Anno 1452 matches are short (a few hundred actions); the weights only make
# the rarely legal actions (a Title whose requirement is met, Kindbett, a
# tournament) likelier to be taken when they are, so that every action type
# occurs. The variants share the game's matches.
_SHORT = {"end_year": 1314}
WEIGHTS = {"take_title": 20, "kindbett": 10, "join_tournament": 5}
MATCH_VARIANTS = (
    Variant("anno1452 basic", {}, (3, 4), 1 / 8, WEIGHTS, coverage="anno1452 basic"),
    Variant("anno1452 expert", {"rules": "expert"}, (3, 4), 1 / 8, WEIGHTS, coverage="anno1452 expert"),
    Variant(
        "anno1452 basic ottokar_a",
        {"scenario": "ottokar_a"},
        (2, 3),
        1 / 8,
        WEIGHTS,
        coverage="anno1452 basic",
    ),
    Variant(
        "anno1452 basic ottokar_b",
        {"scenario": "ottokar_b"},
        (2, 3),
        1 / 8,
        WEIGHTS,
        coverage="anno1452 basic",
    ),
    Variant(
        "anno1452 expert ottokar_a",
        {"rules": "expert", "scenario": "ottokar_a"},
        (2, 3),
        1 / 8,
        WEIGHTS,
        coverage="anno1452 expert",
    ),
    Variant(
        "anno1452 expert ottokar_b",
        {"rules": "expert", "scenario": "ottokar_b"},
        (2, 3),
        1 / 8,
        WEIGHTS,
        coverage="anno1452 expert",
    ),
    Variant("anno1452 basic short", _SHORT, (3, 4), 1 / 8, WEIGHTS, coverage="anno1452 basic"),
    Variant(
        "anno1452 expert short options",
        {**_SHORT, "rules": "expert", "discard_limit": "free", "marriage_end": "last_action_round"},
        (2, 3, 4),
        1 / 8,
        WEIGHTS,
        coverage="anno1452 expert",
    ),
)

# Action types each coverage group must have chosen at least once over its
# matches. Basic play has no Trade & Agreements phase (expert rule 3), so its
# list is the printed basic actions; expert matches must reach every action
# type the game declares (the trade protocol's types included, whatever
# they are named).
COVERAGE = {
    "anno1452 basic": frozenset(
        {
            "place_estate",
            "build_estate",
            "settle",
            "attack",
            "build_city",
            "marry",
            "take_title",
            "inherit",
            "play_special",
            "kindbett",
            "pass",
            "commit_soldiers",
            "react",
            "take_losses",
            "join_tournament",
            "discard",
            "keep_hand",
            "choose_position",
        }
    ),
    "anno1452 expert": frozenset(Anno1452.action_specs),
}


# --- bookkeeping ----------------------------------------------------------------


def _owned(dump, seat):
    return [e for reg in dump["regions"] for e in reg["slots"] if e is not None and e["owner"] == seat]


def state_problems(dump):
    """Everything wrong with a dump's bookkeeping (empty list when fine)."""
    return [*_card_problems(dump), *_player_problems(dump), *_region_problems(dump)]


def _card_problems(dump):
    cards = list(dump["deck"]) + list(dump["discard"]) + list(dump["open_cards"])
    for p in dump["players"]:
        cards += p["hand"] + p["titles"] + ([p["marriage"]["card"]] if p["marriage"] else [])
    if sorted(cards) != list(range(NUM_CARDS)):
        return [f"cards are not each in exactly one place: {len(cards)} places for {NUM_CARDS} cards"]
    return []


def _player_problems(dump):
    problems = []
    low, high = PRESTIGE_TRACK
    for seat, p in enumerate(dump["players"]):
        estates = _owned(dump, seat)
        if p["gold"] < 0:
            problems.append(f"seat {seat} has {p['gold']} gold")
        if not low <= p["prestige"] <= high:
            problems.append(f"seat {seat} prestige {p['prestige']}")
        if len(estates) > ESTATES_PER_PLAYER or sum(e["citizens"] for e in estates) > CITIZENS_PER_PLAYER:
            problems.append(f"seat {seat} has more pieces than the box holds")
    return problems


def _region_problems(dump):
    problems = []
    for r, reg in enumerate(dump["regions"]):
        if len(reg["slots"]) != MAX_ESTATES[r]:
            problems.append(f"region {r} has {len(reg['slots'])} slots, not {MAX_ESTATES[r]}")
        cities = sum(1 for e in reg["slots"] if e is not None and e["city"])
        if cities > MAX_CITIES[r]:
            problems.append(f"region {r} holds {cities} Cities")
        for e in reg["slots"]:
            if e is not None and not (
                0 <= e["citizens"] <= CITIZENS_ON[e["city"]] and 0 <= e["strength"] <= 3
            ):
                problems.append(
                    f"region {r}: an Estate with {e['citizens']} Citizens, strength {e['strength']}"
                )
        problems += _principality_problems(dump, r, reg["principality"])
    return problems


def _principality_problems(dump, r, holder):
    """A Principality card is held by the majority owner, or conveyed by a
    marriage; outside a battle a seat's majority always carries the card
    (unless a marriage conveyed it elsewhere, or Ottokar holds it)."""
    owner = majority_owner(dump, r)
    if holder is not None:
        if _conveyed(dump, holder, r) or owner == holder:
            return []
        return [f"seat {holder} holds region {r}'s Principality without majority or marriage"]
    if dump["battle"] is not None or owner in (None, "ottokar"):
        return []
    if any(_conveyed(dump, seat, r) for seat in range(dump["num_players"])):
        return []
    return [f"seat {owner} has the majority in region {r} but not its Principality card"]


def _conveyed(dump, seat, r):
    marriage = dump["players"][seat]["marriage"]
    return marriage is not None and r in marriage["conveyed"]


def victory_points(dump):
    """VP per seat from holdings (DESIGN.md "Victory", ruling 12)."""
    out = []
    for seat, p in enumerate(dump["players"]):
        estates = _owned(dump, seat)
        principalities = sum(1 for reg in dump["regions"] if reg["principality"] == seat)
        out.append(
            len(estates)
            + sum(e["citizens"] for e in estates) // 2
            + sum(e["city"] for e in estates)
            + principalities
            + p["gold"] // 10
            + p["prestige"]
        )
    return out


def outcome_problems(dump, outcome):
    """The result is scored from the holdings and names the best (tie-broken) seats."""
    points = victory_points(dump)
    problems = []
    if outcome is None or outcome.get("reason") != "final_evaluation":
        return [f"no final evaluation: {outcome}"]
    if outcome["scores"] != {str(s): v for s, v in enumerate(points)}:
        problems.append(f"scores {outcome['scores']} do not match holdings {points}")
    rank = [(v, p["prestige"], p["gold"]) for v, p in zip(points, dump["players"])]
    best = [s for s, key in enumerate(rank) if key == max(rank)]
    if outcome["winners"] != best:
        problems.append(f"winners {outcome['winners']}, expected {best} from {rank}")
    return problems


def perturbation_names(options, num_players):
    """The hidden-info edits every match of this variant must exercise."""
    return ("other_hands", "deck_order", "generator")


# --- hidden information ---------------------------------------------------------


def perturbations(dump, viewer):
    """``[(name, edited dump)]`` changing only what ``viewer`` cannot see."""
    out = []
    for name, edit in _PERTURBERS.items():
        changed = orjson.loads(orjson.dumps(dump))
        if edit(changed, viewer):
            out.append((name, changed))
    return out


def _other_hands(dump, viewer):
    """Swap the first card of each other non-empty hand with the deck's top card."""
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


_PERTURBERS = {
    "other_hands": _other_hands,
    "deck_order": _deck_order,
    "others_offer": _others_offer,
    "generator": step_generator,
}
PERTURBATIONS = tuple(_PERTURBERS)


def view_leaks(view, dump, viewer):
    """Problems found in a view: other hands, forbidden keys, others' offers."""
    problems = hand_leaks(view, dump, viewer)
    for key in sorted(FORBIDDEN_VIEW_KEYS & set(view)):
        problems.append(f"forbidden key {key}")
    offer = dump["offer"]
    hidden = offer is not None and viewer not in (offer["from"], offer["to"])
    if hidden and view["offer"] != {"from": offer["from"], "to": offer["to"]}:
        problems.append("an offer's content is shown to a third party")
    return problems


def event_leaks(event):
    """Public event data that names hidden cards or an offer's content."""
    data = event["data"]
    if event["type"] in ("cards_drawn", "card_transferred") and ("cards" in data or "card" in data):
        return [f"{event['type']} shows cards publicly: {data}"]
    if event["type"] == "offer_made" and "offer" in data:
        return ["offer_made shows the offer publicly"]
    return []


# --- for the secrecy self-tests (tests/engine/test_view_secrecy.py) -------------


def rich_in_secrets(dump):
    """A position where every perturbation has something to change for seat 0."""
    return bool(dump["players"][1]["hand"]) and len(set(dump["deck"])) > 1


# Hidden values a deliberately leaky view shows (each must be caught).
PLANTED_SECRETS = {
    "another seat's hand": lambda d: list(d["players"][1]["hand"]),
    "the top card of the deck": lambda d: d["deck"][-1],
    "the next die roll": lambda d: d["rng"] % 6,
}
LEAKY_EVENTS = (
    {"type": "cards_drawn", "seat": 0, "data": {"count": 1, "cards": [3]}},
    {"type": "offer_made", "seat": 0, "data": {"to": 1, "offer": {"give_gold": 5}}},
)
SAFE_EVENTS = ({"type": "cards_drawn", "seat": 0, "data": {"count": 1}, "private": {"0": {"cards": [3]}}},)
