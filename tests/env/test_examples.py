"""examples/env/random_loop.py runs, and its episodes agree with the engine's replay."""

import re

from examples.env import random_loop


def test_random_loop_plays_episodes_to_the_end(capsys):
    random_loop.main(["anno1452-basic-ottokar_a-2p", "--episodes", "2", "--seed", "3"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    for episode, line in enumerate(lines):
        assert re.match(
            rf"episode {episode} seed {3 + episode}: \d+ actions, rewards .*, outcome \[\d\]$", line
        )


def test_random_loop_truncates_long_matches(capsys):
    random_loop.main(["anno1503-pa-2p", "--max-steps", "50"])
    assert capsys.readouterr().out.startswith("episode 0 seed 0: 50 actions")
