"""The finishing move's stall: how long a gevent worker's other requests wait
while a long match's finishing move builds its archive record.

    .venv/bin/python -m bench.finish_stall_bench --against 3fc6541 --matches 3

The commit that finishes a match carries its archive record, compressed at
zstd level 19 (docs/archive.md): 2-100 ms of CPU for a long match. Under the
gevent worker every request of a process shares one thread, so unless the
compression runs off the event loop (service/storage/offload.py) every
other request of that worker waits for it.

One gunicorn gevent worker per tree (``WEB_CONCURRENCY=1``: every request
meets the finishing move), each on a private redis-server. For each of
``--matches`` seeds whose uniformly random 4-player Anno 1503 match ends
within ``--max-moves``, each tree in turn (alternating which goes first)
plays the match through the API up to its last move, then posts the last
move while another client sends ``GET /healthz`` back to back on its own
connection. Printed per tree: the finishing move's latency, and the longest
and the median /healthz latency among those sent while it ran; and the
ratio of the longest waits, this tree over the other, per match.
``--against REV`` runs REV's service from ``git archive`` (its engine as
plain Python: the compiled build is this checkout's only).
"""

import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path

import engine
from launcher.redis_process import RedisProcess

from .harness import ROOT, Gunicorn, Http, unlimited_env
from .ladder.cost import export_tree
from .move_clients import create_human_match, scripted_match

GAME_ID = "anno1503"


def finishing_scripts(game, count, max_moves, first_seed):
    """``[(seed, moves)]`` of ``count`` random matches that end within ``max_moves``."""
    found, seed = [], first_seed
    while len(found) < count:
        moves = scripted_match(game, 4, seed, max_moves)
        state = game.setup(4, game.resolve_options(4, {}), seed)
        for seat, action in moves:
            state, _ = game.apply(state, seat, action)
        if game.outcome(state) is not None:
            found.append((seed, moves))
        seed += 1
    return found


class Pinger(threading.Thread):
    """``GET /healthz`` back to back until stopped: ``[(sent, seconds)]``."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.http = Http(port)
        self.samples = []
        self.running = True

    def run(self):
        while self.running:
            sent = time.perf_counter()
            status, _, seconds = self.http.call("GET", "/healthz", parse=False)
            if status != 200:
                raise RuntimeError(f"/healthz -> {status}")
            self.samples.append((sent, seconds))


def finish_one(port, game, seed, moves):
    """Plays ``moves`` through the API; ``(finishing move s, [/healthz s during it])``."""
    http = Http(port)
    match_id, tokens, match = create_human_match(http, game, 4, seed)
    version = match["version"]
    for seat, action in moves[:-1]:
        body = {"action": action, "version": version}
        status, reply, _ = http.call("POST", f"/v1/matches/{match_id}/actions", body, tokens[seat], False)
        if status != 200:
            raise RuntimeError(f"move {version} -> {status}: {reply!r}")
        version += 1
    pinger = Pinger(port)
    pinger.start()
    time.sleep(0.2)  # the pinger's connection is open and answered
    seat, action = moves[-1]
    started = time.perf_counter()
    status, reply, seconds = http.call(
        "POST", f"/v1/matches/{match_id}/actions", {"action": action, "version": version}, tokens[seat]
    )
    pinger.running = False
    pinger.join()
    if status != 200 or reply["match"]["status"] != "finished":
        raise RuntimeError(f"the last move -> {status}")
    during = [s for sent, s in pinger.samples if sent + s > started and sent < started + seconds]
    return seconds, during


def start_tree(root, redis_url, args):
    env = unlimited_env(REDIS_URL=redis_url, RQ_REDIS_URL=redis_url, REQUEST_LOG="0")
    return Gunicorn("service:create_app()", env, args, cwd=root).wait_healthy()


def measure(args, roots):
    game = engine.get_game(GAME_ID)
    scripts = finishing_scripts(game, args.matches, args.max_moves, args.seed)
    rows = {name: [] for name in roots}
    with RedisProcess() as first, RedisProcess() as second:
        servers = {
            name: start_tree(root, redis.url, args)
            for (name, root), redis in zip(roots.items(), (first, second), strict=False)
        }
        try:
            for i, (seed, moves) in enumerate(scripts):
                order = list(servers) if i % 2 == 0 else list(servers)[::-1]
                for name in order:
                    seconds, during = finish_one(servers[name].port, game, seed, moves)
                    rows[name].append((seed, len(moves), seconds, during))
        finally:
            for server in servers.values():
                server.stop()
    return rows


def report(rows):
    print(
        f"{'tree':12}{'seed':>6}{'actions':>9}{'finish ms':>11}{'/healthz during':>17}{'max ms':>9}{'median ms':>11}"
    )
    for name, entries in rows.items():
        for seed, actions, seconds, during in entries:
            longest = max(during, default=0.0)
            median = statistics.median(during) if during else 0.0
            print(
                f"{name:12}{seed:>6}{actions:>9}{1000 * seconds:>11.1f}{len(during):>17}"
                f"{1000 * longest:>9.1f}{1000 * median:>11.2f}"
            )
    names = list(rows)
    if len(names) == 2:
        ratios = [
            max(a[3], default=0.0) / max(b[3], default=1e-9)
            for a, b in zip(rows[names[0]], rows[names[1]], strict=True)
        ]
        print(
            f"longest /healthz wait, {names[0]} over {names[1]}, per match: {[round(r, 3) for r in ratios]}"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=3, help="finishing matches per tree")
    parser.add_argument("--max-moves", type=int, default=3000, help="longest match taken")
    parser.add_argument("--seed", type=int, default=200, help="first seed tried")
    parser.add_argument("--against", help="a git revision whose service is measured too")
    args = parser.parse_args()
    args.workers, args.threads = 1, 16
    with tempfile.TemporaryDirectory(prefix="tabula-finish-stall-") as scratch:
        roots = {"this tree": ROOT}
        if args.against:
            roots[args.against] = export_tree(args.against, Path(scratch), paths=())
        report(measure(args, roots))


if __name__ == "__main__":
    main()
