"""Redis bytes per account (docs/accounts.md): sign up ``N`` accounts on a
private redis-server, use each sign-up token once (so its ``last_used_at``
and its once-a-minute gate exist), then sum ``MEMORY USAGE <key> SAMPLES 0``
over the account keys (``account:*``, ``accountname:*``, ``pat:*``).

    .venv/bin/python -m bench.account_bytes [N]
"""

import sys

import redis

from launcher.redis_process import RedisProcess
from service import create_app

PREFIXES = ("account:", "accountname:", "pat:")


def _kind(key: str) -> str:
    """``account``, ``account:tokens``, ``account:used``, ``accountname``, ``pat``..."""
    parts = key.split(":")
    return parts[0] if len(parts) < 3 or parts[0] != "account" else f"account:{parts[2]}"


def measure(count: int) -> dict[str, int]:
    """``{key kind: bytes}`` over ``count`` accounts."""
    with RedisProcess() as server:
        app = create_app({"REDIS_URL": server.url, "RATE_LIMIT": 0, "SIGNUP_RATE_LIMIT": 0, "REQUEST_LOG": 0})
        client, store = app.test_client(), redis.Redis.from_url(server.url)
        try:
            for i in range(count):
                signed = client.post("/v1/accounts", json={"name": f"player_{i:05d}", "kind": "human"}).json
                client.get("/v1/account", headers={"Authorization": f"Bearer {signed['token']}"})
            sizes: dict[str, int] = {}
            for raw in store.scan_iter(count=1000):
                key = raw.decode()
                if key.startswith(PREFIXES):
                    sizes[_kind(key)] = sizes.get(_kind(key), 0) + store.memory_usage(raw, samples=0)
            return sizes
        finally:
            app.extensions["tabula"].close()


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    sizes = measure(count)
    print(f"{count} accounts: {sum(sizes.values()) / count:.0f} bytes per account")
    for kind, size in sorted(sizes.items()):
        print(f"  {kind:16s} {size / count:6.0f}")


if __name__ == "__main__":
    main()
