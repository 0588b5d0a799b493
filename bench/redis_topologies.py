"""Real distributed Redis topologies on loopback, for bench/scaleout_bench.py
and the scale-out tests (tests/cluster).

- ``ClusterServers``: a Redis Cluster of 3 primaries + 3 replicas, made by
  ``redis-cli --cluster create ... --cluster-replicas 1``; ready once every
  node says ``cluster_state:ok`` and knows all 16384 slots.
- ``SentinelServers``: a primary, one replica and 3 sentinels watching it
  (``redis-server --sentinel``); ready once every sentinel names the
  primary, sees the replica and the other two sentinels.

Each server runs from its own directory under a tmp dir, on free loopback
ports, without persistence; ``stop()`` ends every process it started
(SIGTERM, then SIGKILL) and waits for it.
"""

import shutil
import socket
import subprocess
import time
from pathlib import Path

import redis
import redis.cluster

from launcher.redis_process import find_redis_server, free_port

SERVICE = "tabula"


def _free_port_with_bus():
    """A free port whose cluster bus port (+10000) is free too."""
    for _ in range(100):
        port = free_port()
        if port + 10000 > 65535:
            continue
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        return port
    raise RuntimeError("no free port pair for a cluster node")


def wait_for(condition, timeout, what, explain=None):
    """Poll ``condition`` until it holds; ``explain()`` says, on a timeout, what it last saw."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except (redis.RedisError, OSError) as exc:
            last = exc
        time.sleep(0.05)
    seen = f"; last seen: {explain()}" if explain else ""
    raise RuntimeError(f"{what} within {timeout} s (last error: {last}{seen})")


def node_client(port):
    return redis.Redis(host="127.0.0.1", port=port, socket_timeout=2, socket_connect_timeout=1)


class _Processes:
    """The servers one topology started, stopped all together."""

    def __init__(self, root):
        self.root = Path(root)
        self.binary = find_redis_server()
        self.procs = []
        self.by_port = {}  # port -> Popen

    def spawn(self, name, args, port=None):
        workdir = self.root / name
        workdir.mkdir(parents=True, exist_ok=True)
        proc = subprocess.Popen(
            [self.binary, *args],
            cwd=workdir,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
        )
        self.procs.append(proc)
        if port is not None:
            self.by_port[port] = proc
        return proc

    def pids(self):
        return [p.pid for p in self.procs]

    def __enter__(self):
        try:
            return self.start()  # each kind's own start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc):
        self.stop()

    def stop(self):
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.procs = []


def server_args(port, *extra):
    return [
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--daemonize",
        "no",
        "--protected-mode",
        "yes",
        *extra,
    ]


class ClusterServers(_Processes):
    """3 primaries, each with ``replicas`` replicas (1); ``url`` names one node (``redis://``)."""

    def __init__(self, root, node_timeout_ms=2000, replicas=1):
        super().__init__(root)
        self.replicas = replicas
        self.ports = [_free_port_with_bus() for _ in range(3 * (1 + replicas))]
        self.node_timeout_ms = node_timeout_ms
        self.unready = "not started"

    @property
    def url(self):
        return f"redis+cluster://127.0.0.1:{self.ports[0]},127.0.0.1:{self.ports[1]}"

    def spawn_node(self, port):
        """Start (or restart, in its directory) the node of ``port``."""
        self.spawn(
            f"node-{port}",
            server_args(
                port,
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
                "--cluster-node-timeout",
                str(self.node_timeout_ms),
            ),
            port,
        )

    def start(self):
        for port in self.ports:
            self.spawn_node(port)
        for port in self.ports:
            wait_for(lambda port=port: node_client(port).ping(), 10, f"node {port} did not answer")
        self._check_own_nodes_answer()
        cli = shutil.which("redis-cli") or str(Path(self.binary).with_name("redis-cli"))
        subprocess.run(
            [
                cli,
                "--cluster",
                "create",
                *[f"127.0.0.1:{p}" for p in self.ports],
                "--cluster-replicas",
                str(self.replicas),
                "--cluster-yes",
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        wait_for(
            self.is_ready,
            30,
            "the cluster did not become ok on every node",
            explain=lambda: self.unready,
        )
        return self

    def _check_own_nodes_answer(self):
        """Each port is served by the node started for it, not by a server that took the port
        first (a cluster that let a stranger in would never come up as six nodes)."""
        for port in self.ports:
            if self.by_port[port].poll() is not None:
                raise RuntimeError(f"node {port} exited (its port or bus port {port + 10000} was taken)")
            served_by = int(node_client(port).info("server")["process_id"])
            if served_by != self.by_port[port].pid:
                raise RuntimeError(f"port {port} is served by pid {served_by}, not by its node")

    def is_ready(self):
        self.unready = self._unready_reason()
        return not self.unready

    def _unready_reason(self):
        """What keeps the cluster from serving with every replica attached ("" once nothing does)."""
        for port in self.ports:
            info = node_client(port).cluster("info")
            state, slots_ok = info.get("cluster_state"), int(info.get("cluster_slots_ok", 0))
            known = int(info.get("cluster_known_nodes", 0))
            if state != "ok" or slots_ok != 16384 or known != len(self.ports):
                return f"node {port}: state {state}, {slots_ok} slots ok, {known} nodes known"
        # Every replica attached to its primary (its link is up).
        roles = {port: node_client(port).info("replication") for port in self.ports}
        replicas = {port: r for port, r in roles.items() if r.get("role") == "slave"}
        down = [port for port, r in replicas.items() if r.get("master_link_status") != "up"]
        if len(replicas) != 3 * self.replicas or down:
            return f"replicas {sorted(replicas)}, link down on {down}"
        return ""

    def clients(self):
        return [node_client(port) for port in self.ports]

    def primaries(self):
        return [c for c in self.clients() if c.info("replication").get("role") == "master"]

    def primary_port_of(self, key):
        """The port of the primary serving ``key``'s slot now."""
        client = redis.cluster.RedisCluster(host="127.0.0.1", port=self.ports[0])
        try:
            return client.get_node_from_key(key).port
        finally:
            client.close()

    def replica_ports_of(self, primary_port):
        """The ports of the replicas that follow the primary on ``primary_port``."""
        return [
            port
            for port in self.ports
            if int(node_client(port).info("replication").get("master_port", 0)) == primary_port
        ]


class SentinelServers(_Processes):
    """A primary, a replica and 3 sentinels watching them as ``SERVICE``."""

    def __init__(self, root):
        super().__init__(root)
        self.primary_port, self.replica_port = free_port(), free_port()
        self.sentinel_ports = [free_port() for _ in range(3)]

    @property
    def url(self):
        hosts = ",".join(f"127.0.0.1:{p}" for p in self.sentinel_ports)
        return f"redis+sentinel://{hosts}/{SERVICE}/0"

    def start(self):
        self.spawn("primary", server_args(self.primary_port), self.primary_port)
        self.spawn(
            "replica",
            server_args(self.replica_port, "--replicaof", "127.0.0.1", str(self.primary_port)),
            self.replica_port,
        )
        wait_for(
            lambda: node_client(self.replica_port).info("replication").get("master_link_status") == "up",
            10,
            "the replica did not sync",
        )
        for port in self.sentinel_ports:
            conf = self.root / f"sentinel-{port}" / "sentinel.conf"
            conf.parent.mkdir(parents=True, exist_ok=True)
            conf.write_text(
                f"port {port}\nbind 127.0.0.1\ndaemonize no\nprotected-mode no\n"
                f"dir {conf.parent}\n"
                f"sentinel monitor {SERVICE} 127.0.0.1 {self.primary_port} 2\n"
                f"sentinel down-after-milliseconds {SERVICE} 1000\n"
                f"sentinel failover-timeout {SERVICE} 5000\n"
                f"sentinel parallel-syncs {SERVICE} 1\n"
            )
            self.spawn(f"sentinel-{port}", [str(conf), "--sentinel"])
        wait_for(self.is_ready, 30, "the sentinels did not agree")
        return self

    def is_ready(self):
        for port in self.sentinel_ports:
            client = node_client(port)
            address = client.sentinel_get_master_addr_by_name(SERVICE)
            if address is None or int(address[1]) != self.primary_port:
                return False
            if len(client.sentinel_slaves(SERVICE)) != 1 or len(client.sentinel_sentinels(SERVICE)) != 2:
                return False
        return True

    def primary(self):
        return node_client(self.primary_port)

    def replica_ports_of(self, primary_port):
        return [self.replica_port] if primary_port == self.primary_port else []
