"""The ladder's record: a stopped run goes on where it stopped, and prints
what one uninterrupted run would."""

import json
import random
import statistics

import pytest

from bench.ladder import matches
from bench.ladder import record as record_mod
from bench.ladder import timing as timing_mod


def _timing(seed):
    rng = random.Random(seed)
    times = [rng.lognormvariate(-7, 1) for _ in range(rng.randrange(1, 60))]
    return times, [t * rng.random() for t in times], rng.randrange(5)


def test_the_histogram_keeps_the_median_to_within_one_percent_and_the_maxima_exactly():
    times, _steady, singles = _timing(1)
    times += _timing(2)[0]  # an odd count
    times = times if len(times) % 2 else times[1:]
    summary = timing_mod.level_timing(times, times, singles)
    assert abs(timing_mod.median(summary) / statistics.median(times) - 1) <= 0.01
    assert summary.max == max(times) and summary.n == len(times)
    assert timing_mod.median(timing_mod.NO_TIMING) is None


def test_merged_timings_equal_the_timing_of_all_decisions_together():
    (t1, s1, n1), (t2, s2, n2) = _timing(3), _timing(4)
    merged = timing_mod.merged(timing_mod.level_timing(t1, s1, n1), timing_mod.level_timing(t2, s2, n2))
    assert merged == timing_mod.level_timing(t1 + t2, s1 + s2, n1 + n2)
    assert timing_mod.from_json(json.loads(json.dumps(timing_mod.to_json(merged)))) == merged


V1 = {"g": "v1", "h": "w1"}  # each game's fingerprint


def _tasks(n=4, game="g"):
    return [
        matches.task(game, {"rules": "x"}, ("hard", "medium")[:: 1 if s % 2 else -1], s, {"step_cap": 100})
        for s in range(100, 100 + n)
    ]


def _result(task):
    """A made-up result that depends on the task, with each level's timing."""
    seed = task["seed"]
    timing = {
        level: timing_mod.level_timing(*_timing(seed * 7 + k)) for k, level in enumerate(task["levels"])
    }
    return {"winner": seed % 2, "timing": timing, "length": seed + 50, "scores": [seed % 5, 3]}


class _Player:
    """``play_many`` for a record: plays tasks, last first, and can be made
    to stop after some of them, as a run stopped by the end of a session."""

    def __init__(self, stop_after=None):
        self.asked, self.stop_after = [], stop_after

    def __call__(self, todo):
        self.asked.append(list(todo))
        for played, index in enumerate(reversed(range(len(todo)))):
            if played == self.stop_after:
                raise KeyboardInterrupt
            yield index, _result(todo[index])


def _expected_block(tasks):
    results = [_result(t) for t in tasks]
    timing = {}
    for r in results:
        timing_mod.merge_into(timing, r["timing"])
    return [{**r, "timing": None} for r in results], timing


def test_a_stopped_run_plays_only_the_matches_its_record_lacks(tmp_path):
    path, tasks = tmp_path / "ladder.jsonl", _tasks()
    with pytest.raises(KeyboardInterrupt):
        record_mod.Record(path, V1).block(tasks, _Player(stop_after=2))
    again = _Player()
    block = record_mod.Record(path, V1).block(tasks, again)
    assert again.asked == [tasks[:2]]  # the last two had finished before the stop
    assert (block.results, block.timing) == _expected_block(tasks)


def test_a_finished_pairing_is_one_line_and_is_read_back_without_playing(tmp_path):
    path, tasks = tmp_path / "ladder.jsonl", _tasks()
    first = record_mod.Record(path, V1).block(tasks, _Player())
    assert len(path.read_text().splitlines()) == 2  # the fingerprints and the pairing
    idle = _Player(stop_after=0)
    assert record_mod.Record(path, V1).block(tasks, idle) == first
    assert idle.asked == []
    assert first.first <= first.last


def test_the_matches_of_a_game_whose_code_changed_are_played_again_and_no_others(tmp_path):
    path, changed, kept = tmp_path / "ladder.jsonl", _tasks(), _tasks(game="h")
    record = record_mod.Record(path, V1)
    record.block(changed, _Player())
    record.block(kept, _Player())
    with pytest.raises(KeyboardInterrupt):
        record.block(_tasks(n=6, game="g")[4:], _Player(stop_after=1))  # an unfinished pairing
    fresh = record_mod.Record(path, {**V1, "g": "v2"})
    assert fresh.dropped == 2  # g's pairing and g's finished match
    again, idle = _Player(), _Player(stop_after=0)
    fresh.block(changed, again)
    fresh.block(kept, idle)
    assert (again.asked, idle.asked) == ([changed], [])
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0] == {"engines": {"g": "v2", "h": "w1"}}
    assert sorted((line["game"], line["engine"]) for line in lines[1:]) == [("g", "v2"), ("h", "w1")]


def test_a_line_cut_short_by_a_stopped_run_is_skipped(tmp_path):
    path, tasks = tmp_path / "ladder.jsonl", _tasks()
    with pytest.raises(KeyboardInterrupt):
        record_mod.Record(path, V1).block(tasks, _Player(stop_after=1))
    with path.open("a") as f:
        f.write('{"match": "{\\"game\\": \\"g\\", {')
    again = _Player()
    record_mod.Record(path, V1).block(tasks, again)
    assert again.asked == [tasks[:3]]


def _write(root, relative, text):
    path = root / "engine" / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_a_games_fingerprint_follows_its_own_and_the_shared_engine_files_and_the_settings(tmp_path):
    for relative in (
        "core.py",
        "ai/search.py",
        "games/g/rules.json",
        "ai/g/policy.py",
        "games/h/rules.json",
        "ai/h/policy.py",
    ):
        _write(tmp_path, relative, "{}")

    def fingerprints(max_actions=5):
        return [record_mod.engine_fingerprint(tmp_path, {"max_actions": max_actions}, game) for game in "gh"]

    base = fingerprints()
    assert base[0] != base[1]
    (tmp_path / "engine" / "__pycache__").mkdir()
    (tmp_path / "engine" / "__pycache__" / "core.pyc").write_bytes(b"compiled")
    assert fingerprints() == base
    assert fingerprints(max_actions=6)[0] != base[0]
    _write(tmp_path, "ai/h/policy.py", '{"x": 1}')
    changed_h = fingerprints()
    assert changed_h[0] == base[0] and changed_h[1] != base[1]
    _write(tmp_path, "games/g/rules.json", '{"x": 1}')
    changed_g = fingerprints()
    assert changed_g[0] != base[0] and changed_g[1] == changed_h[1]
    _write(tmp_path, "ai/search.py", '{"x": 1}')
    assert all(new != old for new, old in zip(fingerprints(), changed_g))
