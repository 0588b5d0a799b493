"""The ladder bench (``python -m bench.ladder``): its statistics, its
players' timing, and a tiny ladder run end to end with JSON output."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.ladder import __main__ as cli
from bench.ladder import matches, run, slow, timing

ROOT = Path(__file__).resolve().parents[2]


def test_wilson_interval_brackets_the_rate_and_narrows_with_more_matches():
    low, high = run.wilson(60, 100)
    assert low < 0.6 < high
    assert abs(low - 0.502) < 0.005 and abs(high - 0.691) < 0.005  # textbook values
    low2, high2 = run.wilson(600, 1000)
    assert high2 - low2 < high - low
    assert run.wilson(0, 0) == (0.0, 1.0)


def test_one_match_reports_a_winner_the_timings_of_each_level_and_the_scores():
    result = matches.play_one(matches.task("anno1503", {}, ("medium", "random"), 3, {"step_cap": 3000}))
    winner, scores = result["winner"], result["scores"]
    assert winner in (0, 1)
    assert len(scores) == 2 and scores[winner] == max(scores)
    assert set(result["timing"]) == {"medium", "random"}
    medium = result["timing"]["medium"]
    assert medium.n == sum(medium.hist.values()) > 0 and medium.singles >= 0
    assert 0 < medium.steady_max <= medium.max
    assert 0 < result["length"] < matches.MAX_ACTIONS
    assert matches.result_from_json(json.loads(json.dumps(matches.result_to_json(result)))) == result


def test_the_score_margin_is_the_hero_against_the_mean_of_the_other_seats():
    assert run.score_margin(("medium", "hard", "medium"), [10, 16, 4], "hard") == 9
    assert run.score_margin(("medium", "easy"), [7, 12], "medium") == -5
    tasks = [
        matches.task("g", {}, levels, seed, {})
        for levels, seed in ((("hard", "medium"), 1), (("medium", "hard"), 2), (("hard", "medium"), 3))
    ]
    results = [
        {"winner": 0, "length": 10, "scores": [20, 10]},
        {"winner": 0, "length": 10, "scores": [14, 10]},
        {"winner": None, "length": 10, "scores": None},
    ]
    # Margins +10 and -4; the unfinished match has no scores and is left out.
    assert run.margin_summary(tasks, results, "hard") == "score margin +3.0 ± 13.7"
    assert run.margin_summary(tasks[2:], results[2:], "hard") == "score margin n/a"


def _args(*argv):
    return cli.arguments().parse_args(["run", *argv])


def test_variants_are_selected_by_every_word_of_the_filter():
    labels = [v[4] for v in run.selected_variants(_args("--variants", "anno1452,expert"))]
    assert len(labels) == 3
    assert all("anno1452" in label and "rules=expert" in label for label in labels)
    assert len(list(run.selected_variants(_args()))) == len(matches.VARIANTS)
    assert [v[4] for v in run.selected_variants(_args("--variants", "anno1503,expansion=none"))] == [
        "anno1503 expansion=none"
    ]


def test_anno1452_duels_are_in_the_ottokar_scenarios_only():
    for game_id, options, duel, largest in matches.VARIANTS:
        if game_id == "anno1452":
            assert duel == (options["scenario"] != "standard")
            assert largest == (4 if options["scenario"] == "standard" else 3)


def test_hard_is_given_the_cap_and_only_an_explicit_count_of_simulations_or_candidates():
    assert run.hard_player_options(_args("--hard-step-cap", "500")) == {"step_cap": 500}
    options = run.hard_player_options(
        _args("--hard-simulations", "40", "--hard-candidates", "8", "--hard-wall-cap", "30")
    )
    assert options == {"wall_cap": 30.0, "simulations": 40, "candidates": 8}
    player = matches.TimedPlayer("hard", options).player.for_game("anno1452")
    assert (player.simulations_per_decision, player.step_cap, player.wall_cap, player.candidates) == (
        40,
        type(player).step_cap,
        30.0,
        8,
    )


class _Clock:
    now = 0.0

    def perf_counter(self):
        return self.now


class _Stalled:
    """A player whose first decision is charged a stall by a fake clock."""

    def __init__(self, clock, answers):
        self.clock, self.answers, self.calls = clock, list(answers), 0

    def choose(self, game, seat, view, actions, seed=0):
        self.clock.now += 0.030 if self.calls == 0 else 0.002
        self.calls += 1
        return self.answers.pop(0)


def _timed(monkeypatch, cls, level, answers, *extra):
    clock = _Clock()
    monkeypatch.setattr(matches, "time", clock)
    timed = cls("random", {}, *extra)
    timed.level = level
    timed.player = _Stalled(clock, answers)
    return timed


def test_a_slow_decision_is_timed_again_and_its_fastest_run_is_its_steady_time(monkeypatch):
    timed = _timed(monkeypatch, matches.TimedPlayer, "medium", ["a"] * 6)
    assert timed.choose(None, 0, {}, ["a", "b"]) == "a"
    assert timed.times == [0.030]
    assert abs(timed.steady[0] - 0.002) < 1e-12  # 5 more runs of 2 ms each
    assert timed.player.answers == []


def test_hard_is_not_timed_again_and_a_changed_choice_is_an_error(monkeypatch):
    hard = _timed(monkeypatch, matches.TimedPlayer, "hard", ["a"] * 6)
    hard.choose(None, 0, {}, ["a", "b"])
    assert hard.steady == hard.times == [0.030] and len(hard.player.answers) == 5
    fickle = _timed(monkeypatch, matches.TimedPlayer, "medium", ["a", "a", "b", "a", "a", "a"])
    with pytest.raises(AssertionError, match="chose differently"):
        fickle.choose(None, 0, {}, ["a", "b"])


def test_the_slow_log_notes_what_was_decided_when_the_steady_time_is_over_its_threshold(monkeypatch):
    offer, done = {"type": "draft_offer"}, {"type": "end_trading"}
    view = {"decision": {"kind": "trade"}}
    log = _timed(monkeypatch, slow.SlowLog, "medium", [offer] * 6, 0.001)
    log.choose(None, 1, view, [offer, done], seed=7)
    log.choose(None, 1, view, [done], seed=8)  # one legal action: not timed, not noted
    assert log.slow == [
        {
            "decision_seed": 7,
            "seat": 1,
            "raw_ms": 30.0,
            "steady_ms": 2.0,
            "decision": "trade",
            "legal_actions": {"draft_offer": 1, "end_trading": 1},
        }
    ]
    # A stall alone is not slowness: the re-timed 2 ms are under a 5 ms threshold.
    quick = _timed(monkeypatch, slow.SlowLog, "medium", [offer] * 6, 0.005)
    quick.choose(None, 1, view, [offer, done], seed=7)
    assert quick.slow == []


def test_the_slow_replay_and_a_filtered_run_play_the_ladders_own_matches():
    args = cli.arguments().parse_args(
        ["slow", "--variant", "anno1452 rules=expert scenario=ottokar_b", "--pairing", "hard-medium"]
    )
    game_id, options, largest = slow.find_variant(args.variant)
    tasks = slow.pairing_tasks(args, game_id, options, largest)
    assert tasks == matches.head_to_head(game_id, options, "hard", "medium", 200, {}, 20_001)
    assert tasks == run.duel_tasks(_args(), game_id, options, 2)
    assert run.selected_pairings(_args("--pairings", "hard-medium")) == [(2, "hard", "medium")]
    args.pairing = "field"
    first = slow.pairing_tasks(args, game_id, options, largest)[0]
    assert (first["levels"], first["seed"]) == (["hard", "medium", "medium"], 90_001)
    with pytest.raises(SystemExit):
        slow.find_variant("anno1452 rules=expert")


def test_quantiles_come_from_the_histogram_to_within_one_percent():
    times = [0.001 * k for k in range(1, 101)]
    summary = timing.level_timing(times, times, 0, searches=7, capped=1)
    assert abs(timing.quantile(summary, 0.95) / 0.095 - 1) <= 0.01
    assert abs(timing.median(summary) / 0.050 - 1) <= 0.01
    assert timing.from_json(json.loads(json.dumps(timing.to_json(summary)))) == summary
    assert timing.quantile(timing.NO_TIMING, 0.5) is None


TINY = [
    "run",
    "--variants",
    "anno1452,basic,ottokar_a",
    "--pairings",
    "easy-random",
    "--no-field",
    "--matches",
    "2",
    "--jobs",
    "2",
    "--json",
]


def test_a_tiny_ladder_prints_one_json_line_per_pairing_from_its_worker_processes():
    done = subprocess.run(
        [sys.executable, "-m", "bench.ladder", *TINY],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    (line,) = done.stdout.splitlines()
    summary = json.loads(line)
    assert (summary["variant"], summary["pairing"], summary["hero"]) == (
        "anno1452 rules=basic scenario=ottokar_a",
        "2p easy vs random",
        "easy",
    )
    assert summary["matches"] == 2 and 0 <= summary["wins"] <= 2
    assert summary["win_rate"] == summary["wins"] / 2
    low, high = summary["ci95"]
    assert (low, high) == pytest.approx(run.wilson(summary["wins"], 2))
    assert set(summary["timing"]) == {"easy", "random"}
    easy = summary["timing"]["easy"]
    assert easy["n"] > 0 and 0 < easy["median"] <= easy["p95"] <= easy["max"] * 1.02
    assert summary["unfinished"] == 0 and summary["median_length"] > 0


def test_the_ladder_run_again_on_its_record_prints_the_same_without_playing(tmp_path, monkeypatch):
    argv = [*TINY, "--jobs", "1", "--record", str(tmp_path / "ladder.jsonl")]
    first = io.StringIO()
    cli.main(argv, out=first)
    monkeypatch.setattr(run.MatchPool, "play_many", None)  # nothing may be played now
    second = io.StringIO()
    cli.main(argv, out=second)
    assert first.getvalue() == second.getvalue() != ""
    table = io.StringIO()
    cli.main([a for a in argv if a != "--json"], out=table)
    assert "easy wins" in table.getvalue().splitlines()[1]
