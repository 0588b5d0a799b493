"""``bench.http_bench --against REV``: the service's move path here and at an
earlier revision, as ratios measured in one run.

    .venv/bin/python -m bench.http_bench --against b2e2ac4 --clients 16 --duration 6 --rounds 3

Exports the whole tree of git revision REV to a temporary directory
(``bench.ladder.cost.export_tree``) and starts, beside a private
redis-server, two gunicorns of ``service:create_app()``, each with its own
tree's ``deploy/gunicorn.conf.py`` (its worker hooks are part of the service
compared) and the same environment and redis-server (each match has its
own keys): one started in
this checkout, one in the exported tree, each with its own directory as
working directory and ``PYTHONPATH``, so that it imports its own ``service``
and ``engine``. Before measuring, a probe run the same way prints where
``service`` and ``engine`` come from, and every process of each server must
have its tree as working directory; otherwise the run stops.

The clients are ``bench.move_clients``'s (all-human Anno 1503 matches, the
same moves against both trees; they are played with this checkout's engine,
so a REV whose rules differ refuses some: see the errors column). The trees
take turns in ``--rounds`` rounds of ``--duration / --rounds`` counted seconds
each, the order alternating, the rounds and their per-round rates being
``bench.scaleout_bench``'s. ``--trivial`` adds the trivial echo app as a
third server; ``--floor`` a fourth, the same app answering only after one
Redis round trip (``POST /echo/redis``), whose rate over the echo's is the
most any move that is stored before it is answered can reach here. The report gives per tree moves/s, p50/p99, errors and CPU ms
per move (server, redis-server), and the ratios this tree / REV of moves/s
and of server CPU per move: geometric mean of the per-round ratios with a
95% Student's t-interval on their logarithms (``t_interval_ratio``).
``--max-moves`` does not apply in this mode.
"""

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import orjson
import psutil

from launcher.redis_process import RedisProcess

from .harness import ROOT, Gunicorn, Phase, process_tree, summarize, unlimited_env
from .ladder.cost import export_tree
from .move_clients import RedisEchoClient, TrivialClient
from .scaleout_bench import Config, make_phases, print_table, run_rounds, t_interval_ratio

THIS_TREE = "this tree"
ECHO = "trivial (echo)"
FLOOR = "echo + 1 Redis trip"
PROBE = "import engine, service; print(service.__file__); print(engine.__file__)"


def resolve_revision(revision):
    """The commit hash of ``revision``, or None when git knows no such commit."""
    done = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip() if done.returncode == 0 else None


class Tree(Config):
    """The service of one source tree: gunicorn started in ``root`` with
    ``PYTHONPATH=root``, so that it imports that tree's packages."""

    def __init__(self, name, root, redis_server):
        env = unlimited_env(REDIS_URL=redis_server.url, RQ_REDIS_URL=redis_server.url, PYTHONPATH=str(root))
        super().__init__(name, env, [redis_server.proc.pid], [redis_server.port], root=root)
        self.service_file = None

    def check_imports(self):
        """Stop unless a probe started like the server imports ``service`` and
        ``engine`` from this tree and every server process runs in it."""
        files = imported_files(self.root, self.env)
        cwds = {Path(psutil.Process(pid).cwd()) for pid in process_tree(self.server.proc.pid)}
        if not all(f.is_relative_to(self.root) for f in files) or cwds != {self.root}:
            raise RuntimeError(f"{self.name}: imports {files}, server processes in {cwds}, not {self.root}")
        self.service_file = str(files[0])


def imported_files(root, env):
    """The files of ``service`` and ``engine`` that a Python started in ``root``
    with ``env``, as the server is, imports."""
    probe = subprocess.run([sys.executable, "-c", PROBE], cwd=root, env=env, check=True, capture_output=True)
    return [Path(line).resolve() for line in probe.stdout.decode().split()]


class Echo(Config):
    """The trivial app (``bench.trivial_app``), for scale; ``client``: the
    clients' class (``TrivialClient``: ``/echo``, ``RedisEchoClient``:
    ``/echo/redis``)."""

    kind = "echo"

    def __init__(self, name, env, redis_pids, client):
        super().__init__(name, env, redis_pids)
        self.client = client

    def start(self, args):
        self.server = Gunicorn("bench.trivial_app:create_app()", self.env, args)
        return self

    def make_phase(self, args):
        self.server.wait_healthy()
        self.phase = Phase(self.client, self.server, self.redis_pids, args)


def measure(args, old_root):
    """Both trees (and with ``--trivial`` the echo app) in alternating rounds."""
    with RedisProcess() as redis_server:
        configs = [Tree(THIS_TREE, ROOT, redis_server), Tree(args.against, old_root, redis_server)]
        configs += echo_configs(args, redis_server)
        try:
            for config in configs:
                config.start(args)
            make_phases(configs[:2], args)
            for tree in configs[:2]:
                tree.check_imports()
            for echo in configs[2:]:
                echo.make_phase(args)
            run_rounds(configs, argparse.Namespace(**vars(args), round_s=args.duration / args.rounds))
        finally:
            for config in configs:
                if config.server:
                    config.server.stop()
    return results(configs)


def echo_configs(args, redis_server):
    """The trivial app's servers that ``--trivial`` and ``--floor`` ask for."""
    pids = [redis_server.proc.pid]
    echoes = [Echo(ECHO, dict(os.environ), pids, TrivialClient)] if args.trivial else []
    if args.floor:
        echoes.append(Echo(FLOOR, dict(os.environ, REDIS_URL=redis_server.url), pids, RedisEchoClient))
    return echoes


def results(configs):
    """Per server its summary and per-round figures; the ratios this tree / REV."""
    out = {"servers": {}}
    for config in configs:
        phase = config.phase
        out["servers"][config.name] = {
            **summarize(phase.recorders, phase.counted_s, config.kind),
            "cpu_ms": phase.cpu_ms_per_request(),
            "redis_per_move": phase.redis_per_request(),
            "round_rates": [round(r, 1) for r in config.rates],
            "round_cpu_ms": [round(c, 5) for c in config.cpu_ms],
            "service_file": getattr(config, "service_file", None),
        }
    new, old = configs[0], configs[1]
    for key, measure_ in (("moves_per_s", "rates"), ("server_cpu_per_move", "cpu_ms")):
        interval = t_interval_ratio(getattr(new, measure_), getattr(old, measure_))
        out[key] = [round(x, 3) for x in interval] if interval else None
    if len(configs) > 2:  # --trivial: each one's requests/s over the echo's, round by round
        for other in (new, old, *configs[3:]):
            interval = t_interval_ratio(other.rates, configs[2].rates)
            out["servers"][other.name]["over_trivial"] = [round(x, 3) for x in interval] if interval else None
    out["script_top_ups"] = sum(getattr(c.player, "top_ups", 0) for c in new.phase.clients)
    return out


def report(args, result):
    print(
        f"\nthis tree ({ROOT}) against {args.against} ({args.against_commit[:12]}): "
        f"clients={args.clients} gunicorn={args.workers} workers x {args.threads} threads "
        f"legal={args.legal}, {args.rounds} rounds x {args.duration / args.rounds:.1f} s per server, "
        f"order alternating (load average now {os.getloadavg()[0]:.1f})"
    )
    for name, row in result["servers"].items():
        if row["service_file"]:
            print(f"  {name}: service from {row['service_file']}")
    print_table(result["servers"])
    print_ratios(args, result)
    if result["script_top_ups"]:
        print(f"  (clients ran out of scripted moves {result['script_top_ups']} times: raise --script-moves)")


def print_ratios(args, result):
    print(
        f"ratio this tree / {args.against} (geometric mean of the per-round ratios, "
        f"95% Student's t-interval over {args.rounds} rounds):"
    )
    for label, key in (("moves/s", "moves_per_s"), ("server CPU per move", "server_cpu_per_move")):
        ratio = result[key]
        text = f"{ratio[0]:.3f}  [{ratio[1]:.3f}, {ratio[2]:.3f}]" if ratio else "n/a (needs 2 rounds)"
        print(f"  {label:22}{text}")
    print("  (moves/s above 1: this tree serves more; CPU per move below 1: it spends less)")
    trivial = result["servers"].get(ECHO)
    if trivial and trivial["per_s"]:
        print("requests/s over trivial requests/s (whole run; per-round geometric mean [95% interval]):")
        for name, row in [(n, r) for n, r in result["servers"].items() if n != ECHO]:
            paired = row.get("over_trivial")
            rounds = f"{paired[0]:.3f}  [{paired[1]:.3f}, {paired[2]:.3f}]" if paired else "n/a"
            print(f"  {name:22}{row['per_s'] / trivial['per_s']:.2f}; {rounds}")


def main(args):
    """Runs the comparison for ``http_bench.main``; the exit status."""
    with tempfile.TemporaryDirectory(prefix="tabula-bench-against-") as scratch:
        old_root = export_tree(args.against_commit, Path(scratch), paths=())
        result = measure(args, old_root)
    report(args, result)
    if args.json:
        print(orjson.dumps({"args": vars(args), **result}).decode())
    trees = list(result["servers"].values())[:2]
    return 0 if all(row["count"] and not row["errors"] for row in trees) else 1
