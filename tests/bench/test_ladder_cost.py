"""``python -m bench.ladder cost`` times the same decisions in this tree and
at a git revision, each in a child process, and compares what they chose."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_bench_times_this_tree_against_a_revision_and_finds_the_same_choices():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.ladder",
            "cost",
            "--against",
            "HEAD",
            "--options",
            "scenario=ottokar_a",
            "--players",
            "2",
            "--matches",
            "1",
            "--heaviest",
            "3",
            "--repeats",
            "1",
            "--rounds",
            "2",
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    ).stdout.splitlines()
    assert out[0].startswith("3 decisions, ")
    assert out[1].lstrip().startswith("this tree: sum") and out[2].lstrip().startswith("HEAD: sum")
    assert " p95 " in out[1]
    assert out[3].startswith("ratio this tree / HEAD: sum ")
    assert out[4] == "same actions chosen in every tree and round: yes"
