"""``python -m service.worker.archive``: the operator's archive commands
(docs/archive.md), on the Redis of the environment's configuration
(REDIS_URL, REDIS_MODE... as the service reads them).

    python -m service.worker.archive migrate
        give every match finished before archive records existed its record
        (and its hot keys today's FINISHED_MATCH_TTL_S); safe to run again
    python -m service.worker.archive export --since 2026-11-01 --until 2026-12-01 --out nov.ndjson.zst
        the records of the matches finished in [since, until) as NDJSON,
        zstd-compressed (one line per match: service/play/archive_ops.py)
    python -m service.worker.archive import nov.ndjson.zst
        store each line's record (a match that has one keeps it) and rebuild
        the lobby's and the accounts' indexes

The workers also run ``migrate`` once per Redis at start (a marker key).
Prints one JSON line of counts.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import IO

import orjson
import zstandard

from service.play import archive_ops
from service.runtime.config import load_config
from service.runtime.services import Services

MIGRATED_MARKER = "archive:migrated:1"


def when_ms(text: str) -> int:
    """Epoch ms of an ISO 8601 date or time (UTC unless it says), or of a number of ms."""
    if text.isdigit():
        return int(text)
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def migrate_once(services: Services) -> dict[str, int] | None:
    """``migrate`` once per Redis (a worker's start); None when done before."""
    if not services.redis.set(MIGRATED_MARKER, "1", nx=True):
        return None
    return archive_ops.migrate(services)


def export(services: Services, since_ms: int, until_ms: int, out: IO[bytes]) -> int:
    """Write the zstd-compressed NDJSON export to ``out``; returns the matches written."""
    count = 0
    with zstandard.ZstdCompressor(level=10).stream_writer(out, closefd=False) as writer:
        for line in archive_ops.export_lines(services, since_ms, until_ms):
            writer.write(line)
            count += 1
    return count


def read_lines(source: IO[bytes]) -> Iterator[bytes]:
    """The lines of a zstd-compressed NDJSON file."""
    with zstandard.ZstdDecompressor().stream_reader(source) as reader:
        pending = b""
        while chunk := reader.read(1 << 16):
            pending += chunk
            *lines, pending = pending.split(b"\n")
            yield from lines
        if pending:
            yield pending


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m service.worker.archive", description=__doc__.splitlines()[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("migrate", help="records for the matches finished before they existed")
    exporting = commands.add_parser("export", help="a time range of records as .ndjson.zst")
    exporting.add_argument(
        "--since", type=when_ms, default=0, help="ISO 8601 or epoch ms (default: the start)"
    )
    exporting.add_argument(
        "--until", type=when_ms, default=1 << 62, help="ISO 8601 or epoch ms (default: now on)"
    )
    exporting.add_argument("--out", required=True, help="the file to write ('-': stdout)")
    importing = commands.add_parser("import", help="records from an export")
    importing.add_argument("file", help="an export ('-': stdin)")
    args = parser.parse_args(argv)
    services = Services(load_config())
    try:
        if args.command == "migrate":
            counts: dict[str, int] = archive_ops.migrate(services)
        elif args.command == "export":
            if args.out == "-":
                counts = {"exported": export(services, args.since, args.until, sys.stdout.buffer)}
            else:
                with open(args.out, "wb") as out:
                    counts = {"exported": export(services, args.since, args.until, out)}
        elif args.file == "-":
            counts = archive_ops.import_lines(services, read_lines(sys.stdin.buffer))
        else:
            with open(args.file, "rb") as source:
                counts = archive_ops.import_lines(services, read_lines(source))
    finally:
        services.close()
    print(orjson.dumps(counts).decode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
