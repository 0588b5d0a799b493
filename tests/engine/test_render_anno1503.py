"""The Anno 1503 board picture (the engine/render/anno1503 package).

Checked over seeded random matches of the base game and of Pirates &
Aristocrats, from the acting seat's view: the SVG is well formed and titled,
every board square and every ship is named exactly once, and every legal
action that names a place finds its element by the ``CLICK_TARGETS``
contract, computed as the web client computes it. Redaction: the spectator's
and another seat's picture do not change when only a secret changes (a hand,
a face-down tile, aristocrat cards); text from the view is escaped.
"""

import json
import random
import xml.etree.ElementTree as ET

import pytest

import engine
from engine.render import anno1503

# Left out by `make test-fast` (-m "not slow"): every variant's board rendered and searched.
pytestmark = pytest.mark.slow

GAME = engine.get_game("anno1503")
BASE = {"expansion": "none"}
EXPANSION = {"expansion": "pirates_aristocrats"}
SVG_NS = "{http://www.w3.org/2000/svg}"

# Weighted random play (like the invariant suite's): a uniform player mostly
# shuffles ships; these weights reach discoveries, tiles and the pirate sea.
WEIGHTS = {
    "buy": 0.1,
    "move_ship": 1.0,
    "end_turn": 0.25,
    "discover": 20,
    "take_tile": 3,
    "build_ship": 5,
    "develop": 5,
    "place_pioneer": 5,
    "big_branch_office": 3,
    "build_manor": 8,
    "buy_cannon": 4,
    "build_aristocrat": 8,
    "sell_luxury": 0.1,
    "exchange_card": 0.2,
    "play_card": 1,
}
STEPS = 1500  # actions per match
EVERY = 12  # a picture every EVERY steps, and whenever a click-target type is first listed


def play(num_players, options, seed, steps=STEPS):
    """Yield ``(state, seat, legal)`` along a seeded weighted-random match."""
    state = GAME.setup(num_players=num_players, options=options, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        to_act = GAME.to_act(state)
        if not to_act:
            return
        seat = to_act[0]
        legal = GAME.legal_actions(state, seat)
        yield state, seat, legal
        action = rng.choices(legal, [WEIGHTS.get(a["type"], 1.0) for a in legal])[0]
        state, _ = GAME.apply(state, seat, action)


def client_value(action, param, own, seat):
    """The ``data-`` value a client looks for (the CLICK_TARGETS contract)."""
    value = action[param]
    value = ",".join(str(v) for v in value) if isinstance(value, list) else str(value)
    return f"{seat},{value}" if own else value


def data_values(root, attribute):
    return [e.get(f"data-{attribute}") for e in root.iter() if e.get(f"data-{attribute}") is not None]


def texts(element):
    """The words of every ``<text>`` and ``<title>`` under ``element``, in document order."""
    return ["".join(e.itertext()) for e in element.iter() if e.tag in (f"{SVG_NS}text", f"{SVG_NS}title")]


def board_squares(options):
    """Every square of the board: the 5x12 main board, and the 6x6 pirate sea east of it."""
    squares = {f"{r},{c}" for r in range(5) for c in range(12)}
    if options == EXPANSION:
        squares |= {f"{r},{c}" for r in range(6) for c in range(12, 18)}
    return squares


def check_picture(svg, view, options):
    root = ET.fromstring(svg)  # well formed
    assert root.tag == f"{SVG_NS}svg"
    assert root.get("viewBox") and root.find(f"{SVG_NS}title").text
    assert json.loads(root.get("data-click-targets")) == anno1503.CLICK_TARGETS
    spaces = data_values(root, "space")
    assert sorted(spaces) == sorted(board_squares(options)), "each board square exactly once"
    ships = data_values(root, "ship")
    expected_ships = [f"{p['seat']},{i}" for p in view["players"] for i in range(len(p["ships"]))]
    assert sorted(ships) == sorted(expected_ships), "each ship exactly once, on the board or in stock"
    for attribute in ("slot", "bridge", "commodity"):
        values = data_values(root, attribute)
        assert len(values) == len(set(values)), f"a data-{attribute} twice"
    # A client takes the first element with a value (querySelector): for a seat, its panel.
    for player in view["players"]:
        first = next(e for e in root.iter() if e.get("data-seat") == str(player["seat"]))
        assert "panel" in first.get("class", "").split()
    return root


def check_click_targets(state, seat, options):
    """Draw the acting seat's picture; every placed legal action must find its element.

    Returns the action types checked.
    """
    view = GAME.view(state, seat)
    root = check_picture(anno1503.render(view, seat), view, options)
    checked, values = set(), {}
    for action in GAME.legal_actions(state, seat):
        for param, attribute, own in anno1503.CLICK_TARGETS.get(action["type"], ()):
            if action.get(param) is None:
                continue
            if attribute not in values:
                values[attribute] = set(data_values(root, attribute))
            wanted = client_value(action, param, own, seat)
            assert wanted in values[attribute], f"{action} has no data-{attribute}={wanted!r}"
            checked.add(action["type"])
    return checked


# The click-target types each variant's matches must reach (so the test cannot
# pass by never meeting them); rarer expansion ones are set up below.
VARIANTS = {
    "base": (
        BASE,
        {
            "move_ship",
            "discover",
            "develop",
            "take_tile",
            "discard",
            "big_branch_office",
            "lose_tile",
            "place_reserve_tile",
        },
    ),
    "expansion": (
        EXPANSION,
        {
            "move_ship",
            "discover",
            "develop",
            "take_tile",
            "discard",
            "big_branch_office",
            "lose_tile",
            "build_ship",
        },
    ),
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_placed_action_finds_its_element(variant):
    options, must_reach = VARIANTS[variant]
    checked = set()
    for num_players in (2, 3, 4):
        pictures = 0
        for step, (state, seat, legal) in enumerate(play(num_players, options, seed=100 + num_players)):
            new_type = any(a["type"] in anno1503.CLICK_TARGETS and a["type"] not in checked for a in legal)
            if not (new_type or step % EVERY == 0):
                continue
            checked |= check_click_targets(state, seat, options)
            pictures += 1
            if step % (4 * EVERY) == 0:
                spectator = GAME.view(state, None)
                check_picture(anno1503.render(spectator, None), spectator, options)
        assert pictures > 20, (num_players, pictures)
    assert must_reach <= checked, must_reach - checked


def test_rare_expansion_targets():
    """A damaged ship (repair, Engineer) and the Library's slot, set up by editing a dump."""
    state, seat = next(
        (s, seat)
        for step, (s, seat, _) in enumerate(play(3, EXPANSION, seed=5))
        if step > 30 and s.phase == "main"
    )
    dump = GAME.dump(state)
    player = dump["players"][seat]
    player["ships"][0] = {"at": [2, 1], "ap": 0}
    player["aristocrat"].update(damaged=[True, False], cards=["engineer"], buildings=[])
    player["aristocrat"]["turn"]["sailed"] = False
    for commodity in ("wood", "tool", "silk", "marble", "spice"):
        player["hand"][commodity] += 1
    dump["aristocrat_buildings"]["library"] = 1
    checked = check_click_targets(GAME.load(dump), seat, EXPANSION)
    assert {"repair_ship", "play_card", "build_aristocrat"} <= checked


def test_square_params_are_click_targets():
    for action_type, spec in GAME.describe_actions().items():
        for param, info in spec["params"].items():
            if info["kind"] == "square":
                assert [param, "space", False] in anno1503.CLICK_TARGETS.get(action_type, []), action_type


def test_click_targets_name_real_params():
    described = GAME.describe_actions()
    attributes = {"space", "ship", "slot", "bridge", "commodity", "seat"}
    for action_type, targets in anno1503.CLICK_TARGETS.items():
        for param, attribute, own in targets:
            assert param in described[action_type]["params"], (action_type, param)
            assert attribute in attributes and isinstance(own, bool)


# --- redaction -----------------------------------------------------------------------------


def mid_game_states(options, num_players=3, seeds=(7, 8), steps=(60, 400, 900)):
    for seed in seeds:
        for step, (state, _, _) in enumerate(play(num_players, options, seed, max(steps) + 1)):
            if step in steps:
                yield state


def moved_card(hand):
    """The hand with one card moved to another commodity: same size, other content."""
    hand = dict(hand)
    source = next((k for k, v in hand.items() if v), None)
    if source is None:
        return None
    target = next(k for k in hand if k != source)
    hand[source] -= 1
    hand[target] += 1
    return hand


def swapped_hidden_tiles(dump):
    """Two face-down tiles nobody looked at, same back, different identity, swapped."""
    from engine.games.anno1503.expansion.data import TILE_SET

    TILES = TILE_SET.tiles  # every tile a match may deal, the expansion's included

    seen = {k for k, seats in dump["seen"].items() if seats}
    hidden = [k for k, t in dump["spaces"].items() if t is not None and k not in seen]
    for i, a in enumerate(hidden):
        for b in hidden[i + 1 :]:
            ta, tb = TILES[dump["spaces"][a]], TILES[dump["spaces"][b]]
            different = (ta["kind"], ta.get("commodity")) != (tb["kind"], tb.get("commodity"))
            if ta["back"] == tb["back"] and different:
                dump["spaces"][a], dump["spaces"][b] = dump["spaces"][b], dump["spaces"][a]
                return True
    return False


def pictures(state, viewers):
    return {v: anno1503.render(GAME.view(state, v), v) for v in viewers}


@pytest.mark.parametrize("options", [BASE, EXPANSION], ids=["base", "expansion"])
def test_secrets_change_no_other_picture(options):
    perturbed = swapped = cards_changed = 0
    for state in mid_game_states(options):
        before = pictures(state, (None, 0, 1))
        dump = GAME.dump(state)
        hand = moved_card(dump["players"][0]["hand"])
        if hand is None:
            continue
        dump["players"][0]["hand"] = hand
        after = pictures(GAME.load(dump), (None, 0, 1))
        assert after[None] == before[None], "the spectator's picture shows seat 0's hand"
        assert after[1] == before[1], "seat 1's picture shows seat 0's hand"
        assert after[0] != before[0], "seat 0 sees his own hand"
        perturbed += 1

        dump = GAME.dump(state)
        if swapped_hidden_tiles(dump):
            after = pictures(GAME.load(dump), (None, 0, 1))
            assert after == before, "a face-down tile's identity shows"
            swapped += 1

        aristocrat = dump["players"][0].get("aristocrat")
        if aristocrat and aristocrat["cards"]:
            dump = GAME.dump(state)
            cards = dump["players"][0]["aristocrat"]["cards"]
            cards[0] = "builder" if cards[0] != "builder" else "explorer"
            after = pictures(GAME.load(dump), (None, 1))
            assert after[None] == before[None] and after[1] == before[1], "aristocrat cards show"
            cards_changed += 1
    assert perturbed >= 3 and swapped >= 3
    assert cards_changed or options == BASE


def test_own_hand_in_full_others_as_counts():
    state = next(mid_game_states(BASE, steps=(400,)))
    root = ET.fromstring(anno1503.render(GAME.view(state, 0), 0))
    commodities = data_values(root, "commodity")
    assert commodities and all(v.startswith("0,") for v in commodities)
    root = ET.fromstring(anno1503.render(GAME.view(state, None), None))
    assert not data_values(root, "commodity")


def test_view_text_is_escaped():
    view = GAME.view(GAME.setup(num_players=2, options=EXPANSION, seed=3), 0)
    name = "<b>&\"'</b>"
    view["players"][1]["name"] = name
    svg = anno1503.render(view, 0)
    root = ET.fromstring(svg)
    assert not list(root.iter(f"{SVG_NS}b")), "markup from a name became an element"
    assert any(name in words for words in texts(root))


def test_seats_and_ships_count_from_one():
    """Unnamed seats read "Seat 1", "Seat 2"... as the web client names them (svg.seat_name), and
    ships "ship 1", "ship 2": in panels, titles, the header and the legend. ``data-`` values keep
    the actions' own numbers (the ship's index from 0)."""
    state = next(mid_game_states(BASE, steps=(400,)))
    view = GAME.view(state, 1)
    view["discovery"] = {"ship": 1, "space": list(view["spaces"][0]["space"])}
    assert not any(p.get("name") for p in view["players"])
    root = ET.fromstring(anno1503.render(view, 1))
    words = texts(root)
    assert not any("Seat 0" in w for w in words)
    assert "You: Seat 2" in words and any("with ship 2" in w for w in words)
    legend = next(e for e in root.iter() if e.get("class") == "legend")
    assert {"Seat 1 (blue)", "Seat 2 (orange) - you", "Seat 3 (green)"} <= set(texts(legend))
    for panel in (e for e in root.iter() if e.get("data-seat") is not None):
        head = next(e for e in panel.iter(f"{SVG_NS}text"))
        assert head.text.startswith(f"Seat {int(panel.get('data-seat')) + 1}")
    ships = [e for e in root.iter() if e.get("data-ship") is not None]
    assert ships
    for ship in ships:
        seat, index = map(int, ship.get("data-ship").split(","))
        assert ship.find(f"{SVG_NS}title").text.startswith(f"Seat {seat + 1}'s ship {index + 1},")
        assert ship.find(f"{SVG_NS}text").text == str(index + 1), "the sail shows the ship's number"


def test_size_stays_small():
    # A late 4-player expansion match is the largest picture (four full panels, many tiles).
    for options in (BASE, EXPANSION):
        for state in mid_game_states(options, num_players=4, seeds=(11,), steps=(1400,)):
            for viewer in (None, 0):
                svg = anno1503.render(GAME.view(state, viewer), viewer)
                assert len(svg.encode()) < 72_000, (options, viewer, len(svg))
