"""Discovering a pirate lair: put it back, or reveal it and fight (S3 §6.3).

S3 §6.3 "Les repères de pirates": « Lors d'une telle découverte, un joueur
peut : - Soit remettre la tuile île en place et poursuivre son exploration.
- Soit révéler le repère et combattre les pirates. » The discovery itself
starts no battle: the player decides, and the decision is a legal action
(``return_tile`` or ``attack_lair``) whose events tell the table which.
"""

import pytest

from engine import IllegalActionError

from .expansion_helpers import (
    BESIDE_LAIR_SPACE,
    LAIR_SPACE,
    aristo,
    lair_tile,
    luxury_office_tile,
    place_ship,
    put_expansion_tile,
    rng_for_faces,
    xload,
    xposition,
)
from .helpers import game, of_type, play

WIN = (3, 0)  # (attacker face, defender face)
ATTACK = {"type": "attack_lair"}
RETURN = {"type": "return_tile"}


def _discover_lair(strength=4, cannons=4, lairs=(), faces=WIN):
    d = xposition(3)
    tile = lair_tile(strength)
    put_expansion_tile(d, tile, LAIR_SPACE)
    aristo(d, 0)["cannons"] = cannons
    aristo(d, 0)["lairs"] = list(lairs)
    place_ship(d, 0, BESIDE_LAIR_SPACE, ap=3)
    d["rng"] = rng_for_faces(*faces)
    state, events = play(xload(d), 0, {"type": "discover", "ship": 0, "space": LAIR_SPACE})
    return tile, state, events


def test_discovering_a_lair_starts_no_battle():
    """The discovery only shows the tile to its finder; he chooses next."""
    _tile, state, events = _discover_lair()
    assert [e["type"] for e in events] == ["tile_discovered"]
    after = game().dump(state)
    assert after["phase"] == "tile_decision" and after["combat"] is None
    assert sorted(a["type"] for a in game().legal_actions(state, 0)) == ["attack_lair", "return_tile"]


def test_putting_the_lair_back_keeps_exploring():
    """« remettre la tuile île en place et poursuivre son exploration »: the
    tile stays face down on its space, no die is rolled, the ship keeps its
    remaining action points and may sail on."""
    tile, state, _ = _discover_lair()
    state, events = play(state, 0, RETURN)
    after = game().dump(state)
    assert [e["type"] for e in events] == ["tile_returned"]
    assert after["spaces"]["2,14"] == tile and after["phase"] == "main"
    assert after["players"][0]["ships"][0] == {"at": BESIDE_LAIR_SPACE, "ap": 2}
    assert aristo(after, 0)["damaged"] == [False, False] and aristo(after, 0)["lairs"] == []
    assert any(a["type"] == "move_ship" and a["ship"] == 0 for a in game().legal_actions(state, 0))


def test_putting_the_lair_back_keeps_it_secret():
    """Only the finder has seen the lair: the others see a face-down tile."""
    _tile, state, events = _discover_lair()
    state, more = play(state, 0, RETURN)
    for seat in (1, 2):
        space = next(s for s in game().view(state, seat)["spaces"] if s["space"] == LAIR_SPACE)
        assert set(space["tile"]) == {"back"}, space  # face down: the back only
    mine = next(s for s in game().view(state, 0)["spaces"] if s["space"] == LAIR_SPACE)
    assert mine["tile"]["kind"] == "lair"
    assert not of_type(events + more, "lair_attacked")


def test_revealing_the_lair_fights_it():
    """« révéler le repère et combattre les pirates »: the lair is shown to
    all, the left neighbour rolls for it, and a win takes it to a gold bridge
    and sends the ship home."""
    tile, state, _ = _discover_lair()
    state, events = play(state, 0, ATTACK)
    attacked = of_type(events, "lair_attacked")
    assert attacked and attacked[0]["data"]["roller"] == 1
    assert attacked[0]["data"]["tile"]["kind"] == "lair"
    assert of_type(events, "combat_rolled") and of_type(events, "battle_won")
    after = game().dump(state)
    assert aristo(after, 0)["lairs"] == [tile]
    assert after["players"][0]["ships"][0]["at"] is None and after["phase"] == "main"


def test_no_attack_offered_with_two_lairs_defeated():
    """S3 §6.3 Remarques: « Un joueur qui a vaincu 2 repères de pirates n'a
    plus le droit d'attaquer d'autres repères. » Only putting it back remains."""
    d = xposition(3)
    held = [lair_tile(4), lair_tile(5)]
    for t in held:
        for pile in ("expansion_reserve", "box"):
            if t in d[pile]:
                d[pile].remove(t)
        for k, v in d["spaces"].items():
            if v == t:
                d["spaces"][k] = None
    aristo(d, 0)["lairs"] = held
    put_expansion_tile(d, lair_tile(6), LAIR_SPACE)
    place_ship(d, 0, BESIDE_LAIR_SPACE)
    state, _ = play(xload(d), 0, {"type": "discover", "ship": 0, "space": LAIR_SPACE})
    assert [a["type"] for a in game().legal_actions(state, 0)] == ["return_tile"]
    _assert_refused("two_lairs_defeated", lambda: play(state, 0, ATTACK))


def test_only_a_lair_can_be_attacked():
    """Any other discovered tile offers taking or returning it, no fight."""
    d = xposition(3)
    place_ship(d, 0, BESIDE_LAIR_SPACE)
    put_expansion_tile(d, luxury_office_tile("silk"), LAIR_SPACE)
    state, _ = play(xload(d), 0, {"type": "discover", "ship": 0, "space": LAIR_SPACE})
    assert "attack_lair" not in {a["type"] for a in game().legal_actions(state, 0)}
    _assert_refused("not_a_lair", lambda: play(state, 0, ATTACK))


def test_attack_lair_is_refused_outside_a_tile_decision():
    d = xposition(3)
    _assert_refused("wrong_phase", lambda: play(xload(d), 0, ATTACK))


def _assert_refused(reason, attempt):
    """``attempt()`` raises IllegalActionError with ``reason``."""
    with pytest.raises(IllegalActionError) as refused:
        attempt()
    assert refused.value.reason == reason
