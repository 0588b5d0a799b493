"""``python -m bench.http_bench --against REV``: this checkout's service
against REV's, two real gunicorns in alternating rounds, reported as ratios
with a 95% t-interval over the rounds."""

import math
import statistics
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from bench import http_bench, http_compare
from bench.harness import unlimited_env

ROOT = Path(__file__).resolve().parents[2]


def _head():
    return subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()


def test_against_resolves_the_revision_and_refuses_what_does_not_go_with_it(capsys):
    args = http_bench.parse_args(["--against", "HEAD", "--rounds", "2"])
    assert (args.against, args.against_commit, args.trivial) == ("HEAD", _head(), False)
    for argv, message in (
        (["--against", "no-such-revision-here"], "not a commit of this repository"),
        (["--against", "HEAD", "--observability"], "does not go with --observability"),
        (["--against", "HEAD", "--rounds", "0"], "at least 1 round"),
        (["--trivial"], "--trivial and --floor go with --against"),
        (["--floor"], "--trivial and --floor go with --against"),
        (["--against", "HEAD", "--floor"], "--floor is measured against --trivial"),
    ):
        with pytest.raises(SystemExit) as exit_:
            http_bench.parse_args(argv)
        assert exit_.value.code == 2
        assert message in capsys.readouterr().err


def _t_interval(new, old):
    """Geometric mean of the per-round ratios and its 95% Student's t-interval
    (two rounds: 1 degree of freedom, t = 12.706), worked out here again."""
    logs = [math.log(n / o) for n, o in zip(new, old)]
    mean, half = statistics.fmean(logs), 12.706 * statistics.stdev(logs) / math.sqrt(len(logs))
    return [math.exp(mean), math.exp(mean - half), math.exp(mean + half)]


def test_a_short_run_against_head_serves_the_exported_tree_and_reports_ratios_over_rounds():
    command = [sys.executable, "-m", "bench.http_bench", "--against", "HEAD", "--json"]
    command += ["--duration", "1", "--rounds", "2", "--clients", "2", "--warmup", "0.5", "--workers", "1"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    result = orjson.loads(lines[-1])
    this, head = result["servers"]["this tree"], result["servers"]["HEAD"]
    assert list(result["servers"]) == ["this tree", "HEAD"]  # no trivial app unless asked
    # Each server imported its own tree's service: the old one from the
    # exported copy, which is gone after the run.
    assert Path(this["service_file"]) == ROOT / "service" / "__init__.py"
    exported = Path(head["service_file"])
    assert exported.name == "__init__.py" and not exported.is_relative_to(ROOT)
    assert exported.parent.parent.name.startswith("tabula-bench-against-") and not exported.exists()
    for row in (this, head):
        assert row["count"] > 0 and row["errors"] == 0 and len(row["round_rates"]) == 2
        assert row["cpu_ms"]["server"] > 0 and len(row["round_cpu_ms"]) == 2
    for key, measure in (("moves_per_s", "round_rates"), ("server_cpu_per_move", "round_cpu_ms")):
        assert result[key] == pytest.approx(
            _t_interval(this[measure], head[measure]), rel=0.01, abs=1e-3
        )  # rounded to 3 decimals
        low, high = result[key][1:]
        assert low <= result[key][0] <= high
    assert any(line.startswith("  moves/s ") for line in lines)
    assert any(line.startswith("  server CPU per move ") for line in lines)


def test_the_floor_is_the_echo_after_a_redis_round_trip_measured_beside_the_echo():
    command = [sys.executable, "-m", "bench.http_bench", "--against", "HEAD", "--trivial", "--floor"]
    command += ["--json", "--duration", "1", "--rounds", "2", "--clients", "2", "--warmup", "0.5"]
    done = subprocess.run(command + ["--workers", "1"], cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    servers = orjson.loads(done.stdout.splitlines()[-1])["servers"]
    assert list(servers) == ["this tree", "HEAD", http_compare.ECHO, http_compare.FLOOR]
    echo, floor = servers[http_compare.ECHO], servers[http_compare.FLOOR]
    for row in (echo, floor):
        assert row["count"] > 0 and row["errors"] == 0 and len(row["round_rates"]) == 2
    # No errors: each of the floor's answers carried the count Redis returned
    # (bench.move_clients.RedisEchoClient), and its rounds kept Redis busier.
    assert floor["cpu_ms"]["redis"] > echo["cpu_ms"]["redis"]
    low, high = floor["over_trivial"][1:]
    assert low <= floor["over_trivial"][0] <= high
    assert any(line.startswith(f"  {http_compare.FLOOR}") for line in done.stdout.splitlines())


def test_the_import_probe_tells_a_tree_without_the_service_from_one_with_it(tmp_path):
    # Without a service package of its own, the tree would serve this
    # checkout's (the editable install): the probe says so.
    files = http_compare.imported_files(tmp_path, unlimited_env(PYTHONPATH=str(tmp_path)))
    assert files == [ROOT / "service" / "__init__.py", ROOT / "engine" / "__init__.py"]
    assert not any(f.is_relative_to(tmp_path) for f in files)


def test_observability_reports_the_moves_time_in_the_app_from_the_request_log():
    """``--observability`` reads the "on" server's request log back: a move's
    time in the app is part of what its client waited (compared by medians:
    the log also holds the warm-up's moves, the clients' figures do not)."""
    command = [sys.executable, "-m", "bench.http_bench", "--observability", "--json"]
    command += ["--duration", "1", "--rounds", "2", "--clients", "2", "--warmup", "0.5", "--workers", "1"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    result = orjson.loads(done.stdout.splitlines()[-1])
    in_app, client = result["in_app_ms"], result["on"]["move"]
    assert 0 < in_app["p50"] <= client["p50_ms"] and in_app["p50"] <= in_app["p99"], (in_app, client)
    assert f"p99 {in_app['p99']:.2f} ms" in done.stdout


def test_logged_move_ms_keeps_accepted_moves_only(tmp_path):
    log = tmp_path / "requests.log"
    route = "/v1/matches/<match_id>/actions"
    entries = [
        {"method": "POST", "route": route, "status": 200, "duration_ms": 3.5},
        {"method": "POST", "route": route, "status": 409, "duration_ms": 9.0},
        {"method": "GET", "route": "/v1/matches/<match_id>", "status": 200, "duration_ms": 7.0},
        {"method": "POST", "route": route, "status": 200, "duration_ms": 1.25},
    ]
    log.write_bytes(b"".join(orjson.dumps({"event": "request", **e}) + b"\n" for e in entries))
    assert http_bench.logged_move_ms(log) == [1.25, 3.5]
