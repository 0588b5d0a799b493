"""How the Anno 1452 rules are put together: the tables built in one place,
the hooks named after their action, the printed amounts read from the data."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from engine.games.anno1452 import actions_special, battle, data, evaluation, flow, trade
from engine.games.anno1452.data import AR_TEXTS, CARDS, ER_TEXTS

from .anno1452_helpers import GAME

# The sources (data.py is never compiled: flow's __file__ may be its build, engine/native.py).
RULES = Path(data.__file__).parent


def test_the_step_table_is_complete_without_importing_the_game():
    # Importing flow alone (not game.py) must give every step: nothing is
    # registered as a side effect of another module's import.
    code = (
        "from engine.games.anno1452 import flow, battle, evaluation, trade\n"
        "owned = {**flow._TIME_TABLE_STEPS, **evaluation.STEPS, **battle.STEPS, **trade.STEPS}\n"
        "assert set(flow.STEPS) == set(owned), sorted(set(owned) ^ set(flow.STEPS))\n"
        "assert {'trade', 'offer_reply'} <= set(flow.DECISION_TYPES)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[4])


def test_every_owned_step_runs_the_owners_function():
    for table in (evaluation.STEPS, battle.STEPS, trade.STEPS):
        for name, run in table.items():
            assert flow.STEPS[name] is run


def test_joining_refuses_a_step_defined_twice():
    with pytest.raises(ValueError, match="'battle' is defined twice"):
        flow.joined("step", battle.STEPS, {"battle": lambda d, events: None})
    assert flow.joined("step", {"a": 1}, {"b": 2}) == {"a": 1, "b": 2}


def _hook_names(module_path):
    tree = ast.parse(module_path.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_hooks_are_named_after_their_action():
    for name, spec in GAME.action_specs.items():
        for hook, role in ((spec.candidates, "candidates"), (spec.check, "check"), (spec.perform, "perform")):
            # make_spec wraps each hook; the wrapped function is its closure's only cell.
            inner = hook.__closure__[0].cell_contents
            # A compiled lambda (engine/native.py) is an object with no __name__.
            inner_name = getattr(inner, "__name__", "<lambda>")
            if inner_name in ("<lambda>", "always_allowed"):
                continue  # bare_action / always_allowed: shared, not per action
            assert inner_name == f"_{name}_{role}", (name, role, inner_name)


def test_no_module_uses_the_old_hook_names():
    for path in RULES.glob("*.py"):
        old = [fn for fn in _hook_names(path) if fn.startswith(("_cand_", "_do_"))]
        assert old == [], (path.name, old)


def test_the_special_action_amounts_belong_to_real_effects():
    specials = {card["effect"] for card in CARDS if card["kind"] == "special"}
    assert set(AR_TEXTS) <= specials
    windows = {effect for effects in evaluation.WINDOW_CARDS.values() for effect in effects}
    assert set(ER_TEXTS) <= windows


def test_the_named_amounts_come_from_the_data_files():
    assert AR_TEXTS["soeldner"]["mercenaries"] == actions_special.MERCENARIES
    assert AR_TEXTS["stadtrecht"]["cost"] == actions_special.STADTRECHT_COST
    assert data.TRADE_LIMITS["max_offers"] == trade.offers.MAX_OFFERS
    assert data.COMPONENTS["start"]["gold"] == data.START_GOLD


def test_the_rules_hold_no_amount_of_the_special_action_cards():
    # The amounts on the cards live in data/special_actions.json, the battle
    # dice and Battle cards in data/battle.json; none of these rule modules
    # multiplies or compares an amount with a literal any more.
    for name in ("actions_special.py", "actions_battle.py", "offers.py", "battle.py"):
        tree = ast.parse((RULES / name).read_text(encoding="utf-8"))
        indexes = {id(node.slice) for node in ast.walk(tree) if isinstance(node, ast.Subscript)}
        literals = [
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and type(node.value) is int
            and node.value > 1
            and id(node) not in indexes
        ]
        assert literals == [], (name, literals)
