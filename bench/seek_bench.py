"""Seeks paired per second with 1,000 waiting (docs/matchmaking.md).

Each round, on a private redis-server: 1,000 seeks enter one pool (ratings
drawn around the default, N(25, 5); player counts [2], [2, 3], [3, 4] or
[2, 3, 4]), then pairing waves run back to back, each at the next wave's
time (``SEEK_WAVE_S`` later: the range widens as it would), until every
seeker that can be seated is. A wave is the real one (service/meet/waves.py):
read the pool, group, claim each table in its Lua script, create each match
(engine set-up, commit, account events). Reported per round: seeks paired
per second of wave time, the first wave's time with 1,000 waiting (and the
grouping's share of it), the waves it took and the mean rating spread
(max - min mu) of the tables; then the mean over the rounds with a 95%
Student's t interval.

    .venv/bin/python -m bench.seek_bench [--seeks 1000] [--rounds 5]
"""

import argparse
import random
import statistics
import time

import redis

from launcher.redis_process import RedisProcess
from service.meet import pairing, waves
from service.runtime.config import load_config
from service.runtime.services import Services
from service.storage import meet as stored

from .stats import mean_interval

POOL = "anno1452-basic"
COUNTS = ([2], [2, 3], [3, 4], [2, 3, 4])


def fill(services, count, now_ms, rng):
    for i in range(count):
        doc = {
            "id": f"s{i:05d}",
            "aid": f"bench{i:05d}",
            "name": f"bench{i:05d}",
            "account_kind": "bot",
            "pool": POOL,
            "counts": rng.choice(COUNTS),
            "rated": True,
            "rating_min": None,
            "rating_max": None,
            "ai_level": None,
            "ai_after_ms": None,
            "created_ms": now_ms,
            "mu": rng.gauss(25.0, 5.0),
            "sigma": 8.333,
        }
        assert stored.add_seek(services.redis, POOL, doc, now_ms, 10**9)[0] == "OK"


def one_round(services, count, seed):
    services.redis.flushdb()
    rng = random.Random(seed)
    now = int(time.time() * 1000)
    fill(services, count, now, rng)
    docs, _ = stored.waiting_seeks(services.redis, POOL)
    started = time.perf_counter()
    pairing.group([waves._seeker(d) for d in docs.values()], now, waves.widening(services.config))
    group_s = time.perf_counter() - started
    wave_ms = int(services.config["SEEK_WAVE_S"] * 1000)
    paired, spreads, spent, first_s, waves_run = 0, [], 0.0, None, 0
    for step in range(60):
        started = time.perf_counter()
        result = waves.run_wave(services, POOL, now_ms=now + step * wave_ms)
        elapsed = time.perf_counter() - started
        first_s = elapsed if first_s is None else first_s
        spent += elapsed
        waves_run += 1
        paired += sum(len(t.seekers) for t in result.tables)
        spreads += [t.spread for t in result.tables]
        if services.redis.zcard(stored.pool_keys(POOL)[0]) <= 1:
            break
    return {
        "paired": paired,
        "per_s": paired / spent,
        "first_wave_s": first_s,
        "group_s": group_s,
        "waves": waves_run,
        "spread": statistics.fmean(spreads),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeks", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with RedisProcess() as server:
        config = load_config({"REDIS_URL": server.url, "METRICS": 0})
        services = Services(config, worker=True)
        try:
            rows = []
            for r in range(args.rounds):
                row = one_round(services, args.seeks, seed=r)
                rows.append(row)
                print(
                    f"round {r + 1}: {row['paired']} of {args.seeks} paired in {row['waves']} waves, "
                    f"{row['per_s']:.0f} seeks/s; first wave {row['first_wave_s'] * 1000:.0f} ms "
                    f"(grouping {row['group_s'] * 1000:.0f} ms); mean table spread {row['spread']:.2f} mu"
                )
        finally:
            services.close()
            redis.Redis.from_url(server.url).flushdb()
    for key, label, scale, unit in (
        ("per_s", "seeks paired per second of wave time", 1, ""),
        ("first_wave_s", "first wave with all waiting", 1000, " ms"),
        ("group_s", "grouping alone", 1000, " ms"),
        ("spread", "mean table spread (mu)", 1, ""),
    ):
        mean, _, high = mean_interval([row[key] * scale for row in rows])
        half = high - mean
        print(f"{label}: {mean:.2f}{unit} ± {half:.2f} (95% t interval, {len(rows)} rounds)")


if __name__ == "__main__":
    main()
