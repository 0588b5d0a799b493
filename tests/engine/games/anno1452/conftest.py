import pytest

from engine.games.anno1452.state import use_dice

from .anno1452_helpers import ScriptedDice


@pytest.fixture
def script_dice():
    """``script_dice(dice)``: the rules' next die rolls are exactly ``dice``
    (and shuffles keep their order); the seeded generator is back after the test."""
    made_by = []

    def script(dice):
        ScriptedDice.script = list(dice)
        made_by.append(use_dice(ScriptedDice))

    yield script
    if made_by:
        use_dice(made_by[0])
