"""``python -m bench.rating_bench``, tiny: a real redis-server, 60 rated accounts."""

from bench import rating_bench


def test_a_tiny_run_reports_every_cost_with_an_interval(capsys):
    out = rating_bench.run(rating_bench.parse_args(["--accounts", "60", "--rounds", "2", "--per-round", "5"]))
    printed = capsys.readouterr().out
    assert "rating update, 4 seats" in printed and "leaderboard page of 50" in printed
    assert out["boards"]["all"] == 60 and out["boards"]["bot:established"] > 0
    for key in ("update_2", "update_4", "openskill_2", "openskill_4", "page_all", "page_bots_established"):
        for what in ("wall", "cpu", "redis_cpu"):
            mean, low, high = out[key][what]
            assert 0 <= mean < 1000 and low <= mean <= high, (key, what)
        assert out[key]["wall"][0] > 0
    assert out["openskill_4"]["redis_cpu"][0] < out["update_4"]["redis_cpu"][0]  # no Redis in OpenSkill
    assert out["update_4"]["redis_cpu"][0] > 0
