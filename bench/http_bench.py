"""HTTP benchmark: accepted moves through gunicorn + Flask + Redis, against a trivial app.

    .venv/bin/python -m bench.http_bench --clients 32 --duration 15

It starts a private redis-server and two gunicorn servers with the same
configuration (``deploy/gunicorn.conf.py``) on free ports: one serving
``service:create_app()``, one serving ``bench/trivial_app.py`` (``POST /echo``
of a small JSON body). In the moves phase N client threads each play their
own Anno 1503 match in which every seat is human, so every move is a real
accepted ``POST /v1/matches/{id}/actions``; in the trivial phase the same N
clients post to ``/echo``. The phases alternate in ``--rounds`` short rounds
so that the shared machine's background load hits both alike. The report
gives requests/s, p50/p99 latency and the ratio moves/s over trivial
requests/s (issue 45's goal: 0.7), and the CPU milliseconds per request of the
server (gunicorn master and workers), of redis-server and of this client
(``harness.CpuMeter``): on a shared machine throughput swings with everyone else's
load, CPU per request much less, and it shows where a request's cost goes.

The servers, the rounds and the CPU meter are ``bench.harness``'s, the
clients ``bench.move_clients``'s. Choosing a move needs the legal actions. ``--legal script`` (default) plays
each client's matches with the engine before the phases start (a match is its
seed plus its actions, and the bench picks the seeds), so while the clock
runs a client only sends moves and checks their status, as cheaply as the
trivial phase's client sends its echo: on a two-core machine the client's own
CPU would otherwise be taken from the server's. ``--legal local`` computes
them in the client during the phase, with the engine from the match seed; a
client whose local state disagrees with the server falls back to reading
``/actions``. ``--legal server`` reads ``GET /actions`` before every move,
and that latency is reported too.

``--against REV`` measures instead this checkout's service against that of
git revision REV in one run, as ratios (``bench.http_compare``).

Both phases stop by themselves: after ``--duration`` seconds or
``--max-moves`` requests each, whichever comes first. The first ``--warmup``
seconds of each phase are not counted. Access logs are off and worker recycling
(max_requests) is off in both phases, so the steady state is measured.
"""

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

import orjson

from launcher.redis_process import RedisProcess

from . import http_compare
from .harness import Gunicorn, Phase, percentile, run_interleaved, summarize, unlimited_env
from .move_clients import MoveClient, TrivialClient
from .redis_counts import describe
from .scaleout_bench import Config, run_rounds, t_interval_ratio


def start_servers(redis_url, args):
    service_env = unlimited_env(REDIS_URL=redis_url, RQ_REDIS_URL=redis_url)
    service = Gunicorn("service:create_app()", service_env, args)
    trivial = Gunicorn("bench.trivial_app:create_app()", dict(os.environ), args)
    return service.wait_healthy(), trivial.wait_healthy()


def measure(args):
    """Returns ``{"move", "actions", "trivial"}`` summaries."""
    with RedisProcess() as redis_server:
        servers = start_servers(redis_server.url, args)
        redis_pid = redis_server.proc.pid
        try:
            moves = Phase(MoveClient, servers[0], redis_pid, args, redis_ports=[redis_server.port])
            trivial = Phase(TrivialClient, servers[1], redis_pid, args) if not args.moves_only else None
            run_interleaved([p for p in (moves, trivial) if p], args)
        finally:
            for server in servers:
                server.stop()
    result = {
        "move": summarize(moves.recorders, moves.counted_s, "move"),
        "actions": summarize(moves.recorders, moves.counted_s, "actions"),
        "cpu_ms": {"move": moves.cpu_ms_per_request()},
        "redis_per_move": moves.redis_per_request(),
        "script_top_ups": sum(getattr(c.player, "top_ups", 0) for c in moves.clients),
    }
    result["trivial"] = (
        summarize(trivial.recorders, trivial.counted_s, "echo") if trivial else summarize([], 1, "echo")
    )
    if trivial:
        result["cpu_ms"]["trivial"] = trivial.cpu_ms_per_request()
    return result


def measure_observability(args):
    """Moves/s with metrics and the request log on (``PROMETHEUS_MULTIPROC_DIR``,
    ``METRICS=1``, ``REQUEST_LOG=1``, JSON lines to a file) against both off
    (``METRICS=0``, ``REQUEST_LOG=0``), two servers measured in alternating rounds."""
    work = Path(tempfile.mkdtemp(prefix="tabula-bench-obs-"))
    (work / "prometheus").mkdir()
    with RedisProcess() as redis_server, open(work / "requests.log", "wb") as log:
        phases = _observability_phases(redis_server, work, log, args)
        lines = (work / "requests.log").read_bytes().count(b'"logger":"tabula.request"')
        in_app = logged_move_ms(work / "requests.log")
    shutil.rmtree(work, ignore_errors=True)
    result = {
        name: {
            "move": summarize(config.phase.recorders, config.phase.counted_s, "move"),
            "cpu_ms": config.phase.cpu_ms_per_request(),
        }
        for name, config in phases.items()
    }
    result["request_log_lines"] = lines
    result["in_app_ms"] = {
        "p50": percentile(in_app, 0.50) if in_app else None,
        "p99": percentile(in_app, 0.99) if in_app else None,
    }
    # Per round, paired: on over off by moves/s, off over on by CPU per move.
    result["rounds"] = {
        "moves": t_interval_ratio(phases["on"].rates, phases["off"].rates),
        "cpu": t_interval_ratio(phases["off"].cpu_ms, phases["on"].cpu_ms),
    }
    return result


def logged_move_ms(path):
    """The sorted ``duration_ms`` of the accepted moves in a request log: from
    the app's WSGI call to its status line, so without gunicorn's parsing and
    sending and without the wait for the worker's event loop (warm-up included)."""
    durations = []
    with open(path, "rb") as lines:
        for line in lines:
            if b'"route":"/v1/matches/<match_id>/actions"' in line and b'"status":200' in line:
                entry = orjson.loads(line)
                if entry.get("method") == "POST":
                    durations.append(entry["duration_ms"])
    return sorted(durations)


def _observability_phases(redis_server, work, log, args):
    """The "on" and "off" servers' phases, run in alternating rounds."""
    env = unlimited_env(
        LOGLEVEL="INFO", LOG_FORMAT="json", REDIS_URL=redis_server.url, RQ_REDIS_URL=redis_server.url
    )
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    on = Gunicorn(
        "service:create_app()",
        dict(env, METRICS="1", REQUEST_LOG="1", PROMETHEUS_MULTIPROC_DIR=str(work / "prometheus")),
        args,
        log=log,
    )
    off = Gunicorn("service:create_app()", dict(env, METRICS="0", REQUEST_LOG="0"), args)
    try:
        phases = {}
        for name, server in (("on", on), ("off", off)):
            server.wait_healthy()
            phases[name] = Config(name, None, [redis_server.proc.pid])
            phases[name].server = server
            phases[name].phase = Phase(MoveClient, server, redis_server.proc.pid, args)
        run_rounds(
            list(phases.values()), argparse.Namespace(**vars(args), round_s=args.duration / args.rounds)
        )
    finally:
        on.stop()
        off.stop()
    return phases


def report_observability(args, result):
    print(
        f"\nmetrics + request log on vs off: clients={args.clients} gunicorn={args.workers} "
        f"workers x {args.threads} threads, {args.duration:.0f} s per server in {args.rounds} "
        f"alternating rounds (load average now {os.getloadavg()[0]:.1f})"
    )
    print(f"{'':6}{'moves':>8}{'per s':>10}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}{'server CPU ms/move':>20}")
    for name in ("on", "off"):
        row, cpu = result[name]["move"], result[name]["cpu_ms"]
        print(
            f"{name:6}{row['count']:>8}{row['per_s']:>10}{row['p50_ms']!s:>9}{row['p99_ms']!s:>9}"
            f"{row['errors']:>8}{cpu['server']:>20.3f}"
        )
    print(f"request log lines written (on): {result['request_log_lines']}")
    in_app = result["in_app_ms"]
    if in_app["p99"] is not None:
        print(
            f"moves in the app (the request log's duration_ms: no HTTP parsing or sending, no wait "
            f"for the event loop): p50 {in_app['p50']:.2f} ms, p99 {in_app['p99']:.2f} ms"
        )
    ratio = result["on"]["move"]["per_s"] / result["off"]["move"]["per_s"]
    cpu_ratio = result["off"]["cpu_ms"]["server"] / result["on"]["cpu_ms"]["server"]
    print(
        f"ratio moves/s on over off: {ratio:.3f}; server CPU per move off over on: "
        f"{cpu_ratio:.3f} (target >= 0.95)"
    )
    print(f"per-round geometric mean [95% t-interval over {args.rounds} rounds]:")
    for key, label in (("moves", "moves/s on over off"), ("cpu", "CPU per move off over on")):
        interval = result["rounds"][key]
        text = (
            f"{interval[0]:.3f}  [{interval[1]:.3f}, {interval[2]:.3f}]"
            if interval
            else "n/a (needs 2 rounds)"
        )
        print(f"  {label:26}{text}")
    return round(ratio, 3)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_load_options(parser)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=16, help="gunicorn threads per worker")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the result as JSON too")
    parser.add_argument(
        "--rounds", type=int, default=3, help="alternating rounds per phase (the duration is split)"
    )
    parser.add_argument("--moves-only", action="store_true", help="skip the trivial app")
    parser.add_argument(
        "--against",
        metavar="REV",
        help="instead: the service of this checkout against that of git revision REV, "
        "two servers in alternating rounds (bench/http_compare.py)",
    )
    parser.add_argument(
        "--trivial", action="store_true", help="with --against: the trivial app too (left out by default)"
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="with --against and --trivial: the trivial app after one Redis round trip too "
        "(the ceiling of moves over trivial on this machine)",
    )
    parser.add_argument(
        "--observability",
        action="store_true",
        help="instead: moves/s with metrics and the request log on versus off "
        "(METRICS, REQUEST_LOG), two servers in alternating rounds",
    )
    args = parser.parse_args(argv)
    check_against(parser, args)
    if args.script_moves is None:
        # No client here has sustained 200 moves/s: twice that is ample.
        args.script_moves = int(400 * (args.duration + args.warmup))
    return args


def check_against(parser, args):
    """``--against``'s revision resolved to ``args.against_commit``; its
    options not mixed with another mode's."""
    if args.against is None:
        if args.trivial or args.floor:
            parser.error("--trivial and --floor go with --against")
        return
    if args.floor and not args.trivial:
        parser.error("--floor is measured against --trivial: give both")
    if args.observability:
        parser.error("--against does not go with --observability")
    if args.rounds < 1:
        parser.error("--against needs at least 1 round (2 for an interval)")
    args.against_commit = http_compare.resolve_revision(args.against)
    if args.against_commit is None:
        parser.error(f"--against {args.against}: not a commit of this repository")


def add_load_options(parser):
    """The clients' options: how many, for how long, how they choose moves."""
    # Enough clients to keep both servers busy: with few, a path with more hops
    # (client, worker, Redis, worker) measures waiting rather than capacity.
    parser.add_argument("--clients", type=int, default=32, help="concurrent clients (threads)")
    parser.add_argument("--duration", type=float, default=15.0, help="counted seconds per phase")
    parser.add_argument(
        "--warmup", type=float, default=2.0, help="uncounted seconds before each phase's first round"
    )
    parser.add_argument("--max-moves", type=int, default=200_000, help="request cap per phase")
    parser.add_argument("--players", type=int, default=4, help="seats per match (all human)")
    parser.add_argument(
        "--legal",
        choices=("script", "local", "server"),
        default="script",
        help="where clients get legal actions (see module docstring)",
    )
    parser.add_argument(
        "--script-moves",
        type=int,
        default=None,
        help="with --legal script: moves each client plays beforehand "
        "(default: 400 per counted or warm-up second)",
    )


def report(args, result):
    trivial = result["trivial"]
    ratio = result["move"]["per_s"] / trivial["per_s"] if trivial["per_s"] else 0.0
    print(
        f"\nclients={args.clients} gunicorn={args.workers} workers x {args.threads} threads "
        f"legal={args.legal} counted {args.duration:.0f} s per phase in {args.rounds} rounds "
        f"(load average now {os.getloadavg()[0]:.1f})"
    )
    print(f"{'':18}{'count':>8}{'per s':>10}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}")
    rows = [("moves (POST)", result["move"]), ("GET /actions", result["actions"]), ("trivial POST", trivial)]
    for label, row in rows:
        if row["count"] or row["errors"]:
            print(
                f"{label:18}{row['count']:>8}{row['per_s']:>10}{row['p50_ms']!s:>9}"
                f"{row['p99_ms']!s:>9}{row['errors']:>8}"
            )
    print(
        "CPU ms per counted request (the moves phase also creates a match now and "
        "then and, with --legal server, reads /actions):"
    )
    for label, cpu in result["cpu_ms"].items():
        print(f"  {label:8} server {cpu['server']:.3f}  redis {cpu['redis']:.3f}  client {cpu['client']:.3f}")
    print(f"Redis per counted move: {describe(result['redis_per_move'])}")
    if result["script_top_ups"]:
        print(
            f"  (clients ran out of scripted moves {result['script_top_ups']} times and played "
            "more during the phase: raise --script-moves)"
        )
    if trivial["per_s"]:
        print(f"ratio moves/s over trivial requests/s: {ratio:.2f} (issue 45's goal: >= 0.7)")
    return round(ratio, 3)


def main_observability(args):
    result = measure_observability(args)
    ratio = report_observability(args, result)
    if args.json:
        print(orjson.dumps({"args": vars(args), **result, "ratio": ratio}).decode())
    return (
        0 if all(result[k]["move"]["count"] and not result[k]["move"]["errors"] for k in ("on", "off")) else 1
    )


def main(argv=None):
    args = parse_args(argv)
    if args.against:
        return http_compare.main(args)
    if args.observability:
        return main_observability(args)
    result = measure(args)
    ratio = report(args, result)
    if args.json:
        print(orjson.dumps({"args": vars(args), **result, "ratio": ratio}).decode())
    return 0 if result["move"]["count"] and not result["move"]["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
