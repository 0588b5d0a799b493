"""The ladder bench's pieces: Wilson intervals and one cheap match."""

import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[3] / "bench" / "ai_ladder.py"
_SPEC = importlib.util.spec_from_file_location("ai_ladder", _PATH)
ladder = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(ladder)


def test_wilson_interval_brackets_the_rate_and_narrows_with_more_matches():
    low, high = ladder.wilson(60, 100)
    assert low < 0.6 < high
    assert abs(low - 0.502) < 0.005 and abs(high - 0.691) < 0.005  # textbook values
    low2, high2 = ladder.wilson(600, 1000)
    assert high2 - low2 < high - low
    assert ladder.wilson(0, 0) == (0.0, 1.0)


def test_one_match_reports_a_winner_the_timings_of_each_level_and_the_scores():
    winner, timing, length, scores = ladder.play_one(("anno1503", {}, ("medium", "random"), 3, {"time_budget": 0.05}))
    assert winner in (0, 1)
    assert len(scores) == 2 and scores[winner] == max(scores)
    assert set(timing) == {"medium", "random"}
    medium = timing["medium"]
    assert medium.n == sum(medium.hist.values()) > 0 and medium.singles >= 0
    assert 0 < medium.steady_max <= medium.max
    assert 0 < length < ladder.MAX_ACTIONS


def test_the_score_margin_is_the_hero_against_the_mean_of_the_other_seats():
    assert ladder.score_margin(("medium", "hard", "medium"), [10, 16, 4], "hard") == 9
    assert ladder.score_margin(("medium", "easy"), [7, 12], "medium") == -5
    tasks = [("g", {}, ("hard", "medium"), 1, {}), ("g", {}, ("medium", "hard"), 2, {}),
             ("g", {}, ("hard", "medium"), 3, {})]
    results = [ladder.Result(0, {}, 10, [20, 10]), ladder.Result(0, {}, 10, [14, 10]),
               ladder.Result(None, {}, 10, None)]
    # Margins +10 and -4; the unfinished match has no scores and is left out.
    assert ladder.margin_summary(tasks, results, "hard") == "score margin +3.0 ± 13.7"
    assert ladder.margin_summary(tasks[2:], results[2:], "hard") == "score margin n/a"


def test_variants_are_selected_by_every_word_of_the_filter():
    args = ladder.argparse.Namespace(variants="anno1452,expert")
    labels = [v[4] for v in ladder.selected_variants(args)]
    assert len(labels) == 3
    assert all("anno1452" in label and "rules=expert" in label for label in labels)
    everything = list(ladder.selected_variants(ladder.argparse.Namespace(variants="")))
    assert len(everything) == len(ladder.VARIANTS)


def test_anno1452_duels_are_in_the_ottokar_scenarios_only():
    for game_id, options, duel, largest in ladder.VARIANTS:
        if game_id == "anno1452":
            assert duel == (options["scenario"] != "standard")
            assert largest == (4 if options["scenario"] == "standard" else 3)


def test_the_base_game_can_be_selected_without_the_expansion():
    args = ladder.argparse.Namespace(variants="anno1503,expansion=none")
    labels = [v[4] for v in ladder.selected_variants(args)]
    assert labels == ["anno1503 expansion=none"]


def test_hard_is_given_the_budget_and_only_an_explicit_candidate_count():
    parse = ladder.arguments()
    assert ladder.hard_player_options(parse.parse_args(["--hard-budget", "0.2"])) == {"time_budget": 0.2}
    options = ladder.hard_player_options(parse.parse_args(["--hard-candidates", "8"]))
    assert options == {"time_budget": 1.0, "candidates": 8}
    player = ladder.TimedPlayer("hard", options).player.for_game("anno1452")
    assert (player.time_budget, player.candidates) == (1.0, 8)


class _Stalled:
    """A player whose first decision is charged a stall by a fake clock."""

    def __init__(self, clock, answers):
        self.clock, self.answers, self.calls = clock, list(answers), 0

    def choose(self, game, seat, view, actions, seed=0):
        self.clock.now += 0.030 if self.calls == 0 else 0.002
        self.calls += 1
        return self.answers.pop(0)


class _Clock:
    now = 0.0

    def perf_counter(self):
        return self.now


def _timed_player(monkeypatch, level, answers):
    clock = _Clock()
    monkeypatch.setattr(ladder, "time", clock)
    timed = ladder.TimedPlayer("random", {})
    timed.level = level
    timed.player = _Stalled(clock, answers)
    return timed


def test_a_slow_decision_is_timed_again_and_its_fastest_run_is_its_steady_time(monkeypatch):
    timed = _timed_player(monkeypatch, "medium", ["a"] * 6)
    assert timed.choose(None, 0, {}, ["a", "b"]) == "a"
    assert timed.times == [0.030]
    assert abs(timed.steady[0] - 0.002) < 1e-12  # 5 more runs of 2 ms each
    assert timed.player.answers == []


def test_hard_is_not_timed_again_and_a_changed_choice_is_an_error(monkeypatch):
    hard = _timed_player(monkeypatch, "hard", ["a"] * 6)
    hard.choose(None, 0, {}, ["a", "b"])
    assert hard.steady == hard.times == [0.030] and len(hard.player.answers) == 5
    fickle = _timed_player(monkeypatch, "medium", ["a", "a", "b", "a", "a", "a"])
    with pytest.raises(AssertionError, match="chose differently"):
        fickle.choose(None, 0, {}, ["a", "b"])


_SLOW_PATH = _PATH.parent / "ladder_slow.py"
_SLOW_SPEC = importlib.util.spec_from_file_location("ladder_slow", _SLOW_PATH)
slow = importlib.util.module_from_spec(_SLOW_SPEC)
_SLOW_SPEC.loader.exec_module(slow)


def _slow_log(monkeypatch, over, answers):
    clock = _Clock()
    monkeypatch.setattr(slow.ai_ladder, "time", clock)
    log = slow.SlowLog("random", {}, over)
    log.level = "medium"
    log.player = _Stalled(clock, answers)
    return log


def test_the_slow_log_notes_what_was_decided_when_the_steady_time_is_over_its_threshold(monkeypatch):
    offer, done = {"type": "draft_offer"}, {"type": "end_trading"}
    view = {"decision": {"kind": "trade"}}
    log = _slow_log(monkeypatch, 0.001, [offer] * 6)
    log.choose(None, 1, view, [offer, done], seed=7)
    log.choose(None, 1, view, [done], seed=8)  # one legal action: not timed, not noted
    assert log.slow == [{"decision_seed": 7, "seat": 1, "raw_ms": 30.0, "steady_ms": 2.0, "decision": "trade",
                         "legal_actions": {"draft_offer": 1, "end_trading": 1}}]
    # A stall alone is not slowness: the re-timed 2 ms are under a 5 ms threshold.
    quick = _slow_log(monkeypatch, 0.005, [offer] * 6)
    quick.choose(None, 1, view, [offer, done], seed=7)
    assert quick.slow == []


def test_the_slow_replay_plays_the_ladders_own_matches():
    args = slow.arguments().parse_args(["--variant", "anno1452 rules=expert scenario=ottokar_b",
                                        "--pairing", "hard-medium"])
    game_id, options, largest = slow.find_variant(args.variant)
    tasks = slow.pairing_tasks(args, game_id, options, largest)
    assert tasks == ladder.head_to_head(game_id, options, "hard", "medium", 200, {"time_budget": 1.0}, 20_001)
    args.pairing = "field"
    assert slow.pairing_tasks(args, game_id, options, largest)[0][2:4] == (("hard", "medium", "medium"), 90_001)
    with pytest.raises(SystemExit):
        slow.find_variant("anno1452 rules=expert")


def test_a_run_of_some_pairings_plays_the_same_matches_as_the_whole_ladder():
    whole = ladder.arguments().parse_args([])
    some = ladder.arguments().parse_args(["--pairings", "hard-medium"])
    assert ladder.selected_pairings(some) == [(2, "hard", "medium")]
    assert [k for k, _, _ in ladder.selected_pairings(whole)] == [0, 1, 2]
    game = ("anno1452", {"rules": "expert", "scenario": "ottokar_b"})
    (k, _, _), = ladder.selected_pairings(some)
    tasks = ladder.duel_tasks(some, *game, k)
    assert tasks == ladder.duel_tasks(whole, *game, 2)
    assert tasks[0][3] == 20_001 and tasks[0][2] == ("hard", "medium")
