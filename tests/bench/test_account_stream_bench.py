"""``python -m bench.account_stream_bench``, tiny: a real redis-server and
gunicorn, 20 accounts with a stream each, a few seconds of moves."""

from bench import account_stream_bench


def test_a_tiny_run_reports_sane_stream_costs(capsys, monkeypatch):
    # The server's environment is this process's: pools of 4 per worker make
    # "not one Redis connection per stream" visible with only 20 streams.
    monkeypatch.setenv("REDIS_MAX_CONNECTIONS", "4")
    args = account_stream_bench.parse_args(
        ["--accounts", "20", "--live-s", "3", "--move-rate", "40", "--keepalive-s", "1"]
    )
    out = account_stream_bench.run(args)
    printed = capsys.readouterr().out
    for label in ("account streams open:", "POST-to-your_turn latency:", "memory per open stream:"):
        assert label in printed
    assert out["streams"] == 20 and out["failed"] == 0 and out["ended"] == 0
    assert out["moves"] > 0 and 0 < out["handoffs"] <= out["moves"]
    # Every hand-over's your_turn reached the other account's stream, and was timed.
    assert out["timed"] == out["handoffs"] and out["delivered"] >= out["timed"]
    assert out["events_per_s"] > 0
    assert 0 < out["p50_ms"] <= out["p99_ms"] < 5000
    assert -1024 < out["per_stream_kb"] < 1024
    before, idle, live = out["clients"]
    # At most the 2 workers' pools (4 each) and a hub subscription or two each.
    assert idle <= before + 12 and live <= before + 12
