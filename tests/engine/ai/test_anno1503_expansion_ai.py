"""The Anno 1503 AI on the Pirates & Aristocrats expansion: it rebuilds
expansion states from a view, never peeks, is reproducible, and answers
pirates by the odds."""

import pytest

import engine
from engine.ai import get_player
from engine.ai.anno1503.players import sample_state
from engine.ai.anno1503.policy import score_actions
from engine.games.anno1503.expansion.data import TILE_BACKS
from engine.games.anno1503.expansion.hooks import EXPANSION_RULES
from engine.games.anno1503.variant import BASE_GAME
from engine.rng import Rng, mix_seed

from . import support

GAME = engine.get_game("anno1503")
OPTIONS = {"expansion": "pirates_aristocrats"}
LEVELS = ("easy", "medium", "hard")
# A fixed, small search under generous safety caps: the choice depends
# on the seed alone (see test_anno1503_ai.py).
HARD_OPTIONS = {"wall_cap": 60.0, "simulations": 30}


def player(level):
    return get_player(level, **HARD_OPTIONS) if level == "hard" else get_player(level)


def positions(num_players, seed, count, every=5, steps=1500):
    """States with a real decision, reached by medium against random play
    (random play wanders into pirate squares and lairs: battles happen)."""
    medium, rand = get_player("medium"), get_player("random")
    return support.positions(
        GAME,
        num_players,
        OPTIONS,
        seed,
        count,
        every,
        steps,
        choosers=lambda seat: medium if seat % 2 == 0 else rand,
    )


def _battle_positions():
    """Pirate attacks: a ship next to a pirate square sails into it, with an
    aggressive card on top of the pirate deck (card 4 or 1) and gold to pay."""
    out = []
    for seed, card in ((3, 4), (6, 1)):
        state = next(s for s in positions(2, seed, count=40, every=1) if s.phase == "main")
        dump = GAME.dump(state)
        seat = dump["active"]
        dump["players"][seat]["ships"][0] = {"at": [1, 13], "ap": 3}
        dump["players"][seat]["gold"] = 10
        dump["pirate_deck"].remove(card)
        dump["pirate_deck"].append(card)  # the top is the last
        state, _ = GAME.apply(GAME.load(dump), seat, {"type": "move_ship", "ship": 0, "to": [1, 14]})
        assert state.choice["kind"] == "pirate_attack"
        out.append(state)
    return out


def test_sampled_expansion_states_match_the_view():
    checked = phases = 0
    seen_phases = set()
    for n, seed in ((2, 1), (3, 2), (4, 3)):
        for state in positions(n, seed, count=30, every=9):
            for seat in range(n):
                view = GAME.view(state, seat)
                world = sample_state(GAME, view, seat, Rng(mix_seed(seed, seat)))
                assert world is not None, view["phase"]
                assert GAME.view(world, seat) == view
                seen_phases.add(view["phase"])
                checked += 1
    phases = len(seen_phases)
    assert checked >= 150 and phases >= 3, (checked, seen_phases)


def test_sampled_battle_states_match_the_view():
    for state in _battle_positions():
        for seat in range(state.num_players):
            view = GAME.view(state, seat)
            assert view["expansion"]["combat"] is not None
            world = sample_state(GAME, view, seat, Rng(seat + 1))
            assert GAME.view(world, seat) == view


def hidden_variant(state, seat):
    """The same state with everything ``seat`` cannot see changed."""
    dump = GAME.dump(state)
    dump["rng"] ^= 0x5DEECE66D
    for key in ("reserve", "expansion_reserve", "pirate_deck", "aristocrat_deck", "aristocrat_discard"):
        dump[key] = list(reversed(dump[key]))
    others = [p for i, p in enumerate(dump["players"]) if i != seat]
    support.swap_a_card_between_hands([p["hand"] for p in others])
    _swap_aristocrat_cards(dump, others)
    _swap_unseen_tiles(dump, seat)
    return GAME.load(dump)


def _swap_aristocrat_cards(dump, others):
    """An opponent's aristocrat card trades places with a different one in the deck."""
    deck = dump["aristocrat_deck"]
    for p in others:
        cards = p["aristocrat"]["cards"]
        for i, card in enumerate(cards):
            for j, other in enumerate(deck):
                if other != card:
                    cards[i], deck[j] = other, card
                    return


def _swap_unseen_tiles(dump, seat):
    by_back = {}
    for key, tile in dump["spaces"].items():
        if tile is not None and seat not in dump["seen"].get(key, []):
            board = int(key.split(",")[1]) >= 12
            by_back.setdefault((board, TILE_BACKS[tile]), []).append(key)
    for keys in by_back.values():
        if len(keys) >= 2:
            a, b = keys[0], keys[1]
            dump["spaces"][a], dump["spaces"][b] = dump["spaces"][b], dump["spaces"][a]


@pytest.mark.parametrize("level", LEVELS)
def test_no_peeking_at_hidden_expansion_information(level):
    p = player(level)
    states = positions(2, seed=8, count=4, every=23) + positions(4, seed=9, count=3, every=31)
    states += _battle_positions()[:1]
    for state in states:
        support.assert_blind_to_hidden(GAME, p, state, hidden_variant(state, GAME.to_act(state)[0]), seed=5)
    assert len(states) >= 6


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_and_seed_give_the_same_expansion_choice(level):
    for state in positions(3, seed=4, count=3, every=37):
        seat = GAME.to_act(state)[0]
        view, actions = GAME.view(state, seat), GAME.legal_actions(state, seat)
        first = player(level).choose(GAME, seat, view, actions, seed=77)
        assert first in actions
        assert player(level).choose(GAME, seat, view, actions, seed=77) == first


def _with_cannons(state, seat, cannons, strength):
    dump = GAME.dump(state)
    dump["players"][seat]["aristocrat"]["cannons"] = cannons
    dump["combat"]["strength"] = strength
    return GAME.load(dump)


def test_pirates_are_fought_when_strong_and_paid_off_when_weak():
    state = _battle_positions()[0]
    seat = GAME.to_act(state)[0]
    actions = GAME.legal_actions(state, seat)
    assert {a["option"] for a in actions} == {"pay", "fight"}
    medium = get_player("medium")
    for cannons, strength, answer in ((6, 0, "fight"), (0, 8, "pay")):
        world = _with_cannons(state, seat, cannons, strength)
        choice = medium.choose(GAME, seat, GAME.view(world, seat), actions, seed=3)
        assert choice["option"] == answer, (cannons, strength)


def test_expansion_actions_are_scored_by_their_value():
    """In some position the best action is an expansion one (manor, cannon,
    aristocrat building...): the policy does not treat them as neutral."""
    expansion_types = set(EXPANSION_RULES.decision_types["main"]) - set(BASE_GAME.decision_types["main"])
    picked = set()
    for state in positions(2, seed=5, count=80, every=3):
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        scored = score_actions(GAME, state, seat, actions)
        best = actions[max(scored, key=lambda si: (si[0], -si[1]))[1]]
        picked.add(best["type"])
    assert picked & expansion_types, picked
