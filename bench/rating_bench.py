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
with a 95 % Student's t-interval over the rounds' means.

    python -m bench.rating_bench [--accounts 10000] [--rounds 10] [--per-round 200]
"""

import argparse
import json
import math
import random
import statistics
import time

from launcher.redis_process import RedisProcess
from service.http.app import create_app
from service.ratings import skill
from service.ratings.update import apply_ratings
from service.storage import accounts as stored_accounts

POOL = "anno1452-basic"
SEED_SWEEPS = 12
# Two-sided 97.5 % quantiles of Student's t, by degrees of freedom (1..30).
T975 = [
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.160,
    2.145,
    2.131,
    2.120,
    2.110,
    2.101,
    2.093,
    2.086,
    2.080,
    2.074,
    2.069,
    2.064,
    2.060,
    2.056,
    2.052,
    2.048,
    2.045,
    2.042,
]


def interval(means):
    """(mean, low, high): the 95 % t-interval of the rounds' means."""
    mean = statistics.fmean(means)
    if len(means) < 2:
        return mean, mean, mean
    half = T975[min(len(means) - 1, len(T975)) - 1] * statistics.stdev(means) / math.sqrt(len(means))
    return mean, mean - half, mean + half


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


def time_rounds(rounds, per_round, call):
    """The mean milliseconds of ``call(i)`` per round, for each round (after
    ``per_round`` // 10 calls of warm-up)."""
    for i in range(max(1, per_round // 10)):
        call(-1 - i)
    means = []
    for r in range(rounds):
        started = time.perf_counter()
        for i in range(per_round):
            call(r * per_round + i)
        means.append((time.perf_counter() - started) * 1000 / per_round)
    return means


def run(args):
    rng = random.Random(args.seed)
    out = {}
    with RedisProcess() as server:
        app = create_app({"REDIS_URL": server.url, "RATE_LIMIT": 0, "CREATE_RATE_LIMIT": 0})
        services, client = app.extensions["tabula"], app.test_client()
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

            out[f"update_{seats}"] = interval(time_rounds(args.rounds, args.per_round, update))
            out[f"openskill_{seats}"] = interval(time_rounds(args.rounds, args.per_round, compute))
        pages = max(1, args.accounts // 50)
        for label, query in (("page_all", ""), ("page_bots_established", "&kind=bot&provisional=exclude")):

            def page(i, query=query):
                number = rng.randrange(1, pages + 1)
                response = client.get(f"/v1/leaderboards/{POOL}?page_size=50&page={number}{query}")
                assert response.status_code == 200, response.data

            out[label] = interval(time_rounds(args.rounds, args.per_round, page))
        services.close()
    report(args, out)
    return out


def report(args, out):
    print(
        f"\nrating costs, {args.rounds} rounds of {args.per_round} calls; mean ms per call "
        f"[95% t-interval over the rounds], {args.accounts} rated accounts in pool {POOL}:"
    )
    labels = {
        "update_2": "rating update, 2 seats (apply_ratings)",
        "update_4": "rating update, 4 seats (apply_ratings)",
        "openskill_2": "  of which OpenSkill alone, 2 seats",
        "openskill_4": "  of which OpenSkill alone, 4 seats",
        "page_all": "leaderboard page of 50 (GET, everyone)",
        "page_bots_established": "leaderboard page of 50 (GET, bots, established)",
    }
    print(f"  (boards: {out['boards']['all']} entries, {out['boards']['bot:established']} established bots)")
    for key, label in labels.items():
        mean, low, high = out[key]
        print(f"  {label:<50} {mean:7.3f} ms  [{low:.3f}, {high:.3f}]")
    figures = {key: [round(x, 4) for x in value] for key, value in out.items() if key in labels}
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
