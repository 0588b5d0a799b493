"""The archive's figures (docs/archive.md): bytes per finished match before
and after, and the read latency of an archived match's events.

    .venv/bin/python -m bench.archive_bench
    .venv/bin/python -m bench.archive_bench --matches 6 --levels easy medium --reads 30 --json

On a fresh redis-server (free port) this process plays ``--matches`` AI
matches of each variant (Anno 1503 base and expansion, Anno 1452 basic,
expert and Ottokar) and level, every seat that level, through the service's
own code path (each decision ``submit_action`` and its commit, the finishing
one writing the record). For each finished match it takes:

- before: the ``MEMORY USAGE`` of its hot keys (hash, events, actions), what
  a finished match held for the whole retention before the archive;
- after: the ``MEMORY USAGE`` of its record (and the record's length).

Then gunicorn (1 worker by default: one process's cache) serves them, and
each match's ``GET /v1/matches/{id}/events?limit=1000`` is read ``--reads``
times while its hot keys are there (hot: the reference), then the hot keys
go (what their TTL does) and it is read once (cold: the record decoded and
the match replayed) and ``--reads`` times again (warm: the process's cache
of rebuilt matches). Latencies are client-side, loopback. Percentiles come
with a 95% bootstrap interval.
"""

import argparse
import random
import statistics
import sys
import time

import orjson
import redis

from launcher.redis_process import RedisProcess
from service import create_app
from service.storage.keys import actions_key, events_key, match_key, record_key
from service.worker import ai_jobs

from .harness import Gunicorn, Http, unlimited_env

VARIANTS = {
    "anno1503/base": ("anno1503", {}, 4),
    "anno1503/expansion": ("anno1503", {"expansion": "pirates_aristocrats"}, 4),
    "anno1452/basic": ("anno1452", {"rules": "basic"}, 4),
    "anno1452/expert": ("anno1452", {"rules": "expert"}, 4),
    "anno1452/ottokar": ("anno1452", {"scenario": "ottokar_a"}, 2),
}


def pct(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def pct_ci(values, p, rounds=400, seed=1):
    """``(estimate, low, high)``: the percentile and its 95% bootstrap interval."""
    rng = random.Random(seed)
    boots = sorted(pct([rng.choice(values) for _ in values], p) for _ in range(rounds))
    return pct(values, p), boots[int(0.025 * rounds)], boots[int(0.975 * rounds)]


def play(client, services, game, options, seats, level, seed):
    """One all-AI match to its end through the service; returns its id."""
    body = {
        "game": game,
        "options": options,
        "seats": [{"kind": "ai", "level": level}] * seats,
        "seed": seed,
        "dice": "reproducible",
    }
    match_id = client.post("/v1/matches", json=body).get_json()["match"]["id"]
    while True:
        doc = orjson.loads(services.redis.hget(match_key(match_id), "doc"))
        if doc["status"] == "finished":
            return match_id
        ai_jobs.play_ai_turn(match_id, doc["version"])


def sizes(client, match_id):
    pipe = client.pipeline(transaction=False)
    for key in (match_key(match_id), events_key(match_id), actions_key(match_id), record_key(match_id)):
        pipe.memory_usage(key, samples=0)
    pipe.strlen(record_key(match_id))
    pipe.llen(actions_key(match_id))
    hash_, events, actions, record, record_len, count = pipe.execute()
    return {"before": hash_ + events + actions, "after": record, "record_len": record_len, "actions": count}


def produce(url, args):
    app = create_app({"REDIS_URL": url, "RATE_LIMIT": 0, "CREATE_RATE_LIMIT": 0})
    client, services = app.test_client(), app.extensions["tabula"]
    ai_jobs.bind(services)
    matches = []
    for name, (game, options, seats) in VARIANTS.items():
        for level in args.levels:
            for i in range(args.matches):
                started = time.monotonic()
                match_id = play(client, services, game, options, seats, level, args.seed + i)
                found = sizes(services.redis, match_id)
                matches.append({"id": match_id, "variant": name, "level": level, **found})
                print(
                    f"{name:20}{level:8}{found['actions']:>6} actions {found['before']:>8} B -> "
                    f"{found['after']:>5} B ({time.monotonic() - started:.1f} s)",
                    flush=True,
                )
    services.queue.empty()
    services.close()
    return matches


def archive_all(client, matches):
    for match in matches:
        client.delete(match_key(match["id"]), events_key(match["id"]), actions_key(match["id"]))
        for key in client.scan_iter(match=f"match:{{{match['id']}}}:idem*"):
            client.delete(key)


def read_latencies(port, matches, reads, first=False):
    """``{variant: [ms]}`` of ``reads`` reads of each match's events (``first``:
    only the first read of each); the bodies, to check they stay the same."""
    http = Http(port)
    times, bodies = {}, {}
    for match in matches:
        path = f"/v1/matches/{match['id']}/events?limit=1000"
        for _ in range(1 if first else reads):
            status, body, seconds = http.call("GET", path, parse=False)
            assert status == 200, status
            times.setdefault(match["variant"], []).append(seconds * 1000)
            bodies[match["id"]] = body
    return times, bodies


def _sizes(group):
    """Median and p99 of a group of matches' action counts and bytes."""
    return {
        key: {"median": statistics.median(m[key] for m in group), "p99": pct([m[key] for m in group], 99)}
        for key in ("actions", "before", "after", "record_len")
    }


def summarize(matches, reads):
    table = {}
    for name in VARIANTS:
        for level in sorted({m["level"] for m in matches}):
            group = [m for m in matches if m["variant"] == name and m["level"] == level]
            if group:
                table[f"{name} {level}"] = _sizes(group)
    for game in sorted({name.split("/")[0] for name in VARIANTS}):
        group = [m for m in matches if m["variant"].startswith(game + "/")]
        if group:
            table[f"{game} (all)"] = _sizes(group)
    every = {key: [m[key] for m in matches] for key in ("before", "after", "record_len")}
    latency = {}
    for kind, values in reads.items():
        for name, ms in [*values.items(), ("all", [v for vs in values.values() for v in vs])]:
            latency[f"{kind} {name}"] = {
                "n": len(ms),
                "p50": [round(v, 2) for v in pct_ci(ms, 50)],
                "p99": [round(v, 2) for v in pct_ci(ms, 99)],
            }
    overall = {key: {"median": statistics.median(v), "p99": pct(v, 99)} for key, v in every.items()}
    return {"by_variant_level": table, "overall": overall, "events_read_ms": latency}


def report(result):
    print(
        "\nvariant, level             | actions     | before B (hot keys) | after B (record) | record length B"
    )
    print("(each: median / p99; bytes: MEMORY USAGE)")
    for name, row in result["by_variant_level"].items():
        cells = [
            f"{row[k]['median']:.0f} / {row[k]['p99']:.0f}"
            for k in ("actions", "before", "after", "record_len")
        ]
        print(f"{name:27}| " + " | ".join(cells))
    overall = result["overall"]
    print(
        f"all matches: before median {overall['before']['median']:.0f} B, p99 {overall['before']['p99']:.0f} B; "
        f"after median {overall['after']['median']:.0f} B, p99 {overall['after']['p99']:.0f} B "
        f"(x{overall['before']['median'] / overall['after']['median']:.0f} smaller at the median)"
    )
    print("\nGET /events?limit=1000 of an archived match, ms: p50 [95% CI], p99 [95% CI]")
    for name, row in result["events_read_ms"].items():
        print(
            f"  {name:28} n={row['n']:<5} p50 {row['p50'][0]} [{row['p50'][1]}, {row['p50'][2]}]  "
            f"p99 {row['p99'][0]} [{row['p99'][1]}, {row['p99'][2]}]"
        )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=4, help="matches per variant and level")
    parser.add_argument("--levels", nargs="+", default=["easy", "medium"])
    parser.add_argument("--reads", type=int, default=20, help="warm reads per match")
    parser.add_argument("--workers", type=int, default=1, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    started = time.monotonic()
    with RedisProcess() as data:
        matches = produce(data.url, args)
        client = redis.Redis.from_url(data.url)
        gunicorn = Gunicorn("service:create_app()", unlimited_env(REDIS_URL=data.url, REQUEST_LOG="0"), args)
        try:
            gunicorn.wait_healthy()
            hot, before = read_latencies(gunicorn.port, matches, args.reads)
            archive_all(client, matches)
            cold, after = read_latencies(gunicorn.port, matches, args.reads, first=True)
            warm, cached = read_latencies(gunicorn.port, matches, args.reads)
        finally:
            gunicorn.stop()
    assert before == after == cached, "an archived match's events differ from the hot ones"
    result = summarize(matches, {"hot": hot, "cold": cold, "warm": warm})
    report(result)
    print(f"wall time {time.monotonic() - started:.0f} s")
    if args.json:
        print(orjson.dumps({"matches": matches, **result}).decode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
