"""Scale-out benchmark: the same move load on a standalone Redis, a Redis Cluster,
and with acknowledged writes (REDIS_WAIT_REPLICAS=1), in one run.

    .venv/bin/python -m bench.scaleout_bench --clients 16 --rounds 6 --round-s 4

It starts, on free loopback ports, a standalone redis-server, a 3 + 3 Redis
Cluster and a primary + replica watched by 3 sentinels
(bench/redis_topologies.py), a standalone queue Redis (RQ never runs on a
cluster), and one gunicorn of the service (deploy/gunicorn.conf.py, bench/harness.py's
Gunicorn) per configuration:

- ``standalone``: REDIS_MODE=standalone, no replica;
- ``cluster``: REDIS_MODE=cluster, REDIS_WAIT_REPLICAS=0;
- ``cluster+wait``: REDIS_MODE=cluster, REDIS_WAIT_REPLICAS=1 (each commit
  waits for its shard's replica);
- ``sentinel`` and ``sentinel+wait``: REDIS_MODE=sentinel on the primary +
  replica, without and with REDIS_WAIT_REPLICAS=1 (``--no-sentinel`` drops
  them).

The request log is off (REQUEST_LOG=0: its lines would go to this output).
The clients are bench/move_clients.py's: each plays its own all-human Anno 1503 match
with moves scripted beforehand, so every request is an accepted
``POST /v1/matches/{id}/actions``; every configuration gets the same
scripts. The configurations take turns in ``--rounds`` rounds of
``--round-s`` seconds (their order rotates each round), so the shared
machine's background load falls on all alike; each round gives one moves/s
per configuration. The report prints moves/s, p50/p99 latency and CPU per
move for each, then the ratios (cluster over standalone, with over without
WAIT) as the geometric mean of the per-round ratios with a 95% t-interval
over rounds, and the same ratios from the API's CPU per move (moves per
API core), which a busy machine disturbs much less. On one 2-core host the cluster's six redis-servers (and the
replicas' replication work) share the cores the API uses: the ratios are
this host's, not a fleet's (docs/operations.md).

``--against REV`` runs every configuration twice, once with this tree's
service and once with that of git revision REV (its whole tree exported;
gunicorn started in it with its own deploy/gunicorn.conf.py, as
``http_bench --against`` does), all in the same rotating rounds; it adds
REV's own ratios and, per configuration, this tree over REV's.
"""

import argparse
import math
import os
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import orjson

from launcher.redis_process import RedisProcess

from .harness import Gunicorn, Phase, summarize, unlimited_env
from .ladder.cost import export_tree
from .move_clients import MoveClient
from .redis_counts import describe
from .redis_topologies import ClusterServers, SentinelServers
from .stats import geometric_interval


def t_interval_ratio(numerators, denominators):
    """Geometric mean of the paired ratios and its 95% t-interval:
    ``(mean, low, high)``; None when fewer than 2 pairs."""
    logs = [math.log(a / b) for a, b in zip(numerators, denominators, strict=True) if a and b]
    if len(logs) < 2:
        return None
    return geometric_interval(logs)


class Config:
    """One configuration: its gunicorn, its Phase of clients, its per-round
    rates of requests of ``kind``."""

    kind = "move"

    def __init__(self, name, env, redis_pids, redis_ports=(), root=None):
        self.name, self.env, self.redis_pids = name, env, redis_pids
        self.redis_ports = list(redis_ports)  # counted per move (bench/redis_counts.py)
        # Another source tree's service (--against): started in it, with its
        # own deploy/gunicorn.conf.py and PYTHONPATH, so it imports its own packages.
        self.root = None if root is None else Path(root).resolve()
        self.server = self.phase = None
        self.rates = []  # moves/s per round
        self.cpu_ms = []  # API (gunicorn) CPU ms per move, per round

    def start(self, args):
        if self.root is None:
            self.server = Gunicorn("service:create_app()", self.env, args)
            return self
        conf = self.root / "deploy" / "gunicorn.conf.py"
        env = dict(self.env, PYTHONPATH=str(self.root))
        self.server = Gunicorn(
            "service:create_app()", env, args, cwd=self.root, conf=conf if conf.exists() else None
        )
        return self

    def run_round(self, warmup, seconds):
        before_n, before_s = self._count(), self.phase.counted_s
        before_cpu = self.phase.cpu.used["server"]
        self.phase.run_round(warmup, seconds, 10**9)
        moves = self._count() - before_n
        self.rates.append(moves / (self.phase.counted_s - before_s))
        self.cpu_ms.append(1000 * (self.phase.cpu.used["server"] - before_cpu) / max(moves, 1))

    def _count(self):
        return sum(len(r.latencies.get(self.kind, [])) for r in self.phase.recorders)


def service_env(redis_url, mode, queue_url, wait):
    return unlimited_env(
        REDIS_URL=redis_url,
        REDIS_MODE=mode,
        RQ_REDIS_URL=queue_url,
        REDIS_WAIT_REPLICAS=str(wait),
        REDIS_WAIT_TIMEOUT_MS="1000",
        REQUEST_LOG="0",
    )


def start_topologies(stack, args):
    """Every Redis of the run; returns the configurations (not yet started)."""
    work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tabula-scaleout-")))
    queue = stack.enter_context(RedisProcess())
    standalone = stack.enter_context(RedisProcess())
    cluster = stack.enter_context(ClusterServers(work / "cluster"))
    configs = [
        Config(
            "standalone",
            service_env(standalone.url, "standalone", queue.url, 0),
            [standalone.proc.pid],
            [standalone.port],
        ),
        Config("cluster", service_env(cluster.url, "cluster", queue.url, 0), cluster.pids(), cluster.ports),
        Config(
            "cluster+wait", service_env(cluster.url, "cluster", queue.url, 1), cluster.pids(), cluster.ports
        ),
    ]
    if args.bare_cluster:
        bare = stack.enter_context(ClusterServers(work / "bare-cluster", replicas=0))
        configs.append(
            Config(
                "cluster, no replica", service_env(bare.url, "cluster", queue.url, 0), bare.pids(), bare.ports
            )
        )
    if args.sentinel:
        sentinel = stack.enter_context(SentinelServers(work / "sentinel"))
        ports = [sentinel.primary_port, sentinel.replica_port]
        pids = [sentinel.by_port[port].pid for port in ports]
        configs += [
            Config("sentinel", service_env(sentinel.url, "sentinel", queue.url, 0), pids, ports),
            Config("sentinel+wait", service_env(sentinel.url, "sentinel", queue.url, 1), pids, ports),
        ]
    return configs


def make_phases(configs, args):
    """One Phase per configuration; the clients' scripted moves are played
    once and shared (the same moves against every configuration)."""
    first = None
    for config in configs:
        config.server.wait_healthy()
        ports = config.redis_ports
        if first is None:
            config.phase = first = Phase(MoveClient, config.server, config.redis_pids, args, ports)
            continue
        args_no_scripts = argparse.Namespace(**{**vars(args), "script_moves": 0})
        config.phase = Phase(MoveClient, config.server, config.redis_pids, args_no_scripts, ports)
        for mine, theirs in zip(config.phase.clients, first.clients, strict=True):
            mine.player.scripts = list(theirs.player.scripts)


def run_rounds(configs, args):
    for number in range(args.rounds):
        shift = number % len(configs)
        for config in configs[shift:] + configs[:shift]:
            config.run_round(args.warmup if number == 0 else 0.3, args.round_s)


def results(configs):
    out = {}
    for config in configs:
        phase = config.phase
        out[config.name] = {
            **summarize(phase.recorders, phase.counted_s, "move"),
            "round_rates": [round(r, 1) for r in config.rates],
            "cpu_ms": phase.cpu_ms_per_request(),
            "redis_per_move": phase.redis_per_request(),
        }
    return out


RATIOS = (
    ("cluster / standalone", "cluster", "standalone"),
    ("cluster+wait / cluster (WAIT cost)", "cluster+wait", "cluster"),
    ("cluster+wait / standalone", "cluster+wait", "standalone"),
    ("cluster, no replica / standalone", "cluster, no replica", "standalone"),
    ("sentinel / standalone", "sentinel", "standalone"),
    ("sentinel+wait / sentinel (WAIT cost)", "sentinel+wait", "sentinel"),
)


def all_ratios(against):
    """RATIOS, and with ``--against REV`` the same of REV's service and each
    configuration of this tree over REV's."""
    if against is None:
        return RATIOS
    theirs = tuple((f"{label} @{against}", f"{a}@{against}", f"{b}@{against}") for label, a, b in RATIOS)
    names = dict.fromkeys(name for _, a, b in RATIOS for name in (a, b))
    mine = tuple((f"{name}: this tree / {against}", name, f"{name}@{against}") for name in names)
    return RATIOS + theirs + mine


def twins(configs, against, root):
    """Each configuration again, served by the tree of revision ``against`` at ``root``."""
    return [Config(f"{c.name}@{against}", c.env, c.redis_pids, c.redis_ports, root=root) for c in configs]


def ratios(configs, measure="rates", against=None):
    """``{label: [mean, low, high]}`` of ``all_ratios`` over the rounds' ``measure``:
    ``rates`` (moves/s) or ``cpu_ms`` (API CPU per move, inverted so that
    above 1 means more moves per API core, like the moves/s ratio)."""
    by_name = {c.name: getattr(c, measure) for c in configs}
    out = {}
    for label, top, bottom in all_ratios(against):
        if top in by_name and bottom in by_name:
            pair = (by_name[top], by_name[bottom]) if measure == "rates" else (by_name[bottom], by_name[top])
            interval = t_interval_ratio(*pair)
            if interval:
                out[label] = [round(x, 3) for x in interval]
    return out


def report(args, table, ratio_table, cpu_table):
    print(
        f"\nclients={args.clients} gunicorn={args.workers} workers x {args.threads} threads, "
        f"{args.rounds} rounds x {args.round_s:.0f} s per configuration "
        f"(load average now {os.getloadavg()[0]:.1f})"
    )
    print_table(table)
    print("ratios of moves/s (geometric mean of per-round ratios, 95% t-interval over rounds):")
    for label, (mean, low, high) in ratio_table.items():
        print(f"  {label:46} {mean:.3f}  [{low:.3f}, {high:.3f}]")
    print("the same ratios from API CPU per move (moves per API core; steadier on a shared machine):")
    for label, (mean, low, high) in cpu_table.items():
        print(f"  {label:46} {mean:.3f}  [{low:.3f}, {high:.3f}]")


def print_table(table):
    """One row per configuration: its ``summarize`` fields, ``cpu_ms`` and ``round_rates``."""
    print(
        f"{'':19}{'moves':>8}{'per s':>9}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}"
        f"{'API CPU ms':>12}{'Redis CPU ms':>14}  per-round moves/s"
    )
    for name, row in table.items():
        cpu = row["cpu_ms"]
        print(
            f"{name:19}{row['count']:>8}{row['per_s']:>9}{row['p50_ms']!s:>9}{row['p99_ms']!s:>9}"
            f"{row['errors']:>8}{cpu['server']:>12.3f}{cpu['redis']:>14.3f}  {row['round_rates']}"
        )
    counted = [(name, row["redis_per_move"]) for name, row in table.items() if row.get("redis_per_move")]
    if counted:
        print("Redis per counted request (bench/redis_counts.py):")
        for name, counts in counted:
            print(f"  {name:19}{describe(counts)}")


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=16, help="concurrent clients per configuration")
    parser.add_argument("--rounds", type=int, default=6, help="rounds (each runs every configuration)")
    parser.add_argument(
        "--round-s", type=float, default=4.0, help="counted seconds per configuration per round"
    )
    parser.add_argument("--warmup", type=float, default=2.0, help="uncounted seconds before each first round")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=16, help="gunicorn threads per worker")
    parser.add_argument("--players", type=int, default=4, help="seats per match (all human)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-sentinel",
        dest="sentinel",
        action="store_false",
        help="skip the primary + replica (sentinel) configurations",
    )
    parser.add_argument(
        "--bare-cluster",
        action="store_true",
        help="a cluster of 3 primaries without replicas too: standalone's like (no replica), "
        "so its ratio is the cluster's own cost without replication's CPU",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON too")
    parser.add_argument(
        "--against",
        metavar="REV",
        help="each configuration twice: this tree's service and that of git revision REV "
        "(its whole tree exported, as http_bench --against does)",
    )
    args = parser.parse_args(argv)
    # What the move clients read: scripted moves, enough for 150 moves/s
    # per client over the run (none has come near it; a shortfall is played
    # during the run and counted as top-ups by bench/move_clients.py).
    args.legal, args.max_moves = "script", 10**9
    args.script_moves = int(150 * (args.rounds * args.round_s + args.warmup))
    return args


def main(argv=None):
    args = parse_args(argv)
    started = time.monotonic()
    with ExitStack() as stack:
        configs = start_topologies(stack, args)
        if args.against:
            scratch = Path(
                stack.enter_context(tempfile.TemporaryDirectory(prefix="tabula-scaleout-against-"))
            )
            configs += twins(configs, args.against, export_tree(args.against, scratch, paths=()))
        for config in configs:
            stack.callback(lambda c=config: c.server and c.server.stop())
            config.start(args)
        make_phases(configs, args)
        run_rounds(configs, args)
    table = results(configs)
    ratio_table, cpu_table = ratios(configs, against=args.against), ratios(configs, "cpu_ms", args.against)
    report(args, table, ratio_table, cpu_table)
    print(f"wall time {time.monotonic() - started:.0f} s")
    if args.json:
        print(
            orjson.dumps(
                {"args": vars(args), "configs": table, "ratios": ratio_table, "cpu_ratios": cpu_table}
            ).decode()
        )
    return 0 if all(row["count"] and not row["errors"] for row in table.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
