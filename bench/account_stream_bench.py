"""Account-stream benchmark: one ``GET /v1/account/stream`` per account.

    .venv/bin/python -m bench.account_stream_bench --accounts 1000

It starts a private redis-server and gunicorn with deploy/gunicorn.conf.py
(the gevent worker, ``--workers`` processes), with rate limits and the
sign-up limit off (``SIGNUP_RATE_LIMIT=0``). Then, in this order:

1. ``--accounts`` accounts sign up (``POST /v1/accounts``, one token each);
2. one NDJSON account stream per account is opened (one asyncio
   process-thread, raw sockets, as bench/stream_bench.py); gunicorn
   workers' RSS and Redis' CLIENT LIST are read before and after: memory per
   stream is the RSS delta / streams, and Redis connections must not grow;
3. accounts 2k and 2k+1 get a match of two seats: created with the
   first's token (one human seat, one open), joined with the second's
   (both seats bound to accounts);
4. live: ``--movers`` threads post legal moves (``end_turn`` preferred, so
   turns change hands) with the account tokens at about ``--move-rate``
   moves/s for ``--live-s`` seconds. Every ``your_turn`` a move hands to the
   other account is timed from the moment that POST was sent to its
   delivery on the other account's stream (an upper bound: it includes the
   POST's own time).

Everything runs on one machine: the client's CPU is taken from the server's.
"""

import argparse
import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import orjson
import redis

from launcher.redis_process import RedisProcess

from .harness import Gunicorn, Http, rss_kb, unlimited_env
from .stream_bench import Mover, Streams, live_phase, pct, worker_pids

GAME = {"game": "anno1503", "seats": [{"kind": "human"}, {"kind": "open"}]}


class AccountStreams(Streams):
    """One account stream per ``(account index, token)`` target; ``received``
    holds ``((account index, match id), version, perf_counter)`` per ``your_turn``."""

    async def _one(self, index, token):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        except OSError:
            self.failed += 1
            return
        writer.write(
            f"GET /v1/account/stream HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {token}\r\n\r\n".encode()
        )
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 200"):
                self.failed += 1
                return
            self.opened += 1
            await self._read(reader, index)
        except (OSError, asyncio.IncompleteReadError):
            self.failed += 1
        finally:
            writer.close()

    async def _read(self, reader, index):
        """Chunked NDJSON: a line holding a JSON object is a message, anything else is framing."""
        while True:
            line = await reader.readline()
            if not line:
                self.ended += 1
                return
            if line.startswith(b'{"id":"'):
                message = orjson.loads(line)
                if message["type"] == "your_turn":
                    key = (index, message["match_id"])
                    self.received.append((key, message["data"]["version"], time.perf_counter()))


class AccountMover(Mover):
    """Moves with the account tokens; awaits the ``your_turn`` of each hand-over."""

    def choose(self, actions):
        ends = [a for a in actions if a.get("type") == "end_turn"]
        return ends[0] if ends and self.rng.random() < 0.5 else self.rng.choice(actions)

    def record(self, entry, sent, reply):
        index, match_id, _, to_act = entry
        now = reply["match"]["to_act"]
        if now and to_act and now[0] != to_act[0]:
            self.sent_at[((2 * index + now[0], match_id), reply["match"]["version"])] = sent


# --- set-up ---------------------------------------------------------------------


def in_parallel(port, function, items, threads=8):
    """``function(http, item)`` for each item, over ``threads`` keep-alive connections."""
    local = threading.local()

    def call(item):
        if not hasattr(local, "http"):
            local.http = Http(port)
        return function(local.http, item)

    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(call, items))


def sign_up(port, count):
    """``count`` accounts' tokens, account ``i`` named ``bench<i>``."""

    def one(http, i):
        status, reply, _ = http.call("POST", "/v1/accounts", {"name": f"bench{i}", "kind": "human"})
        assert status == 201, reply
        return reply["token"]

    return in_parallel(port, one, range(count))


def pair_matches(port, tokens):
    """A match per pair of accounts 2k, 2k+1: ``[(k, match id, {seat: token}, to_act)]``."""

    def one(http, k):
        first, second = tokens[2 * k], tokens[2 * k + 1]
        status, reply, _ = http.call("POST", "/v1/matches", GAME, token=first)
        assert status == 201, reply
        match_id = reply["match"]["id"]
        status, joined, _ = http.call("POST", f"/v1/matches/{match_id}/join", {}, token=second)
        assert status == 201, joined
        status, match, _ = http.call("GET", f"/v1/matches/{match_id}", token=first)
        assert status == 200 and match["status"] == "active", match
        return (k, match_id, {"0": first, "1": second}, list(match["to_act"]))

    return in_parallel(port, one, range(len(tokens) // 2))


# --- the run --------------------------------------------------------------------


def run(args):
    """Start redis-server and gunicorn, measure, report; returns the figures."""
    env = unlimited_env(
        SIGNUP_RATE_LIMIT="0", STREAM_KEEPALIVE_S=str(args.keepalive_s), LOG_LEVEL="WARNING", REQUEST_LOG="0"
    )
    with RedisProcess() as redis_server:
        env.update(REDIS_URL=redis_server.url, RQ_REDIS_URL=redis_server.url)
        server = Gunicorn("service:create_app()", env, argparse.Namespace(workers=args.workers, threads=16))
        server.wait_healthy()
        client = redis.Redis.from_url(redis_server.url)
        try:
            figures = measure(server, client, args)
        finally:
            server.stop()
            client.close()
    return report(figures)


def open_streams(server, client, tokens, figures):
    figures.update(rss_before=rss_kb(worker_pids(server)), clients_before=len(client.client_list()))
    started = time.monotonic()
    streams = AccountStreams(server.port, list(enumerate(tokens)))
    streams.start()
    print(
        f"  opened {streams.opened} account streams in {time.monotonic() - started:.1f} s "
        f"({streams.failed} failed)",
        flush=True,
    )
    time.sleep(2)
    figures.update(rss_after=rss_kb(worker_pids(server)), clients_after=len(client.client_list()))
    return streams


def measure(server, client, args):
    """Steps 1-4 of the module docstring: the figures ``report`` prints."""
    started = time.monotonic()
    tokens = sign_up(server.port, args.accounts)
    print(
        f"{len(tokens)} accounts signed up in {time.monotonic() - started:.1f} s, "
        f"{args.workers} gevent workers",
        flush=True,
    )
    figures = {}
    streams = open_streams(server, client, tokens, figures)
    matches = pair_matches(server.port, tokens)
    print(f"  {len(matches)} matches of two accounts each", flush=True)
    time.sleep(1)  # their match_started and first your_turn
    figures.update(live_phase(server, matches, streams, args, AccountMover))
    figures["clients_live"] = len(client.client_list())
    streams.close()
    figures["streams"] = streams
    return figures


def report(f):
    """Print the figures; return them as plain numbers (tests/bench reads them)."""
    streams, live_s, latencies = f["streams"], f["live_s"], f["latencies"]
    out = {
        "streams": streams.opened,
        "failed": streams.failed,
        "ended": streams.ended,
        "per_stream_kb": round((f["rss_after"] - f["rss_before"]) / max(1, streams.opened), 1),
        "clients": [f["clients_before"], f["clients_after"], f["clients_live"]],
        "moves": f["moves"],
        "handoffs": f["committed"],
        "delivered": len(f["received"]),
        "events_per_s": round(len(f["received"]) / live_s, 1),
        "timed": len(latencies),
        "p50_ms": round(pct(latencies, 0.5), 1) if latencies else None,
        "p99_ms": round(pct(latencies, 0.99), 1) if latencies else None,
    }
    print()
    print(
        f"account streams open:         {out['streams']} (failed {out['failed']}, ended early {out['ended']})"
    )
    print(
        f"live phase:                   {out['moves']} moves in {live_s:.1f} s ({out['moves'] / live_s:.0f} moves/s), "
        f"{out['handoffs']} handed the turn over"
    )
    print(
        f"your_turn delivered:          {out['delivered']} ({out['events_per_s']:.0f} events/s, every account)"
    )
    if latencies:
        print(
            f"POST-to-your_turn latency:    p50 {out['p50_ms']} ms, p99 {out['p99_ms']} ms, "
            f"max {max(latencies):.1f} ms over {out['timed']} hand-overs (the other account's stream)"
        )
    print(
        f"memory per open stream:       {out['per_stream_kb']} KB  (workers' RSS {f['rss_before'] / 1024:.0f} MB"
        f" -> {f['rss_after'] / 1024:.0f} MB)"
    )
    before, idle, live = out["clients"]
    print(
        f"Redis connections:            {before} without streams, {idle} with {out['streams']} idle, "
        f"{live} while live  (goal: independent of the streams)"
    )
    return out


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--accounts", "--streams", type=int, default=1000, help="accounts = streams (even)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn (gevent) workers")
    parser.add_argument("--movers", type=int, default=4, help="threads posting live moves")
    parser.add_argument("--move-rate", type=float, default=100.0, help="live moves/s, all movers")
    parser.add_argument("--live-s", type=float, default=20.0, help="seconds of live moves")
    parser.add_argument("--keepalive-s", type=float, default=5.0, help="the server's STREAM_KEEPALIVE_S")
    return parser.parse_args(argv)


if __name__ == "__main__":
    run(parse_args())
