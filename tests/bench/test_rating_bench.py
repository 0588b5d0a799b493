"""``python -m bench.rating_bench``, tiny: a real redis-server, 60 rated accounts."""

from bench import rating_bench


def test_a_tiny_run_reports_every_cost_with_an_interval(capsys):
    out = rating_bench.run(rating_bench.parse_args(["--accounts", "60", "--rounds", "2", "--per-round", "5"]))
    printed = capsys.readouterr().out
    assert "rating update, 4 seats" in printed and "leaderboard page of 50" in printed
    assert out["boards"]["all"] == 60 and out["boards"]["bot:established"] > 0
    for key in ("update_2", "update_4", "openskill_2", "openskill_4", "page_all", "page_bots_established"):
        mean, low, high = out[key]
        assert 0 < mean < 1000 and low <= mean <= high, key
