"""Anno 1503 hidden information: what a viewer may not see, edits of it
that must leave the view unchanged, and leak detectors for views and events.
"""

import orjson

from ..secrecy import find_dicts, find_keys, find_values, hand_leaks, step_generator
from .bookkeeping import is_expansion
from .components import PIRATE_CARD_KINDS, TILE_BACKS, TILE_COUNT

# Never in a view: the generator, the reserve/box piles. (``queue``, the seats
# still to resolve a roll or event, is public: DESIGN.md "Views".)
FORBIDDEN_VIEW_KEYS = {"rng", "reserve", "box"}
PERTURBATIONS_EXPANSION = ("other_aristocrat_cards", "aristocrat_deck_order", "pirate_deck_order")


def hidden_tiles(dump, viewer):
    """Tile id -> position key, for every tile whose identity ``viewer`` may not know."""
    hidden = {}
    for space, tile in dump["spaces"].items():
        if tile is not None and (viewer is None or viewer not in dump["seen"].get(space, [])):
            hidden[tile] = ("spaces", space)
    for pile in ("reserve", "box", "expansion_reserve"):
        for i, tile in enumerate(dump.get(pile, ())):
            hidden[tile] = (pile, i)
    combat = dump.get("combat")
    if combat is not None and combat.get("tile") is not None:
        # A lair under attack is shown to the table while the battle lasts
        # (DESIGN.md Expansion "View additions"); if it wins, it goes face down again.
        hidden.pop(combat["tile"], None)
    return hidden


def perturbations(dump, viewer):
    """``[(name, edited dump)]`` changing only what ``viewer`` cannot see.

    A perturbation that would change nothing (e.g. no card in other hands)
    is left out; callers count the ones done.
    """
    out = []
    perturbers = {**_PERTURBERS, **_X_PERTURBERS} if is_expansion(dump) else _PERTURBERS
    for name, edit in perturbers.items():
        changed = orjson.loads(orjson.dumps(dump))  # a deep copy, 50x faster than deepcopy
        if edit(changed, viewer):
            out.append((name, changed))
    return out


def _other_hands(dump, viewer):
    """Recolour one card in each other non-empty hand (same size)."""
    done = False
    for seat, p in enumerate(dump["players"]):
        hand = p["hand"]
        if seat == viewer or not any(hand.values()):
            continue
        kinds = list(hand)  # the six commodities, plus the luxuries in the expansion
        i = next(i for i, c in enumerate(kinds) if hand[c])
        hand[kinds[i]] -= 1
        hand[kinds[(i + 1) % len(kinds)]] += 1
        done = True
    return done


def _unseen_tiles(dump, viewer):
    """Rotate identities among hidden tiles of the same back."""
    by_back = {}
    for tile, position in sorted(hidden_tiles(dump, viewer).items()):
        # an expansion tile's back has a crown: it only trades places with its kind
        by_back.setdefault((TILE_BACKS[tile], tile >= TILE_COUNT), []).append((tile, position))
    done = False
    for group in by_back.values():
        if len(group) < 2:
            continue
        tiles = [t for t, _ in group]
        for (_, (pile, key)), tile in zip(group, tiles[1:] + tiles[:1]):
            dump[pile][key] = tile
        done = True
    return done


def _reserve_order(dump, viewer):
    if len(dump["reserve"]) < 2:
        return False
    dump["reserve"].reverse()
    return True


_PERTURBERS = {
    "other_hands": _other_hands,
    "unseen_tiles": _unseen_tiles,
    "reserve_order": _reserve_order,
    "generator": step_generator,
}
PERTURBATIONS = tuple(_PERTURBERS)


def view_leaks(view, dump, viewer):
    """Problems found by searching ``view`` for what ``viewer`` may not see."""
    problems = [f"forbidden key {path}" for path in find_keys(view, FORBIDDEN_VIEW_KEYS)]
    problems += [f"generator state at {path}" for path in find_values(view, {dump["rng"]})]
    problems += _hand_leaks(view, dump, viewer)
    if is_expansion(dump):
        problems += _aristocrat_card_leaks(view, dump, viewer)
    problems += _tile_leaks(view, dump, viewer)
    return problems


def _hand_leaks(view, dump, viewer):
    problems = hand_leaks(view, dump, viewer, size=lambda hand: sum(hand.values()))
    problems += _hand_copies(view, dump, viewer)
    return problems


def _hand_copies(view, dump, viewer):
    """Another seat's hand anywhere in the JSON (e.g. inside ``choice``).

    Only distinctive hands are searched: an empty one, or one equal to the
    viewer's own hand or the stacks, would match innocently.
    """
    public = [dump["stacks"]] + ([dump["players"][viewer]["hand"]] if viewer is not None else [])
    problems = []
    for seat, p in enumerate(dump["players"]):
        hand = p["hand"]
        if seat == viewer or not any(hand.values()) or hand in public:
            continue
        for path, _ in find_dicts(view, lambda d, h=hand: d == h):
            problems.append(f"seat {seat}'s hand {hand} at {path}")
    return problems


def _tile_leaks(view, dump, viewer):
    hidden = hidden_tiles(dump, viewer)
    problems = [
        f"hidden tile {d['id']} at {path}"
        for path, d in find_dicts(view, lambda d: "id" in d and ("back" in d or "kind" in d))
        if d["id"] in hidden and d.get("kind") not in PIRATE_CARD_KINDS
    ]
    for entry in view["spaces"]:
        key = f"{entry['space'][0]},{entry['space'][1]}"
        tile = dump["spaces"][key]
        if tile is None:
            expected = None
        elif tile in hidden or _lair_in_combat(dump, tile, key, viewer):
            expected = {"back": TILE_BACKS[tile]}
        else:
            expected = None  # seen by the viewer: its identity may (must) be shown
            if entry["tile"] is None or entry["tile"].get("id") != tile:
                problems.append(
                    f"space {key}: viewer {viewer} looked at tile {tile} but sees {entry['tile']}"
                )
            continue
        if entry["tile"] != expected:
            problems.append(f"space {key} shows {entry['tile']} to {viewer}, expected {expected}")
    return problems


def _lair_in_combat(dump, tile, space, viewer):
    """The lair under attack: shown in ``combat``, still face down on its space
    for a viewer who did not look at it."""
    combat = dump.get("combat")
    seen = viewer is not None and viewer in dump["seen"].get(space, [])
    return combat is not None and combat.get("tile") == tile and not seen


def event_leaks(event):
    """Secrets that must only travel in ``private``: a discovered tile, a drawn card."""
    data = event["data"]
    if event["type"] == "tile_discovered" and ({"tile", "id", "kind"} & set(data)):
        return [f"tile_discovered shows the tile publicly: {data}"]
    if event["type"] == "card_drawn" and "commodity" in data:
        return [f"card_drawn shows the card publicly: {data}"]
    if event["type"] == "aristocrat_cards_drawn" and "cards" in data:
        return [f"aristocrat cards drawn shown publicly: {data}"]
    return []


def _aristocrat_card_leaks(view, dump, viewer):
    problems = []
    for entry in view["players"]:
        seat, shown = entry["seat"], entry["aristocrat"]
        cards = dump["players"][seat]["aristocrat"]["cards"]
        if seat == viewer:
            if shown.get("cards") != cards:
                problems.append(f"own aristocrat cards shown as {shown.get('cards')}")
        elif "cards" in shown or shown.get("cards_count") != len(cards):
            problems.append(f"seat {seat}'s aristocrat cards leak to {viewer}: {shown}")
    return problems


def _other_aristocrat_cards(dump, viewer):
    """Swap one card of another seat with a different card of the deck."""
    deck = dump["aristocrat_deck"]
    for seat, p in enumerate(dump["players"]):
        cards = p["aristocrat"]["cards"]
        if seat == viewer or not cards:
            continue
        for i, card in enumerate(deck):
            if card != cards[0]:
                deck[i], cards[0] = cards[0], card
                return True
    return False


def _reverse(pile):
    def edit(dump, viewer):
        if len(set(dump[pile])) < 2:
            return False
        dump[pile].append(dump[pile].pop(0))  # a rotation always changes a mixed pile
        return True

    return edit


_X_PERTURBERS = {
    "other_aristocrat_cards": _other_aristocrat_cards,
    "aristocrat_deck_order": _reverse("aristocrat_deck"),
    "pirate_deck_order": _reverse("pirate_deck"),
}


# --- for the secrecy self-tests (tests/engine/test_view_secrecy.py) -------------


def rich_in_secrets(dump):
    """A position where every perturbation has something to change for seat 0."""
    hand = dump["players"][1]["hand"]
    return (
        any(hand.values())
        and hand != dump["players"][0]["hand"]
        and hand != dump["stacks"]
        and hand["stone"] > 0
        and any(
            0 in seats and 1 not in seats and dump["spaces"][s] is not None
            for s, seats in dump["seen"].items()
        )
    )


# Hidden values a deliberately leaky view shows (each must be caught).
PLANTED_SECRETS = {
    "a count from another hand": lambda d: d["players"][1]["hand"]["stone"],
    "the top reserve tile id": lambda d: d["reserve"][0],
    "the next die roll": lambda d: d["rng"] % 6,
    "a face-down tile": lambda d: next(t for t in d["spaces"].values() if t is not None),
}
LEAKY_EVENTS = (
    {
        "type": "tile_discovered",
        "seat": 0,
        "data": {"ship": 0, "space": [0, 0], "back": 2, "tile": {"id": 3}},
    },
    {"type": "card_drawn", "seat": 0, "data": {"target": 1, "commodity": "wood"}},
)
SAFE_EVENTS = (
    {"type": "card_drawn", "seat": 0, "data": {"target": 1}, "private": {"0": {"commodity": "wood"}}},
)
