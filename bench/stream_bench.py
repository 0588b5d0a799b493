"""Event-stream benchmark: thousands of open streams on gunicorn + gevent.

    .venv/bin/python -m bench.stream_bench --streams 2000 --matches 200

It starts a private redis-server and gunicorn with deploy/gunicorn.conf.py
(the gevent worker, ``--workers`` processes) and creates ``--matches`` Anno 1503
matches of two human seats. Then, in this order:

1. moves/s of the benchmarks' move clients (bench/move_clients.py) (their own matches, every
   move a real accepted POST) with no stream open;
2. ``--streams`` SSE streams are opened (one asyncio process-thread, raw
   sockets), spread over the matches, each a spectator or one of the seats;
   gunicorn workers' RSS and Redis' CLIENT LIST are read before and after;
3. the same moves/s with every stream open and idle (their matches get no
   moves): the ratio to 1. is the cost of idle streams;
4. live: ``--movers`` threads post random legal moves in the streamed matches
   at about ``--move-rate`` moves/s for ``--live-s`` seconds; every event
   each stream receives is timed: events delivered per second and
   commit-to-delivery latency, measured from the moment the POST that
   committed it was sent (an upper bound: it includes the POST's own time).

Everything runs on one machine: the client's CPU is taken from the server's.
"""

import argparse
import asyncio
import random
import threading
import time

import redis

from launcher.redis_process import RedisProcess

from . import http_bench
from .harness import Gunicorn, Http, Phase, process_tree, rss_kb, summarize, unlimited_env
from .move_clients import MoveClient


def worker_pids(server):
    return [pid for pid in process_tree(server.proc.pid) if pid != server.proc.pid]


# --- the stream clients (asyncio, in a thread of their own) ---------------------


class Streams:
    def __init__(self, port, targets):
        self.port = port
        self.targets = targets  # [(match index, match id, token or None)]
        self.received = []  # (match index, seq, perf_counter) per event per stream
        self.opened = 0
        self.failed = 0
        self.ended = 0
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.stop = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self.thread.start()
        self.ready.wait()

    def _run(self):
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._main())

    async def _main(self):
        self.stop = asyncio.Event()
        tasks = []
        for index, target in enumerate(self.targets):
            tasks.append(asyncio.ensure_future(self._one(*target)))
            if index % 100 == 99:
                await asyncio.sleep(0.05)  # do not flood the listen backlog
        while self.opened + self.failed < len(self.targets):
            await asyncio.sleep(0.05)
        self.ready.set()
        await self.stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _one(self, index, match_id, token):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        except OSError:
            self.failed += 1
            return
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        writer.write(
            (
                f"GET /v1/matches/{match_id}/stream HTTP/1.1\r\nHost: bench\r\n"
                f"Accept: text/event-stream\r\n{auth}\r\n"
            ).encode()
        )
        first = True
        received = self.received
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 200"):
                self.failed += 1
                return
            while True:
                line = await reader.readline()
                if not line:
                    self.ended += 1
                    return
                if first and line.startswith(b"event: match"):
                    first = False
                    self.opened += 1
                elif line.startswith(b"id: "):
                    received.append((index, int(line[4:]), time.perf_counter()))
        except (OSError, asyncio.IncompleteReadError):
            self.failed += 1
        finally:
            writer.close()

    def close(self):
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(30)


# --- moves in the streamed matches ---------------------------------------------


class Mover(threading.Thread):
    """Random legal moves in its matches, round robin, at about ``rate`` moves/s."""

    def __init__(self, port, matches, rate, until, sent_at):
        super().__init__(daemon=True)
        self.http = Http(port)
        self.matches = matches  # [(index, match id, tokens, to_act)]
        self.interval = 1.0 / rate if rate > 0 else 0.0
        self.until = until
        self.sent_at = sent_at  # (match index, seq) -> perf_counter of the POST
        self.moves = 0
        self.rng = random.Random(len(matches))

    def run(self):
        next_at = time.perf_counter()
        while time.monotonic() < self.until:
            for entry in self.matches:
                if time.monotonic() >= self.until:
                    return
                delay = next_at - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
                next_at += self.interval
                self._move(entry)

    def _move(self, entry):
        _, match_id, tokens, to_act = entry
        if not to_act:
            return
        token = tokens[str(to_act[0])]
        status, listed, _ = self.http.call("GET", f"/v1/matches/{match_id}/actions", token=token)
        if status != 200 or not listed["actions"]:
            status, match, _ = self.http.call("GET", f"/v1/matches/{match_id}")
            entry[3][:] = match["to_act"] if status == 200 else []
            return
        sent = time.perf_counter()
        status, reply, _ = self.http.call(
            "POST",
            f"/v1/matches/{match_id}/actions",
            {"action": self.choose(listed["actions"]), "version": listed["version"]},
            token=token,
        )
        if status == 200:
            self.moves += 1
            self.record(entry, sent, reply)
            entry[3][:] = reply["match"]["to_act"]

    def choose(self, actions):
        return self.rng.choice(actions)

    def record(self, entry, sent, reply):
        """Note when the POST that committed each awaited event was sent."""
        for event in reply["events"]:
            self.sent_at[(entry[0], event["seq"])] = sent


# --- the run --------------------------------------------------------------------


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] if values else None


def move_phase(server, redis_pid, args, label):
    bench_args = http_bench.parse_args(
        [
            "--clients",
            str(args.move_clients),
            "--seed",
            str(args.seed),
            "--players",
            "4",
            "--workers",
            str(args.workers),
        ]
    )
    phase = Phase(MoveClient, server, redis_pid, bench_args)
    phase.run_round(1.0, args.move_s, 10**9)
    result = summarize(phase.recorders, phase.counted_s, "move")
    print(
        f"  moves, {label}: {result['per_s']} moves/s, p50 {result['p50_ms']} ms, "
        f"p99 {result['p99_ms']} ms, errors {result['errors']}",
        flush=True,
    )
    return result["per_s"]


def run(args):
    env = unlimited_env(STREAM_KEEPALIVE_S="15", LOG_LEVEL="WARNING", REQUEST_LOG="0")
    with RedisProcess() as redis_server:
        env.update(REDIS_URL=redis_server.url, RQ_REDIS_URL=redis_server.url)
        bench_args = argparse.Namespace(workers=args.workers, threads=16)
        server = Gunicorn("service:create_app()", env, bench_args).wait_healthy()
        client = redis.Redis.from_url(redis_server.url)
        try:
            figures = measure(server, redis_server.proc.pid, client, args)
        finally:
            server.stop()
            client.close()
    report(figures)


def create_matches(port, count):
    """``count`` two-seat human matches: ``[(index, match id, tokens, to_act)]``."""
    http = Http(port)
    matches = []
    for index in range(count):
        status, reply, _ = http.call(
            "POST",
            "/v1/matches",
            {"game": "anno1503", "seats": [{"kind": "human"}, {"kind": "human"}]},
        )
        assert status == 201, reply
        matches.append((index, reply["match"]["id"], reply["tokens"], list(reply["match"]["to_act"])))
    return matches


def stream_targets(matches, count):
    """``count`` streams spread over the matches, as a spectator or either seat."""
    viewers = [None, "0", "1"]
    targets = []
    for i in range(count):
        index, match_id, tokens, _ = matches[i % len(matches)]
        viewer = viewers[(i // len(matches)) % 3]
        targets.append((index, match_id, tokens[viewer] if viewer else None))
    return targets


def measure(server, redis_pid, client, args):
    """Steps 1-4 of the module docstring: the figures ``report`` prints."""
    matches = create_matches(server.port, args.matches)
    print(f"{args.matches} matches, {args.streams} streams, {args.workers} gevent workers", flush=True)
    figures = {"before_moves": move_phase(server, redis_pid, args, "no stream open")}
    time.sleep(1)
    figures.update(rss_before=rss_kb(worker_pids(server)), clients_before=len(client.client_list()))
    started = time.monotonic()
    streams = Streams(server.port, stream_targets(matches, args.streams))
    streams.start()
    print(
        f"  opened {streams.opened} streams in {time.monotonic() - started:.1f} s ({streams.failed} failed)",
        flush=True,
    )
    time.sleep(2)
    figures.update(rss_after=rss_kb(worker_pids(server)), clients_after=len(client.client_list()))
    figures["idle_moves"] = move_phase(server, redis_pid, args, f"{streams.opened} idle streams open")
    figures.update(live_phase(server, matches, streams, args))
    figures["clients_live"] = len(client.client_list())
    streams.close()
    figures["streams"] = streams
    return figures


def live_phase(server, matches, streams, args, mover_class=Mover):
    """Moves in the streamed matches; every event delivered, timed from its POST."""
    sent_at = {}
    until = time.monotonic() + args.live_s
    per_mover = [matches[i :: args.movers] for i in range(args.movers)]
    movers = [
        mover_class(server.port, chunk, args.move_rate / args.movers, until, sent_at) for chunk in per_mover
    ]
    mark = len(streams.received)
    live_started = time.perf_counter()
    for mover in movers:
        mover.start()
    for mover in movers:
        mover.join()
    time.sleep(1.0)  # the last deliveries
    received = streams.received[mark:]
    return {
        "live_s": time.perf_counter() - live_started,
        "received": received,
        "latencies": [(t - sent_at[(i, seq)]) * 1000 for i, seq, t in received if (i, seq) in sent_at],
        "moves": sum(m.moves for m in movers),
        "committed": len(sent_at),
    }


def report(f):
    streams, live_s, received, latencies = f["streams"], f["live_s"], f["received"], f["latencies"]
    per_stream_kb = (f["rss_after"] - f["rss_before"]) / max(1, streams.opened)
    print()
    print(
        f"streams open:                 {streams.opened} (failed {streams.failed}, "
        f"ended early {streams.ended})"
    )
    print(
        f"live phase:                   {f['moves']} moves in {live_s:.1f} s "
        f"({f['moves'] / live_s:.0f} moves/s), {f['committed']} events committed"
    )
    print(f"events delivered:             {len(received)} ({len(received) / live_s:.0f} events/s)")
    if latencies:
        print(
            f"commit-to-delivery latency:   p50 {pct(latencies, 0.5):.1f} ms, "
            f"p99 {pct(latencies, 0.99):.1f} ms, max {max(latencies):.1f} ms  (goal p99 <= 250 ms)"
        )
    print(
        f"memory per open stream:       {per_stream_kb:.1f} KB  (workers' RSS {f['rss_before'] / 1024:.0f} MB"
        f" -> {f['rss_after'] / 1024:.0f} MB; goal <= 64 KB)"
    )
    print(
        f"Redis connections:            {f['clients_before']} without streams, {f['clients_after']} with "
        f"{streams.opened} idle, {f['clients_live']} while live  (goal: independent of the streams)"
    )
    ratio = f["idle_moves"] / f["before_moves"] if f["before_moves"] else 0
    print(
        f"moves/s (move clients):       {f['before_moves']} without streams, {f['idle_moves']} with "
        f"{streams.opened} idle streams: ratio {ratio:.2f}  (goal >= 0.9)"
    )


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn (gevent) workers")
    parser.add_argument("--movers", type=int, default=4, help="threads posting live moves")
    parser.add_argument("--move-rate", type=float, default=100.0, help="live moves/s, all movers")
    parser.add_argument("--live-s", type=float, default=20.0, help="seconds of live moves")
    parser.add_argument("--move-clients", type=int, default=16, help="move clients (bench/move_clients.py)")
    parser.add_argument("--move-s", type=float, default=10.0, help="counted seconds per move phase")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


if __name__ == "__main__":
    run(parse_args())
