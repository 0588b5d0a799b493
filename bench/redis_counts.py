"""What the service asked of Redis per request: commands and round trips,
from the servers' own counters (``INFO stats commandstats``), for the HTTP
benchmarks' phases (``harness.Phase(..., redis_ports=...)``).

Over each counted stretch of a round the deltas are summed over the
servers that are primaries at the time (a replica's counters replay its
primary's writes), then divided by the phase's counted requests:

- ``commands``: every command run, those a script ran included (Redis
  counts both in ``commandstats``), the benchmark's own ``INFO`` left out;
- ``scripts``: the ``EVALSHA`` / ``EVAL`` among them;
- ``round_trips``: the servers' read events (``total_reads_processed``),
  the sampling's own left out: one per batch of commands a client wrote at
  once, as long as the batch arrives in one read (up to 16 KB; a larger
  commit may take two);
- ``by_command``: the commands per request by name, largest first.

Whatever else touches the servers in the stretch counts too (the phase's
match creations, a replica's acknowledgements): the figures are per
counted request of the phase, like its CPU per request.
"""

from collections import Counter

import redis

SCRIPTS = ("evalsha", "eval", "evalsha_ro", "eval_ro", "fcall")


def sample(client):
    """``Counter`` of one server's command calls by name, plus ``_reads``;
    None when the server is not a primary."""
    info = client.execute_command("INFO", "stats", "commandstats", "replication")
    if info.get("role") != "master":
        return None
    out = Counter(
        {
            name.removeprefix("cmdstat_"): stats["calls"]
            for name, stats in info.items()
            if name.startswith("cmdstat_")
        }
    )
    out["_reads"] = info["total_reads_processed"]
    return out


class RedisCounts:
    """Command and round-trip deltas of the servers on ``ports``, summed over rounds."""

    def __init__(self, ports):
        # One connection per server, kept: a new one would count its handshake.
        self.clients = {port: redis.Redis(host="127.0.0.1", port=port, socket_timeout=5) for port in ports}
        self.used = Counter()

    def _sample(self):
        return {port: sample(client) for port, client in self.clients.items()}

    def measure(self, run):
        before = self._sample()
        run()
        after = self._sample()
        for port, counts in after.items():
            if counts is None or before[port] is None:
                continue  # not a primary throughout: its counters are a replica's
            delta = counts - before[port]
            delta.pop("info", None)
            delta["_reads"] -= 1  # the INFO of ``before``
            self.used.update(delta)

    def per_request(self, counted):
        """``{"commands", "scripts", "round_trips", "by_command"}`` per counted request."""
        counted = counted or 1
        calls = {name: n for name, n in self.used.items() if not name.startswith("_") and n > 0}
        by_command = {name: round(n / counted, 3) for name, n in Counter(calls).most_common()}
        return {
            "commands": round(sum(calls.values()) / counted, 3),
            "scripts": round(sum(calls.get(name, 0) for name in SCRIPTS) / counted, 3),
            "round_trips": round(self.used["_reads"] / counted, 3),
            "by_command": by_command,
        }


def describe(counts):
    """One line: commands, scripts and round trips per request, then the commands by name."""
    names = ", ".join(f"{name} {n}" for name, n in list(counts["by_command"].items())[:10])
    return (
        f"{counts['commands']:.2f} commands ({counts['scripts']:.2f} scripts), "
        f"{counts['round_trips']:.2f} round trips  [{names}]"
    )
