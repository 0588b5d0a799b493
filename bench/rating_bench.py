"""The cost of ratings (docs/ratings.md): one rating update, and one
leaderboard page, on a private redis-server.

- **Update**: ``apply_ratings`` of a finished rated match of 2 and of 4
  seats drawn from the rated accounts (read, OpenSkill in Python, the Lua
  script), end to end in this process; and the OpenSkill computation alone.
- **Leaderboard page**: ``GET /v1/leaderboards/{pool}`` through the app
  (Flask test client: route, Redis reads, serialization; no HTTP server),
  50 entries from a random page, with ``--accounts`` rated accounts
  (default 10,000), everyone, and bots only with provisional ones left out.

Each figure is the mean over ``--rounds`` rounds of ``--per-round`` calls,
with a 95 % Student's t-interval over the rounds' means: wall clock, the CPU of this
process, and the CPU of redis-server (INFO cpu), which a shared machine's
load moves much less than the wall clock.

    python -m bench.rating_bench [--accounts 10000] [--rounds 10] [--per-round 200]
"""

import argparse
import json
import os
import random
import time

from launcher.redis_process import RedisProcess
from service.http.app import create_app
from service.ratings import skill
from service.ratings.update import apply_ratings
from service.storage import accounts as stored_accounts

from .stats import mean_interval

POOL = "anno1452-basic"
SEED_SWEEPS = 12


def finished(match_id, accounts, rng):
    """A finished rated match document of ``accounts`` (``(aid, name, kind)``), random results."""
    seats = [
        {
            "seat": i,
            "kind": "human",
            "level": None,
            "account_id": aid,
            "account": {"name": name, "kind": kind},
            "resigned": False,
        }
        for i, (aid, name, kind) in enumerate(accounts)
    ]
    scores = {str(i): rng.randrange(40) for i in range(len(accounts))}
    best = max(scores.values())
    return {
        "id": match_id,
        "game": "anno1452",
        "options": {},
        "status": "finished",
        "version": 1,
        "to_act": [],
        "rated": True,
        "pool": POOL,
        "seats": seats,
        "result": {"winners": [int(s) for s, v in scores.items() if v == best], "scores": scores},
        "updated_at": "2026-11-29T00:00:00Z",
        "updated_ms": 0,
    }


def seed(services, count, rng):
    """``count`` accounts (a third bots), each rated in ``SEED_SWEEPS`` 4-seat
    matches (most past the provisional rule)."""
    accounts = [(f"b{n:07d}", f"bench{n}", "bot" if n % 3 == 0 else "human") for n in range(count)]
    pipe = services.redis.pipeline(transaction=False)
    for aid, name, kind in accounts:
        stored_accounts.write_account(
            pipe,
            {
                "id": aid,
                "name": name,
                "name_key": name,
                "kind": kind,
                "created_at": "2026-11-29T00:00:00Z",
                "status": "active",
                "app": "",
                "external_id": "",
            },
        )
    pipe.execute()
    order = list(range(count))
    for sweep in range(SEED_SWEEPS):
        rng.shuffle(order)
        for start in range(0, count - 3, 4):
            table = [accounts[i] for i in order[start : start + 4]]
            apply_ratings(services, finished(f"seed-{sweep}-{start}", table, rng))
    return accounts


def _cpu(redis_client):
    """CPU seconds so far of this process and of redis-server (``INFO cpu``:
    getrusage, microseconds; psutil's ticks are too coarse for a round)."""
    info = redis_client.info("cpu")
    return time.process_time(), float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def time_rounds(rounds, per_round, call, redis_client):
    """Per round: the mean wall ms of ``call(i)``, and its CPU ms in this
    process and in redis-server (after ``per_round`` // 10 calls of warm-up).
    The CPU figures move much less with a shared machine's load."""
    for i in range(max(1, per_round // 10)):
        call(-1 - i)
    wall, own, server = [], [], []
    for r in range(rounds):
        cpu_before, redis_before = _cpu(redis_client)
        started = time.perf_counter()
        for i in range(per_round):
            call(r * per_round + i)
        wall.append((time.perf_counter() - started) * 1000 / per_round)
        cpu_after, redis_after = _cpu(redis_client)
        own.append((cpu_after - cpu_before) * 1000 / per_round)
        server.append((redis_after - redis_before) * 1000 / per_round)
    return wall, own, server


def measured(rounds, per_round, call, redis_client):
    """``{"wall", "cpu", "redis_cpu"}``: each (mean, low, high) ms per call."""
    wall, own, server = time_rounds(rounds, per_round, call, redis_client)
    return {"wall": mean_interval(wall), "cpu": mean_interval(own), "redis_cpu": mean_interval(server)}


def run(args):
    rng = random.Random(args.seed)
    out = {}
    with RedisProcess() as server:
        app = create_app({"REDIS_URL": server.url, "RATE_LIMIT": 0, "CREATE_RATE_LIMIT": 0})
        services, client = app.extensions["tabula"], app.test_client()
        redis_client = services.redis
        started = time.perf_counter()
        accounts = seed(services, args.accounts, rng)
        out["boards"] = {
            name: services.redis.zcard(f"ratings:{{{POOL}}}:board:{name}")
            for name in ("all", "bot:established")
        }
        print(f"seeded {args.accounts} rated accounts in {time.perf_counter() - started:.1f} s")
        for seats in (2, 4):

            def update(i, seats=seats):
                apply_ratings(services, finished(f"bench-{seats}-{i}", rng.sample(accounts, seats), rng))

            def compute(i, seats=seats):
                skill.rate([(25.0 + rng.random(), 8.0)] * seats, list(range(1, seats + 1)))

            out[f"update_{seats}"] = measured(args.rounds, args.per_round, update, redis_client)
            out[f"openskill_{seats}"] = measured(args.rounds, args.per_round, compute, redis_client)
        listings = (
            ("page_all", "", out["boards"]["all"]),
            ("page_bots_established", "&kind=bot&provisional=exclude", out["boards"]["bot:established"]),
        )
        for label, query, entries in listings:
            pages = max(1, entries // 50)  # full pages of that listing only

            def page(i, query=query, pages=pages):
                number = rng.randrange(1, pages + 1)
                response = client.get(f"/v1/leaderboards/{POOL}?page_size=50&page={number}{query}")
                assert response.status_code == 200, response.data

            out[label] = measured(args.rounds, args.per_round, page, redis_client)
        services.close()
    report(args, out)
    return out


def report(args, out):
    load = os.getloadavg()[0]
    print(
        f"\nrating costs, {args.rounds} rounds of {args.per_round} calls, {args.accounts} rated accounts in "
        f"pool {POOL} (boards: {out['boards']['all']} entries, {out['boards']['bot:established']} established "
        f"bots); load average {load:.1f} on {os.cpu_count()} CPUs. Mean ms per call [95% t-interval over "
        "the rounds]: wall clock, CPU of this process, CPU of redis-server:"
    )
    labels = {
        "update_2": "rating update, 2 seats (apply_ratings)",
        "update_4": "rating update, 4 seats (apply_ratings)",
        "openskill_2": "  of which OpenSkill alone, 2 seats",
        "openskill_4": "  of which OpenSkill alone, 4 seats",
        "page_all": "leaderboard page of 50 (GET, everyone)",
        "page_bots_established": "leaderboard page of 50 (GET, bots, established)",
    }
    for key, label in labels.items():
        cells = [f"{m:7.3f} [{lo:.3f}, {hi:.3f}]" for m, lo, hi in out[key].values()]
        print(f"  {label:<48} wall {cells[0]}  cpu {cells[1]}  redis {cells[2]}")
    figures = {
        key: {what: [round(x, 4) for x in value] for what, value in out[key].items()} for key in labels
    }
    print(json.dumps(figures))


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--accounts", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--per-round", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


if __name__ == "__main__":
    run(parse_args())
