"""A shard that loses its replica under load, with REDIS_WAIT_REPLICAS=1
(issue 44's measurement, with the refusals before writing counted).

A private 3 + 3 Redis Cluster (node timeout 1 s), gunicorn on it; CLIENTS
threads each play their own all-human Anno 1503 match (both seats), every
move posted with an Idempotency-Key and, on a 503 or a broken connection,
sent again with the same key after its ``Retry-After`` (at most
``--retry-cap-s``) or 0.1 s, until answered otherwise. After ``--before-s``
the primary holding the first client's match is killed (SIGKILL); its
replica takes over and has no replica left for ``--degraded-s``; then the
killed node is started again (it rejoins as the promoted node's replica) and
the clients play ``--after-s`` more.

Printed: moves acknowledged (2xx) by phase and shard, lost (acknowledged
but not in the match's action list, what its replay serves, at their
version), applied twice (a version acknowledged twice, or the list holding a
move no client was told of),
the moves stored on the killed shard while it had no replica (from 1 s after
the promotion to the node's restart), and the 503s by kind:
``not_enough_replicas`` (refused before writing),
``unavailable`` with ``required_replicas`` (stored, fewer replicas
confirmed), other ``unavailable`` (the failover itself).

    .venv/bin/python -m bench.lost_replica_bench                 # this tree, about 1 minute
    .venv/bin/python -m bench.lost_replica_bench --against 4b959df  # another revision's service, same load

(``--against`` runs that revision's code with this checkout's virtualenv:
a revision that needs other packages fails to start.)
"""

import argparse
import http.client
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from contextlib import ExitStack
from pathlib import Path

import orjson
from redis.cluster import ClusterNode, RedisCluster

from launcher.redis_process import RedisProcess
from service.storage.keys import actions_key, match_key

from .harness import ROOT, Gunicorn, unlimited_env
from .redis_topologies import ClusterServers, node_client, wait_for

HTTP_TIMEOUT_S = 15


class Player(threading.Thread):
    """One client playing both seats of its own match."""

    def __init__(self, port, seed, stop, retry_cap_s):
        super().__init__(daemon=True)
        self.port, self.rng, self.stop, self.retry_cap_s = port, random.Random(seed), stop, retry_cap_s
        self.conn = None
        self.posts = []  # (started, seconds, status, error code, stored-unconfirmed?)
        self.accepted = []  # (version, action)
        self.match_id, self.tokens = self._create(seed)

    def call(self, method, path, body=None, token=None, key=None):
        """``(status or "error", headers, body, seconds)``."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if key:
            headers["Idempotency-Key"] = key
        started = time.monotonic()
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HTTP_TIMEOUT_S)
            self.conn.request(method, path, orjson.dumps(body) if body is not None else None, headers)
            response = self.conn.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = None
            return "error", {}, {}, time.monotonic() - started
        return (
            response.status,
            dict(response.getheaders()),
            orjson.loads(raw) if raw else {},
            (time.monotonic() - started),
        )

    def _create(self, seed):
        body = {
            "game": "anno1503",
            "seed": seed,
            "dice": "reproducible",
            "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}],
        }
        status, _, reply, _ = self.call("POST", "/v1/matches", body)
        assert status == 201, (status, reply)
        return reply["match"]["id"], {int(seat): token for seat, token in reply["tokens"].items()}

    def run(self):
        base = f"/v1/matches/{self.match_id}"
        while not self.stop.is_set():
            status, _, match, _ = self.call("GET", base)
            if status != 200 or not match["to_act"]:
                time.sleep(0.1)
                continue
            token = self.tokens[match["to_act"][0]]
            status, _, listed, _ = self.call("GET", f"{base}/actions", token=token)
            if status != 200 or not listed["actions"]:
                time.sleep(0.1)
                continue
            action = self.rng.choice(listed["actions"])
            self._post(base, token, {"action": action, "version": listed["version"]})

    def _post(self, base, token, body):
        """Send one move until it is answered other than 503 (same key)."""
        key = str(uuid.uuid4())
        while True:
            status, headers, reply, seconds = self.call("POST", f"{base}/actions", body, token, key)
            details = reply.get("details") or {}
            code = reply.get("error") if status != 200 else None
            self.posts.append(
                (time.monotonic() - seconds, seconds, status, code, "required_replicas" in details)
            )
            if status == 200:
                self.accepted.append((reply["version"], body["action"]))
                return
            if status not in (503, "error"):
                return
            retry_after = float(headers.get("Retry-After", 0.1))
            time.sleep(min(retry_after, self.retry_cap_s))


def _cluster_client(cluster):
    """A client of ``cluster`` from any of its nodes still up."""
    return RedisCluster(startup_nodes=[ClusterNode("127.0.0.1", port) for port in cluster.ports])


def _stored_actions(cluster, match_ids):
    """How many actions the matches of ``match_ids`` hold now, in all."""
    client = _cluster_client(cluster)
    try:
        return sum(client.llen(actions_key(match_id)) for match_id in match_ids)
    finally:
        client.close()


def _primary_port(cluster, match_id):
    client = _cluster_client(cluster)
    try:
        return client.get_node_from_key(match_key(match_id)).port
    finally:
        client.close()


def _replay(cluster, match_id):
    """The match's action list as stored (what its replay serves), read
    from the cluster directly: the replay route wants a finished match."""
    client = _cluster_client(cluster)
    try:
        return [orjson.loads(raw)["action"] for raw in client.lrange(actions_key(match_id), 0, -1)]
    finally:
        client.close()


def _check(cluster, player):
    """``(lost, applied twice)`` of one player's match."""
    actions = _replay(cluster, player.match_id)
    versions = [v for v, _ in player.accepted]
    lost = sum(1 for v, a in player.accepted if v > len(actions) or actions[v - 1] != a)
    doubled = len(versions) - len(set(versions)) + max(0, len(actions) - len(set(versions)))
    return lost, doubled


def _tree(stack, against):
    """The directory gunicorn runs the service from: this checkout, or
    ``against`` exported to a temporary directory."""
    if against is None:
        return ROOT
    tree = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tabula-against-")))
    archive = subprocess.run(["git", "archive", against], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def _phase(started, kill_at, back_at):
    return "before" if started < kill_at else "degraded" if started < back_at else "after"


def summarize(cluster, players, victims, kill_at, back_at, promoted_at):
    rows = {}
    for player in players:
        shard = "victim" if player.match_id in victims else "others"
        for started, seconds, status, code, stored in player.posts:
            kind = (
                "2xx"
                if status == 200
                else "unavailable (stored, unconfirmed)"
                if code == "unavailable" and stored
                else f"{status} {code}"
            )
            row = rows.setdefault((_phase(started, kill_at, back_at), shard, kind), [])
            row.append(seconds)
    checks = [_check(cluster, p) for p in players]
    first_ok = [
        started + seconds
        for p in players
        if p.match_id in victims
        for started, seconds, status, _, _ in p.posts
        if status == 200 and started > back_at
    ]
    return {
        "acknowledged": sum(len(p.accepted) for p in players),
        "lost": sum(c[0] for c in checks),
        "applied_twice": sum(c[1] for c in checks),
        "promotion_s": round(promoted_at - kill_at, 2),
        "victim_shard_2xx_again_s_after_node_back": round(min(first_ok) - back_at, 2) if first_ok else None,
        "answers": {
            " / ".join(key): {
                "count": len(values),
                "p50_ms": round(1000 * sorted(values)[len(values) // 2], 1),
                "max_ms": round(1000 * max(values), 1),
            }
            for key, values in sorted(rows.items())
        },
    }


def _start(stack, args):
    """``(cluster, gunicorn)``: a private 3 + 3 cluster and the service on it."""
    work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tabula-lost-replica-")))
    cluster = stack.enter_context(ClusterServers(work / "cluster", node_timeout_ms=1000))
    queue = stack.enter_context(RedisProcess())
    env = unlimited_env(
        REDIS_URL=cluster.url,
        REDIS_MODE="cluster",
        RQ_REDIS_URL=queue.url,
        REDIS_WAIT_REPLICAS="1",
        REDIS_WAIT_TIMEOUT_MS=str(args.wait_timeout_ms),
        REQUEST_LOG="0",
    )
    log = stack.enter_context(open(work / "gunicorn.log", "wb"))  # noqa: SIM115  (closed by the stack)
    server = Gunicorn("service:create_app()", env, args, log=log, cwd=_tree(stack, args.against))
    stack.callback(server.stop)
    return cluster, server.wait_healthy()


def _lose_replica(cluster, port, victims, args):
    """Kill the primary on ``port``, wait ``--degraded-s``, start it again;
    ``(killed at, promoted at, back at, victim moves stored meanwhile)``."""
    (replica_port,) = cluster.replica_ports_of(port)
    kill_at = time.monotonic()
    cluster.by_port[port].kill()
    wait_for(lambda: node_client(replica_port).info("replication")["role"] == "master", 30, "no promotion")
    promoted_at = time.monotonic()
    time.sleep(1.0)  # the failover's last requests answered
    at_promotion = _stored_actions(cluster, victims)
    time.sleep(max(0.0, args.degraded_s - (time.monotonic() - kill_at)))
    stored = _stored_actions(cluster, victims) - at_promotion
    cluster.spawn_node(port)
    return kill_at, promoted_at, time.monotonic(), stored


def run(args):
    with ExitStack() as stack:
        cluster, server = _start(stack, args)
        stop = threading.Event()
        players = [Player(server.port, 1000 + i, stop, args.retry_cap_s) for i in range(args.clients)]
        port = _primary_port(cluster, players[0].match_id)
        victims = {p.match_id for p in players if _primary_port(cluster, p.match_id) == port}
        for player in players:
            player.start()
        time.sleep(args.before_s)
        kill_at, promoted_at, back_at, stored = _lose_replica(cluster, port, victims, args)
        time.sleep(args.after_s)
        stop.set()
        for player in players:
            player.join(HTTP_TIMEOUT_S * 4)
        figures = summarize(cluster, players, victims, kill_at, back_at, promoted_at)
        figures.update(
            revision=args.against or "this tree",
            clients=args.clients,
            matches_on_victim_shard=len(victims),
            victim_moves_stored_while_degraded=stored,
            phases_s={"before": args.before_s, "degraded": args.degraded_s, "after": args.after_s},
        )
        return figures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=12)
    parser.add_argument("--before-s", type=float, default=8.0)
    parser.add_argument("--degraded-s", type=float, default=15.0, help="kill to the node's restart")
    parser.add_argument("--after-s", type=float, default=10.0)
    parser.add_argument("--wait-timeout-ms", type=int, default=2000)
    parser.add_argument("--retry-cap-s", type=float, default=1.0, help="longest Retry-After honoured")
    parser.add_argument("--against", help="a git revision whose service to run instead of this tree's")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = run(args)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    answers = figures.pop("answers")
    for key, value in figures.items():
        print(f"{key}: {value}")
    print(f"{'phase / shard / answer':<62} {'count':>6} {'p50 ms':>8} {'max ms':>8}")
    for key, value in answers.items():
        print(f"{key:<62} {value['count']:>6} {value['p50_ms']:>8} {value['max_ms']:>8}")


if __name__ == "__main__":
    sys.exit(main())
