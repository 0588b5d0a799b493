"""The Anno 1452 board picture (the engine/render/anno1452 package).

Seeded random matches of every rules set, scenario and player count are
rendered at many steps from the acting seat's view. Checked: the SVG is
well-formed and titled; every legal action that refers to a place (an Estate,
a region, a card, a seat...) finds an element carrying that place's data-
attribute (the web client's contract, ``CLICK_TARGETS``); every region and
Estate slot is drawn exactly once; the map's drawn borders are map.json's; the
picture is redacted as the view is; seats are named as the web client names
them; names are escaped.
"""

import json
import random
import xml.etree.ElementTree as ET
from functools import cache

import pytest

import engine
from engine.games.anno1452.data import CARDS, MAX_ESTATES, REGION_INDEX, REGION_NAMES, REGIONS
from engine.render import anno1452, board_svg
from engine.render.anno1452 import cards
from engine.render.anno1452 import map as board_map

# Left out by `make test-fast` (-m "not slow"): every variant's board rendered and searched.
pytestmark = pytest.mark.slow

GAME = engine.get_game("anno1452")
SVG_NS = "{http://www.w3.org/2000/svg}"
# (rules, scenario, players): standard takes 3-4 players, Ottokar 2-3.
CONFIGS = [
    (rules, scenario, n)
    for rules in ("basic", "expert")
    for scenario, counts in (("standard", (3, 4)), ("ottokar_a", (2, 3)), ("ottokar_b", (2, 3)))
    for n in counts
]
SAMPLE_EVERY = 12  # steps between two pictures (plus the first step of each new action type)


def _setup(rules, scenario, n, seed):
    return GAME.setup(num_players=n, options={"rules": rules, "scenario": scenario}, seed=seed)


@cache
def _samples(rules, scenario, n, seed=1):
    """States of one random match with the acting seat: every few steps and at each new action type."""
    state, rng = _setup(rules, scenario, n, seed), random.Random(seed)
    seen_types, out = set(), []
    for step in range(4000):
        if GAME.outcome(state) is not None:
            out.append((state, 0, []))
            break
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        new_types = {a["type"] for a in actions} - seen_types
        if step % SAMPLE_EVERY == 0 or new_types:
            seen_types |= new_types
            out.append((state, seat, actions))
        state, _ = GAME.apply(state, seat, rng.choice(actions))
    return out


def _parse(svg):
    root = ET.fromstring(svg)
    assert root.tag == SVG_NS + "svg"
    return root


def _data_values(root):
    """{(attribute, value): count} of every data- attribute in the picture."""
    counts = {}
    for element in root.iter():
        for name, value in element.attrib.items():
            if name.startswith("data-"):
                counts[(name, value)] = counts.get((name, value), 0) + 1
    return counts


def _attr_value(value):
    return ",".join(str(v) for v in value) if isinstance(value, list) else str(value)


def _missing_targets(actions, seat, data):
    """Legal actions whose listed params have no element to click."""
    missing = []
    for action in actions:
        for param, attribute, own in anno1452.CLICK_TARGETS.get(action["type"], ()):
            if action.get(param) is None:
                continue
            value = (f"{seat}," if own else "") + _attr_value(action[param])
            if ("data-" + attribute, value) not in data:
                missing.append((action, param))
    return missing


@pytest.mark.parametrize("rules,scenario,n", CONFIGS)
def test_every_place_an_action_names_is_drawn_once_clickable(rules, scenario, n):
    covered = set()
    for state, seat, actions in _samples(rules, scenario, n):
        svg = anno1452.render(GAME.view(state, seat), seat)
        root = _parse(svg)
        assert "viewBox" in root.attrib and root.find(SVG_NS + "title").text
        data = _data_values(root)
        assert _missing_targets(actions, seat, data) == []
        for r, name in enumerate(REGION_NAMES):
            assert data.get(("data-region", name)) == 1
            for s in range(MAX_ESTATES[r]):
                assert data.get(("data-estate", f"{r},{s}")) == 1
        assert len(svg.encode()) < 60_000
        covered |= {a["type"] for a in actions if a["type"] in anno1452.CLICK_TARGETS}
    assert {"place_estate", "settle", "attack"} <= covered  # the samples reach the board's actions


def test_the_samples_reach_the_rarer_clickable_actions():
    covered = {a["type"] for config in CONFIGS for _, _, actions in _samples(*config) for a in actions}
    assert set(anno1452.CLICK_TARGETS) <= covered, "sample more steps"


def test_every_action_with_a_square_or_region_param_is_clickable():
    for action_type, spec in GAME.describe_actions().items():
        placed = {
            p
            for p, d in spec["params"].items()
            if d["kind"] == "square" or d.get("values") == list(REGION_NAMES)
        }
        listed = {param for param, _, _ in anno1452.CLICK_TARGETS.get(action_type, ())}
        assert placed <= listed, action_type
    # Every listed param is a real param of a real action.
    for action_type, targets in anno1452.CLICK_TARGETS.items():
        params = GAME.describe_actions()[action_type]["params"]
        assert all(param in params for param, _, _ in targets), action_type


def test_the_root_carries_the_click_targets_and_a_description():
    state = _setup("expert", "ottokar_a", 2, 3)
    svg = board_svg(GAME.view(state, 0), 0)
    root = _parse(svg)
    assert json.loads(root.get("data-click-targets")) == anno1452.CLICK_TARGETS
    assert root.find(SVG_NS + "desc").text.startswith("Anno 1452")
    assert root.get("viewBox").startswith("0 0 1340 ")


def test_the_drawn_borders_are_the_maps_borders():
    expected = {
        tuple(sorted((r, REGION_INDEX[b]))) for r, region in enumerate(REGIONS) for b in region["borders"]
    }
    assert board_map.layout_adjacency() == expected


def _inside(point, polygon):
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[-1:] + polygon[:-1]):
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


def test_every_estate_slot_lies_inside_its_region():
    for r, name in enumerate(REGION_NAMES):
        polygon = board_map.LAYOUT["regions"][name]["polygon"]
        w, h = board_map.SLOT_W, board_map.SLOT_H
        for x, y in board_map.SLOTS[r]:
            corners = [(x, y), (x + w, y), (x, y + h), (x + w, y + h)]
            assert all(_inside(c, polygon) for c in corners), name


def _mid_game(rules="basic", scenario="standard", n=4, seed=5, steps=150):
    state, rng = _setup(rules, scenario, n, seed), random.Random(seed)
    for _ in range(steps):
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return state


def _with_other_hand(state, seat):
    """The same state with ``seat``'s hand swapped for as many cards from the deck."""
    dump = json.loads(json.dumps(GAME.dump(state)))
    hand, deck = dump["players"][seat]["hand"], dump["deck"]
    k = len(hand)
    assert len(deck) >= k
    dump["players"][seat]["hand"], dump["deck"] = deck[:k], hand + deck[k:]
    return GAME.load(dump), {CARDS[c]["name"] for c in hand} ^ {CARDS[c]["name"] for c in deck[:k]}


@pytest.mark.parametrize("config", [("basic", "standard", 4), ("expert", "ottokar_b", 3)])
def test_another_seats_hand_does_not_change_the_picture(config):
    state = _mid_game(*config)
    changed, names = _with_other_hand(state, 0)
    assert names  # the hands differ
    for viewer in (None, 1):
        assert anno1452.render(GAME.view(changed, viewer), viewer) == anno1452.render(
            GAME.view(state, viewer), viewer
        )
    assert anno1452.render(GAME.view(changed, 0), 0) != anno1452.render(GAME.view(state, 0), 0)


def _public_card_names(view):
    """Card names a viewer may read anywhere in the view (and effect names shown as text)."""
    ids = set(view["discard"]) | set(view["open_cards"])
    for player in view["players"]:
        ids |= set(player.get("hand", [])) | set(player["titles"])
        if player["marriage"]:
            ids.add(player["marriage"]["card"])
    for deal in (view["offer"], view["draft"]):
        for side in ("give", "ask"):
            ids |= set((deal or {}).get(side, {}).get("cards", []))
    names = {CARDS[c]["name"] for c in ids}
    effects = {e for e, seats in view["er_effects"].items() if seats not in (None, [])}
    effects |= {e for e in (view["battle"] or {}).get("reactions", {}).values() if e}
    if view["landfrieden"]:
        effects.add("landfrieden")
    return names | {c["name"] for c in CARDS if c.get("effect") in effects}


@pytest.mark.parametrize("config", [("expert", "standard", 4), ("expert", "ottokar_a", 2)])
def test_a_seat_does_not_see_the_others_hands(config):
    checked = 0
    for state, seat, _ in _samples(*config)[::3]:
        dump = GAME.dump(state)
        view = GAME.view(state, seat)
        svg = anno1452.render(view, seat)
        public = _public_card_names(view)
        for other, player in enumerate(dump["players"]):
            if other == seat:
                continue
            for card in player["hand"]:
                if CARDS[card]["name"] not in public:
                    assert CARDS[card]["name"] not in svg, (other, card)
                    checked += 1
    assert checked > 100


def test_the_viewers_hand_is_drawn_as_readable_cards():
    state = _mid_game()
    view = GAME.view(state, 2)
    root = _parse(anno1452.render(view, 2))
    cards = {int(e.get("data-card")): e for e in root.iter() if e.get("data-card") is not None}
    assert set(view["players"][2]["hand"]) <= set(cards)
    for card in view["players"][2]["hand"]:
        assert CARDS[card]["name"] in "".join(cards[card].itertext())
    # A spectator sees no card face.
    spectator = _parse(anno1452.render(GAME.view(state, None), None))
    assert not [e for e in spectator.iter() if e.get("data-card") is not None]


def test_player_names_are_escaped():
    state = _mid_game()
    view = GAME.view(state, 0)
    nasty = "<b>&\"'"
    for player in view["players"]:
        player["name"] = nasty
    svg = anno1452.render(view, 0)
    assert "<b>" not in svg
    root = _parse(svg)
    assert any(nasty in (e.text or "") for e in root.iter())


def test_ottokar_is_grey_and_named():
    state = _setup("basic", "ottokar_a", 2, 4)
    root = _parse(anno1452.render(GAME.view(state, None), None))
    titles = [e.text for e in root.iter(SVG_NS + "title")]
    assert any("Estate of Ottokar" in t for t in titles)
    assert any(
        "Ottokar" in "".join(e.itertext()) for e in root.iter(SVG_NS + "g") if e.get("class") == "legend"
    )


def _texts(element):
    return "".join(element.itertext())


def test_unnamed_seats_are_counted_from_one_as_in_the_web_client():
    state = _mid_game()
    view = GAME.view(state, 0)
    view["players"][1]["name"] = "Bertha"
    root = _parse(anno1452.render(view, 0))
    panels = {e.get("data-seat"): _texts(e) for e in root.iter() if e.get("class") == "player"}
    assert panels["0"].startswith("Seat 1") and panels["1"].startswith("Bertha")
    assert panels["3"].startswith("Seat 4")
    everything = _texts(root) + " ".join(e.text for e in root.iter(SVG_NS + "title"))
    assert "Seat 0" not in everything and "Seat 2" not in everything  # seat 1 is Bertha
    assert "as seen by Seat 1." in root.find(SVG_NS + "desc").text
    # Only the panels name a seat for a click: the legend rows do not.
    assert sorted(e.get("data-seat") for e in root.iter() if e.get("data-seat") is not None) == [
        "0",
        "1",
        "2",
        "3",
    ]


def test_every_text_only_card_has_a_short_text():
    worded = {"marriage", "title", "inheritance"}  # put into words from their rules data
    effects = {c["effect"] for c in CARDS if c["kind"] not in worded}
    assert set(cards.EFFECT_TEXTS) == effects
    assert all(cards.card_text(i) for i in range(len(CARDS)))
