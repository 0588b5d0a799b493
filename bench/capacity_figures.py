"""The measured figures behind the capacity model of docs/operations.md.

    .venv/bin/python -m bench.capacity_figures
    .venv/bin/python -m bench.capacity_figures --move-s 10 --ai-batch-s 25 --json

On free loopback ports it starts a data redis-server, a queue redis-server,
gunicorn serving the service (bench/harness.py's Gunicorn) and RQ workers
(``python -m service.worker``), then measures:

1. moves: bench/move_clients.py's clients post accepted moves (all-human Anno 1503
   matches, moves scripted beforehand) for ``--move-s`` seconds; from the
   data Redis's ``INFO commandstats`` and ``INFO stats``
   (``total_net_input_bytes``, ``total_net_output_bytes``) and the CPU time
   of gunicorn's processes (psutil): Redis commands, bytes in and out and
   CPU per accepted move;
2. AI: for each game and level, ``--ai-matches`` matches with the level in
   every seat, played by the workers for at most ``--ai-batch-s`` seconds;
   the workers' CPU time per AI decision (the whole job: load, view, choose,
   commit, chain), the queue Redis's commands per decision, the match
   lengths of those that finished, and every half second the memory of each
   match's keys (``MEMORY USAGE ... SAMPLES 0`` of its hash, events and
   actions) against its number of actions: a least-squares line gives bytes
   per match at any length, and the finished matches give bytes per
   finished match;
3. ``hard``: its CPU per decision (a fixed count of simulations) from
   ``--hard-decisions`` decisions timed in this process with the engine;
4. the model (``bench.capacity_model``): the figures above applied to the
   load of ``--matches`` concurrent matches and ``--moves-per-s`` moves per
   second, with the assumptions printed beside it.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

import orjson
import redis

import engine
from launcher.redis_process import RedisProcess
from service.storage.keys import actions_key, events_key, match_key, record_key

from .capacity_model import model
from .harness import ROOT, Gunicorn, Http, Phase, cpu_seconds, process_tree, unlimited_env
from .move_clients import MoveClient

GAMES = {"anno1503": {}, "anno1452": {}}  # default options, 4 seats
LEVELS = ("random", "easy", "medium")


# --- Redis counters ----------------------------------------------------------


def redis_counters(client):
    """``{"commands": {name: calls}, "in": bytes, "out": bytes, "cpu": s}`` so far."""
    stats, cpu = client.info("stats"), client.info("cpu")
    commands = {
        name.removeprefix("cmdstat_"): value["calls"] for name, value in client.info("commandstats").items()
    }
    return {
        "commands": commands,
        "in": stats["total_net_input_bytes"],
        "out": stats["total_net_output_bytes"],
        "cpu": cpu["used_cpu_sys"] + cpu["used_cpu_user"],
    }


def counter_delta(before, after):
    """What happened between two ``redis_counters``, the probes' own INFO calls left out."""
    commands = {
        name: calls - before["commands"].get(name, 0)
        for name, calls in after["commands"].items()
        if name != "info"
    }
    return {
        "commands": {n: c for n, c in commands.items() if c},
        "in": after["in"] - before["in"],
        "out": after["out"] - before["out"],
        "cpu": after["cpu"] - before["cpu"],
    }


def per(delta, n):
    """A ``counter_delta`` divided by ``n`` (moves or decisions)."""
    return {
        "commands": round(sum(delta["commands"].values()) / n, 2),
        "by_command": {k: round(v / n, 2) for k, v in sorted(delta["commands"].items())},
        "bytes_in": round(delta["in"] / n),
        "bytes_out": round(delta["out"] / n),
        "redis_cpu_ms": round(1000 * delta["cpu"] / n, 3),
    }


# --- 1. moves -----------------------------------------------------------------


def measure_moves(gunicorn, data, args):
    move_args = argparse.Namespace(
        clients=args.clients, legal="script", players=4, seed=args.seed, script_moves=int(300 * args.move_s)
    )
    phase = Phase(MoveClient, gunicorn, data.proc.pid, move_args)
    phase.run_round(0.5, 1.0, 10**9)  # matches created, connections and caches warm
    moves_before = _moves(phase)
    cpu_before = dict(phase.cpu.used)
    before = redis_counters(data.client)
    phase.run_round(0.0, args.move_s, 10**9)
    delta = counter_delta(before, redis_counters(data.client))
    moves = _moves(phase) - moves_before
    api_s = phase.cpu.used["server"] - cpu_before["server"]
    return {
        "moves": moves,
        "seconds": args.move_s,
        **per(delta, moves),
        "api_cpu_ms": round(1000 * api_s / moves, 3),
        "errors": sum(sum(r.errors.values()) for r in phase.recorders),
    }


def _moves(phase):
    return sum(len(r.latencies.get("move", [])) for r in phase.recorders)


# --- 2. AI decisions and memory -------------------------------------------------

KEY_KINDS = ("hash", "events", "actions", "record")  # the hot keys, then the archive record


def match_key_bytes(client, match_id):
    """``({kind: bytes} of a match's own keys, its action count)``."""
    pipe = client.pipeline(transaction=False)
    for key in (match_key(match_id), events_key(match_id), actions_key(match_id), record_key(match_id)):
        pipe.memory_usage(key, samples=0)
    pipe.llen(actions_key(match_id))
    *sizes, actions = pipe.execute()
    return dict(zip(KEY_KINDS, (size or 0 for size in sizes), strict=True)), actions


def match_bytes(client, match_id):
    """Bytes of a match's hot keys (hash, events, actions) and its action count."""
    sizes, actions = match_key_bytes(client, match_id)
    return sum(sizes[kind] for kind in KEY_KINDS[:3]), actions


def create_ai_match(http, game_id, level, seed):
    body = {
        "game": game_id,
        "seed": seed,
        "dice": "reproducible",
        "seats": [{"kind": "ai", "level": level, "name": f"{level}{i}"} for i in range(4)],
    }
    status, reply, _ = http.call("POST", "/v1/matches", body)
    if status != 201:
        raise RuntimeError(f"POST /v1/matches -> {status}: {reply}")
    return reply["match"]["id"]


def sample_until_finished(client, ids, seconds):
    """Every half second, the bytes and actions of each unfinished match
    (``samples``), until all are finished or ``seconds`` have passed:
    ``(samples, {match id: (actions, bytes) at its end})``."""
    samples, finished = [], {}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and len(finished) < len(ids):
        time.sleep(0.5)
        for match_id in ids:
            if match_id in finished:
                continue
            size, actions = match_bytes(client, match_id)
            status = orjson.loads(client.hget(match_key(match_id), "doc"))["status"]
            if status == "finished":
                finished[match_id] = (actions, size)
            elif actions:
                samples.append((actions, size))
    return samples, finished


def measure_ai_batch(http, data, queue, worker_pids, game_id, level, args):
    """One game and level: CPU and queue commands per decision, lengths, memory samples."""
    cpu_before, queue_before = cpu_seconds(worker_pids), redis_counters(queue.client)
    ids = [create_ai_match(http, game_id, level, args.seed + i) for i in range(args.ai_matches)]
    samples, finished = sample_until_finished(data.client, ids, args.ai_batch_s)
    decisions = sum(data.client.llen(actions_key(m)) for m in ids)
    cpu = cpu_seconds(worker_pids) - cpu_before
    queue_delta = counter_delta(queue_before, redis_counters(queue.client))
    # The unfinished matches go, so neither their queued jobs nor the
    # sweeper's recovery of them is counted in the next batch.
    queue.client.delete("rq:queue:ai")
    for match_id in set(ids) - set(finished):
        data.client.delete(match_key(match_id), events_key(match_id), actions_key(match_id))
    time.sleep(1.5)  # a job under way ends (AI_CHAIN_BUDGET_S)
    by_key = [match_key_bytes(data.client, m)[0] for m in finished]
    return {
        "game": game_id,
        "level": level,
        "matches": len(ids),
        "finished": len(finished),
        "finished_bytes_by_key": {
            kind: round(statistics.fmean(k[kind] for k in by_key)) for kind in KEY_KINDS
        }
        if by_key
        else None,
        "decisions": decisions,
        "worker_cpu_ms": round(1000 * cpu / max(decisions, 1), 3),
        "queue_commands": round(sum(queue_delta["commands"].values()) / max(decisions, 1), 2),
        "lengths": sorted(a for a, _ in finished.values()),
        "finished_bytes": sorted(b for _, b in finished.values()),
        "record_bytes": sorted(k["record"] for k in by_key),
        "samples": samples,
    }


def fit_bytes(samples):
    """Least squares ``bytes = base + per_action * actions``: ``(base, per_action)``."""
    xs, ys = [a for a, _ in samples], [b for _, b in samples]
    if len(set(xs)) < 2:
        return None
    slope, intercept = statistics.linear_regression(xs, ys)
    return round(intercept), round(slope, 1)


def start_workers(data_url, queue_url, count):
    env = dict(
        os.environ,
        REDIS_URL=data_url,
        RQ_REDIS_URL=queue_url,
        LOGLEVEL="WARNING",
        REQUEST_LOG="0",
        METRICS="0",
    )
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    return [
        subprocess.Popen(
            [sys.executable, "-m", "service.worker"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(count)
    ]


# --- 3. hard ----------------------------------------------------------------------


def measure_hard(game_id, decisions, seed):
    """CPU seconds of ``hard``'s first ``decisions`` decisions with more than
    one legal action, in a 4-seat match of ``game_id`` (the others: medium)."""
    game = engine.get_game(game_id)
    hard, medium = engine.ai.get_player("hard"), engine.ai.get_player("medium")
    state = game.setup(4, {}, seed)
    times = []
    for step in range(100_000):
        if game.outcome(state) is not None or len(times) >= decisions:
            break
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        view = game.view(state, seat)
        if seat == 0 and len(actions) > 1:
            started = time.process_time()
            action = hard.choose(game, seat, view, actions, seed=step)
            times.append(time.process_time() - started)
        else:
            action = medium.choose(game, seat, view, actions, seed=step)
        state, _ = game.apply(state, seat, action)
    return {
        "game": game_id,
        "decisions": len(times),
        "cpu_ms_mean": round(1000 * statistics.fmean(times), 1) if times else None,
    }


# --- main ------------------------------------------------------------------------------


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--move-s", type=float, default=10.0, help="counted seconds of moves")
    parser.add_argument("--ai-matches", type=int, default=4, help="matches per game and level")
    parser.add_argument("--ai-batch-s", type=float, default=25.0, help="seconds per game and level")
    parser.add_argument("--ai-workers", type=int, default=2, help="RQ worker processes")
    parser.add_argument("--hard-decisions", type=int, default=30)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=16, help="gunicorn threads per worker")
    parser.add_argument("--seed", type=int, default=1)
    model_args = parser.add_argument_group("the model's assumptions")
    model_args.add_argument("--matches", type=int, default=10_000, help="concurrent matches")
    model_args.add_argument("--moves-per-s", type=float, default=1000.0, help="moves/s, human and AI")
    model_args.add_argument("--ai-share", type=float, default=0.5, help="share of moves made by AI seats")
    model_args.add_argument("--mix-easy", type=float, default=0.3)
    model_args.add_argument("--mix-medium", type=float, default=0.6)
    model_args.add_argument("--mix-hard", type=float, default=0.1)
    model_args.add_argument(
        "--match-length",
        type=int,
        default=None,
        help="actions per match (default: the median of the medium AI's matches)",
    )
    model_args.add_argument("--cores-per-node", type=int, default=4)
    model_args.add_argument("--target-utilization", type=float, default=0.6)
    model_args.add_argument(
        "--shard-memory-gb", type=float, default=25.0, help="usable memory of one Redis shard"
    )
    model_args.add_argument("--hot-ttl-s", type=int, default=900, help="FINISHED_MATCH_TTL_S")
    parser.add_argument("--json", action="store_true")
    return parser.parse_args(argv)


def measure(args):
    with RedisProcess() as data, RedisProcess() as queue:
        data.client = redis.Redis.from_url(data.url)
        queue.client = redis.Redis.from_url(queue.url)
        env = unlimited_env(REDIS_URL=data.url, RQ_REDIS_URL=queue.url, REQUEST_LOG="0")
        gunicorn = Gunicorn("service:create_app()", env, args).wait_healthy()
        workers = start_workers(data.url, queue.url, args.ai_workers)
        try:
            figures = {"moves": measure_moves(gunicorn, data, args)}
            print(f"moves: {figures['moves']}", flush=True)
            time.sleep(2)
            worker_pids = [pid for w in workers for pid in process_tree(w.pid)]
            http = Http(gunicorn.port)
            figures["ai"] = []
            for game_id in GAMES:
                for level in LEVELS:
                    batch = measure_ai_batch(http, data, queue, worker_pids, game_id, level, args)
                    print(f"ai: { {k: v for k, v in batch.items() if k != 'samples'} }", flush=True)
                    figures["ai"].append(batch)
        finally:
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.wait(30)
            gunicorn.stop()
    return figures


def summarize_memory(figures):
    samples = [s for b in figures["ai"] for s in b["samples"]]
    finished = [
        (a, b)
        for batch in figures["ai"]
        for a, b in zip(batch["lengths"], batch["finished_bytes"], strict=True)
    ]
    records = sorted(r for batch in figures["ai"] for r in batch["record_bytes"])
    return {
        "samples": len(samples),
        "fit": fit_bytes(samples + finished),
        "finished": finished,
        "record_median": statistics.median(records) if records else 0,
        "record_p99": records[min(len(records) - 1, round(0.99 * (len(records) - 1)))] if records else 0,
    }


def main(argv=None):
    args = parse_args(argv)
    started = time.monotonic()
    figures = measure(args)
    figures["hard"] = measure_hard("anno1503", args.hard_decisions, args.seed)
    print(f"hard: {figures['hard']}")
    figures["memory"] = summarize_memory(figures)
    decisions = sum(b["decisions"] for b in figures["ai"])
    figures["queue_commands_per_decision"] = round(
        sum(b["queue_commands"] * b["decisions"] for b in figures["ai"]) / max(decisions, 1), 2
    )
    result = model(figures, args)
    report(figures, result)
    print(f"wall time {time.monotonic() - started:.0f} s (load average now {os.getloadavg()[0]:.1f})")
    if args.json:
        for batch in figures["ai"]:
            batch.pop("samples")
        print(orjson.dumps({"figures": figures, "model": result}).decode())
    return 0


def report(figures, result):
    moves = figures["moves"]
    print(
        f"\nper accepted move ({moves['moves']} moves in {moves['seconds']:.0f} s, "
        f"{moves['errors']} errors): {moves['commands']} Redis commands {moves['by_command']}, "
        f"{moves['bytes_in']} B in, {moves['bytes_out']} B out, Redis CPU {moves['redis_cpu_ms']} ms, "
        f"API CPU {moves['api_cpu_ms']} ms"
    )
    print(
        f"{'game':10}{'level':8}{'matches':>8}{'done':>6}{'decisions':>10}{'CPU ms/dec':>12}"
        f"{'queue cmds/dec':>16}  lengths / finished bytes"
    )
    for b in figures["ai"]:
        print(
            f"{b['game']:10}{b['level']:8}{b['matches']:>8}{b['finished']:>6}{b['decisions']:>10}"
            f"{b['worker_cpu_ms']:>12}{b['queue_commands']:>16}  {b['lengths']} / {b['finished_bytes']}"
        )
        print(f"{'':18}mean bytes of a finished match by key: {b['finished_bytes_by_key']}")
        print(f"{'':18}archive record bytes (MEMORY USAGE): {b['record_bytes']}")
    memory = figures["memory"]
    print(
        f"hard: {figures['hard']['cpu_ms_mean']} ms CPU per decision (engine only, "
        f"{figures['hard']['decisions']} decisions)"
    )
    print(
        f"memory of a match's keys: bytes = {memory['fit'][0]} + {memory['fit'][1]} x actions "
        f"(least squares over {memory['samples']} samples and {len(memory['finished'])} finished matches)"
    )
    print(f"\nmodel: {orjson.dumps(result, option=orjson.OPT_INDENT_2).decode()}")


if __name__ == "__main__":
    sys.exit(main())
