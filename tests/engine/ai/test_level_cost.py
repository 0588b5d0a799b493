"""The level-cost bench times the same decisions in two trees and compares
what they chose."""

import subprocess
import sys
from pathlib import Path

_SCRIPT = Path(__file__).resolve().parents[3] / "bench" / "level_cost.py"


def test_the_bench_times_this_tree_against_a_revision_and_finds_the_same_choices():
    out = subprocess.run(
        [sys.executable, str(_SCRIPT), "--against", "HEAD", "--options", "scenario=ottokar_a", "--players", "2",
         "--matches", "1", "--heaviest", "3", "--repeats", "1", "--rounds", "2"],
        check=True, capture_output=True, text=True, cwd=_SCRIPT.parent.parent).stdout.splitlines()
    assert out[0].startswith("3 decisions, ")
    assert out[1].lstrip().startswith("this tree: sum") and out[2].lstrip().startswith("HEAD: sum")
    assert out[3].startswith("ratio this tree / HEAD: sum ")
    assert out[4] == "same actions chosen in every tree and round: yes"
