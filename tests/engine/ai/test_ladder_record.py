"""The ladder's record: a stopped run goes on where it stopped, and prints
what one uninterrupted run would."""

import json
import random
import statistics
import sys

import pytest

from tests.engine.ai.test_ai_ladder import ladder

record_mod = sys.modules["ladder_record"]
timing_mod = ladder.ladder_timing


def _timing(seed):
    rng = random.Random(seed)
    times = [rng.lognormvariate(-7, 1) for _ in range(rng.randrange(1, 60))]
    return times, [t * rng.random() for t in times], rng.randrange(5)


def test_the_histogram_keeps_the_median_to_within_one_percent_and_the_maxima_exactly():
    times, steady, singles = _timing(1)
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


def _tasks(n=4):
    return [("g", {"rules": "x"}, ("hard", "medium")[:: 1 if s % 2 else -1], s, {"time_budget": 0.1})
            for s in range(100, 100 + n)]


def _result(task):
    """A made-up result that depends on the task, with each level's timing."""
    seed = task[3]
    timing = {level: timing_mod.level_timing(*_timing(seed * 7 + k)) for k, level in enumerate(task[2])}
    return record_mod.Result(seed % 2, timing, seed + 50, [seed % 5, 3])


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
        timing_mod.merge_into(timing, r.timing)
    return [r._replace(timing=None) for r in results], timing


def test_a_stopped_run_plays_only_the_matches_its_record_lacks(tmp_path):
    path, tasks = tmp_path / "ladder.jsonl", _tasks()
    with pytest.raises(KeyboardInterrupt):
        record_mod.Record(path, "v1").block(tasks, _Player(stop_after=2))
    again = _Player()
    block = record_mod.Record(path, "v1").block(tasks, again)
    assert again.asked == [tasks[:2]]  # the last two had finished before the stop
    assert (block.results, block.timing) == _expected_block(tasks)


def test_a_finished_pairing_is_one_line_and_is_read_back_without_playing(tmp_path):
    path, tasks = tmp_path / "ladder.jsonl", _tasks()
    first = record_mod.Record(path, "v1").block(tasks, _Player())
    assert len(path.read_text().splitlines()) == 2  # the fingerprint and the pairing
    idle = _Player(stop_after=0)
    assert record_mod.Record(path, "v1").block(tasks, idle) == first
    assert idle.asked == []
    assert first.first <= first.last


def test_a_record_of_other_engine_code_starts_afresh(tmp_path):
    path, tasks = tmp_path / "ladder.jsonl", _tasks()
    record_mod.Record(path, "v1").block(tasks, _Player())
    fresh = record_mod.Record(path, "v2")
    assert fresh.started_afresh
    again = _Player()
    fresh.block(tasks, again)
    assert again.asked == [tasks]
    assert json.loads(path.read_text().splitlines()[0]) == {"engine": "v2"}


def test_a_line_cut_short_by_a_stopped_run_is_skipped(tmp_path):
    path, tasks = tmp_path / "ladder.jsonl", _tasks()
    with pytest.raises(KeyboardInterrupt):
        record_mod.Record(path, "v1").block(tasks, _Player(stop_after=1))
    with path.open("a") as f:
        f.write('{"match": "[\\"g\\", {')
    again = _Player()
    record_mod.Record(path, "v1").block(tasks, again)
    assert again.asked == [tasks[:3]]


def test_the_fingerprint_follows_every_engine_file_and_the_settings(tmp_path):
    (tmp_path / "engine" / "__pycache__").mkdir(parents=True)
    rules = tmp_path / "engine" / "rules.json"
    rules.write_text("{}")
    base = record_mod.engine_fingerprint(tmp_path, {"max_actions": 5})
    (tmp_path / "engine" / "__pycache__" / "rules.pyc").write_bytes(b"compiled")
    assert record_mod.engine_fingerprint(tmp_path, {"max_actions": 5}) == base
    assert record_mod.engine_fingerprint(tmp_path, {"max_actions": 6}) != base
    rules.write_text('{"x": 1}')
    assert record_mod.engine_fingerprint(tmp_path, {"max_actions": 5}) != base


def test_the_ladder_run_again_on_its_record_prints_the_same_table_without_playing(tmp_path, capsys, monkeypatch):
    argv = ["--variants", "anno1452,basic,ottokar_a", "--pairings", "easy-random", "--no-field",
            "--matches", "2", "--jobs", "1", "--record", str(tmp_path / "ladder.jsonl")]
    monkeypatch.setitem(sys.modules, "ai_ladder", ladder)  # the pool's worker finds play_indexed by name
    ladder.main(argv)
    first = capsys.readouterr().out.splitlines()
    monkeypatch.setattr(ladder, "play_indexed", None)  # nothing may be played now
    ladder.main(argv)
    second = capsys.readouterr().out.splitlines()
    assert "easy wins" in first[1] and "played 20" in first[1]
    assert first[:-1] == second[:-1]  # all but the total time
