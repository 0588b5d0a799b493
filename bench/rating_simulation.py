"""Does the leaderboard find the stronger bots, and how fast? (issue 43)

Thirty bot accounts of known strength seek rated two-player Anno 1452
matches ("Play now", ``POST /v1/seeks``) and play them through the real
service: gunicorn, a worker running the pairing waves and the finish steps
that rate each match (OpenSkill), one Redis. A bot's strength is a mix:
each decision is the ``easy`` AI's with probability ``p``, a uniformly
random legal action otherwise; six groups of five bots, ``p`` = 0, 0.2, 0.4,
0.6, 0.8 and 1 (measured here beforehand: ``p`` = 1 beats ``p`` = 0 in 38
of 40 matches, 0.75 beats 0.5 in 31 of 40), so the true order is known.

Every ``--every`` finished matches it reads ``GET /v1/leaderboards/{pool}``
and prints Kendall's tau-b between the bots' conservative ratings and their
groups, with a 95% bootstrap interval over the bots (2,000 resamples), and
whether the six groups' mean ratings stand in the true order. At the end:
the matches it took until they did (and until tau-b >= 0.8), and the mean
rating spread (|mu_a - mu_b|, as each seek read it when made) of the tables
the waves made, beside that of the same bots paired at random.

    python -m bench.rating_simulation                 # ~4 minutes
    python -m bench.rating_simulation --matches 300 --every 25
"""

import argparse
import itertools
import random
import statistics
import subprocess
import sys
import threading
import time
import uuid

import engine
from bench.harness import ROOT, Gunicorn, Http, unlimited_env
from engine.ai import get_player
from launcher.redis_process import RedisProcess

POOL = "anno1452-basic"
GROUPS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
PER_GROUP = 5
BOOTSTRAP = 2000


def tau_b(xs, ys):
    """Kendall's tau-b (ties in either ranking allowed). Written out: 30
    values, O(n^2), and no SciPy in the benchmark's environment for one
    statistic."""
    concordant = discordant = ties_x = ties_y = 0
    for (x1, y1), (x2, y2) in itertools.combinations(zip(xs, ys, strict=True), 2):
        dx, dy = (x1 > x2) - (x1 < x2), (y1 > y2) - (y1 < y2)
        if dx == 0 and dy == 0:
            continue
        if dx == 0:
            ties_x += 1
        elif dy == 0:
            ties_y += 1
        elif dx == dy:
            concordant += 1
        else:
            discordant += 1
    denominator = ((concordant + discordant + ties_x) * (concordant + discordant + ties_y)) ** 0.5
    return (concordant - discordant) / denominator if denominator else 0.0


def bootstrap_interval(xs, ys, rng):
    """95% percentile interval of tau-b over resampled bots."""
    pairs = list(zip(xs, ys, strict=True))
    values = []
    for _ in range(BOOTSTRAP):
        sample = [rng.choice(pairs) for _ in pairs]
        values.append(tau_b([x for x, _ in sample], [y for _, y in sample]))
    values.sort()
    return values[int(0.025 * BOOTSTRAP)], values[int(0.975 * BOOTSTRAP) - 1]


class Bot(threading.Thread):
    """One account: seek, play the match it lands in, again, until told to stop."""

    def __init__(self, port, name, strength, seed, log):
        super().__init__(daemon=True)
        self.http, self.name, self.strength = Http(port), name, strength
        self.rng = random.Random(seed)
        self.log = log  # shared: tables, finished matches
        self.stop = threading.Event()
        self.easy, self.random = get_player("easy"), get_player("random")
        self.game = engine.get_game("anno1452")
        status, body, _ = self.http.call("POST", "/v1/accounts", {"name": name, "kind": "bot"})
        assert status == 201, body
        self.token = body["token"]

    def run(self):
        try:
            while not self.stop.is_set():
                seek = self._seek()
                if seek is not None:
                    self._play(seek["match_id"], seek["seat"])
        except OSError:
            if not self.stop.is_set():
                raise  # the server went away while the run went on

    def _seek(self):
        status, seek, _ = self.http.call("POST", "/v1/seeks", {"pool": POOL, "counts": [2]}, token=self.token)
        assert status == 201, seek
        while not self.stop.is_set():
            time.sleep(0.3)  # polling GET /v1/seeks also renews the seek
            status, mine, _ = self.http.call("GET", "/v1/seeks", token=self.token)
            found = next(s for s in mine if s["id"] == seek["id"])
            if found["status"] == "matched":
                self.log.table(found["match_id"], seek["rating"]["mu"])
                return found
            if found["status"] != "waiting":
                return None
        self.http.call("DELETE", f"/v1/seeks/{seek['id']}", token=self.token)
        return None

    def _play(self, match_id, seat):
        while True:
            status, match, _ = self.http.call("GET", f"/v1/matches/{match_id}", token=self.token)
            assert status == 200, match  # a seek reads `matched` once its match exists
            if match["status"] == "finished":
                self.log.finished(match_id)
                return
            if seat not in match["to_act"]:
                time.sleep(0.02)
                continue
            status, listed, _ = self.http.call("GET", f"/v1/matches/{match_id}/actions", token=self.token)
            if not listed["actions"]:
                continue
            player = self.easy if self.rng.random() < self.strength else self.random
            action = player.choose(
                self.game, seat, match["view"], listed["actions"], seed=self.rng.randrange(2**31)
            )
            self.http.call(
                "POST",
                f"/v1/matches/{match_id}/actions",
                {"action": action, "version": listed["version"]},
                token=self.token,
            )


class Log:
    """What the bots report: each table's ratings, the finished matches."""

    def __init__(self):
        self.lock = threading.Condition()
        self.tables = {}  # match id -> [mu as each seat's seek read it]
        self.done = set()

    def table(self, match_id, mu):
        with self.lock:
            self.tables.setdefault(match_id, []).append(mu)

    def finished(self, match_id):
        with self.lock:
            self.done.add(match_id)
            self.lock.notify_all()

    def wait_for(self, count, timeout):
        with self.lock:
            self.lock.wait_for(lambda: len(self.done) >= count, timeout)
            return len(self.done)

    def spreads(self):
        with self.lock:
            return [max(mus) - min(mus) for mus in self.tables.values() if len(mus) == 2]


def standings(http, bots):
    """``(conservative ratings, groups, mu by bot)`` of the bots on the board."""
    status, board, _ = http.call("GET", f"/v1/leaderboards/{POOL}?kind=bot&page_size=100")
    assert status == 200, board
    entries = {e["name"]: e for e in (board["entries"] if isinstance(board, dict) else board)}
    rated = [bot for bot in bots if bot.name in entries]
    return (
        [entries[b.name]["rating"] for b in rated],
        [b.strength for b in rated],
        {b.name: entries[b.name]["mu"] for b in rated},
    )


def in_order(ratings, groups):
    means = [
        statistics.fmean(r for r, g in zip(ratings, groups, strict=True) if g == group)
        for group in GROUPS
        if group in groups
    ]
    return len(means) == len(GROUPS) and all(a < b for a, b in itertools.pairwise(means))


def random_table_spread(mus):
    values = list(mus.values())
    return (
        statistics.fmean(abs(a - b) for a, b in itertools.combinations(values, 2)) if len(values) > 1 else 0.0
    )


def report_checkpoint(http, bots, done, rng, started):
    ratings, groups, mus = standings(http, bots)
    tau = tau_b(ratings, groups)
    low, high = bootstrap_interval(ratings, groups, rng)
    ordered = in_order(ratings, groups)
    print(
        f"{time.monotonic() - started:6.0f} s  {done:4d} matches  {len(ratings):2d} bots rated  "
        f"tau-b {tau:+.3f} [{low:+.3f}, {high:+.3f}]  groups in order: {'yes' if ordered else 'no'}",
        flush=True,
    )
    return tau, ordered, mus


def run(args):
    rng = random.Random(args.seed)
    env = unlimited_env(SIGNUP_RATE_LIMIT="0", REQUEST_LOG="0", LOG_FORMAT="console", LOGLEVEL="WARNING")
    with RedisProcess() as redis_server:
        env.update(REDIS_URL=redis_server.url, RQ_REDIS_URL=redis_server.url)
        server = Gunicorn("service:create_app()", env, args).wait_healthy()
        worker = subprocess.Popen([sys.executable, "-m", "service.worker"], cwd=ROOT, env=env)
        log, http, bots = Log(), Http(server.port), []
        try:
            tag = uuid.uuid4().hex[:4]
            bots = [
                Bot(server.port, f"sim{tag}_{int(p * 10)}_{i}", p, rng.randrange(2**31), log)
                for p in GROUPS
                for i in range(PER_GROUP)
            ]
            started = time.monotonic()
            for bot in bots:
                bot.start()
            return checkpoints(args, http, bots, log, rng, started)
        finally:
            for bot in bots:
                bot.stop.set()
            for bot in bots:
                bot.join(10)
            worker.terminate()
            worker.wait(30)
            server.stop()


def checkpoints(args, http, bots, log, rng, started):
    first_ordered = first_tau = None
    baseline = []
    for target in range(args.every, args.matches + 1, args.every):
        done = log.wait_for(target, timeout=max(0.0, started + args.duration - time.monotonic()))
        tau, ordered, mus = report_checkpoint(http, bots, done, rng, started)
        baseline.append(random_table_spread(mus))
        if ordered and first_ordered is None:
            first_ordered = done
        if tau >= 0.8 and first_tau is None:
            first_tau = done
        if done < target:
            break  # out of time
    spreads = log.spreads()
    print(
        f"\nmatches until the six groups' mean ratings stood in the true order: {first_ordered or 'not reached'}"
    )
    print(f"matches until tau-b >= 0.8: {first_tau or 'not reached'}")
    if spreads:
        mean = statistics.fmean(spreads)
        half = 1.96 * statistics.stdev(spreads) / len(spreads) ** 0.5 if len(spreads) > 1 else 0.0
        print(
            f"tables the waves made: {len(spreads)}, mean rating spread |mu_a - mu_b| {mean:.2f} "
            f"[{mean - half:.2f}, {mean + half:.2f}]; the same bots paired at random: "
            f"{statistics.fmean(baseline):.2f} (mean over the checkpoints)"
        )
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=400, help="stop after this many finished matches")
    parser.add_argument("--every", type=int, default=25, help="a checkpoint every N finished matches")
    parser.add_argument("--duration", type=float, default=300.0, help="stop after this many seconds")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=16, help="gunicorn threads (gthread only)")
    parser.add_argument("--seed", type=int, default=43)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
