"""The archive record of a finished match: its bytes, and reading them back.

A finished match keeps, beside (and then instead of) its hot keys, one
string ``match:{<id>}:record`` (keys.py): everything its reads need that the
engine cannot derive again from the seed and the actions. The format
(docs/archive.md):

    b"TR" | format version (1 byte) | dictionary id (1 byte) | zstd frame

The frame holds compact JSON (orjson)::

    {"doc": the match document as stored (seats, accounts, dice secret,
            result, timestamps, rematch link...),
     "actions": [[seat, action], ...],       the replay log, in order
     "extra": [[seq, version, event], ...],  the events the service made
             (joins, resignations, time-outs, hand-overs, the rematch claim),
             verbatim; every other event is the engine's, replayed
     "skip": [version, ...],  versions that are not an action (join, resign,
             rematch claim): the actions take the other versions in order
     "tokens": {sha256: seat},  the seat tokens live at the end
     "finished_ms": when the finishing move was committed}

compressed with a dictionary trained on each game's records
(``archive_dicts/``; a dictionary is never changed once records use it: a
new one takes a new id). A record this server cannot read (another magic, an
unknown format version or dictionary, a broken frame, a document of another
match) is a ``RecordError``: never served as something else.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import orjson
import zstandard

from service.storage.offload import off_the_loop

MAGIC = b"TR"
FORMAT_VERSION = 1
# Dictionary ids of format 1 -> (file in archive_dicts/, its sha256). 0: none.
DICTIONARIES = {
    1: ("anno1503-1.zdict", "f07ac8a7ad1095f01dc5d87ff16277fafaec752d2238b5f2f1dccc8bede30574"),
    2: ("anno1452-1.zdict", "f6ab22b690a5307aa0387db67e18bf749ee475af85a7c016da0c8d7cd4c20d63"),
}
GAME_DICTIONARY = {"anno1503": 1, "anno1452": 2}
LEVEL = 19  # a record is written once per match, read often: the best ratio
MAX_RECORD_BYTES = 64 * 1024 * 1024  # what a frame may claim to decompress to


class RecordError(Exception):
    """A record that cannot be read: unknown format or dictionary, corrupt, or another match's."""

    def __init__(self, match_id: str, reason: str) -> None:
        super().__init__(f"archive record of match {match_id}: {reason}")
        self.match_id = match_id
        self.reason = reason


@dataclass
class Record:
    """A decoded record (the JSON fields of the module's docstring)."""

    doc: dict
    actions: list = field(default_factory=list)  # [[seat, action]]
    extra: list = field(default_factory=list)  # [[seq, version, event]]
    skip: list = field(default_factory=list)  # [version]
    tokens: dict = field(default_factory=dict)  # token sha256 -> seat
    finished_ms: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "doc": self.doc,
            "actions": self.actions,
            "extra": self.extra,
            "skip": self.skip,
            "tokens": self.tokens,
            "finished_ms": self.finished_ms,
        }

    def action_entries(self) -> list[dict]:
        """The replay log as the action list stores it: ``[{"seat", "action"}]``."""
        return [{"seat": seat, "action": action} for seat, action in self.actions]


@cache
def _dictionary(dict_id: int) -> zstandard.ZstdCompressionDict:
    name, digest = DICTIONARIES[dict_id]
    raw = resources.files("service.storage").joinpath(f"archive_dicts/{name}").read_bytes()
    if hashlib.sha256(raw).hexdigest() != digest:  # a changed dictionary breaks every record
        raise RuntimeError(f"archive dictionary {name} changed: sha256 {hashlib.sha256(raw).hexdigest()}")
    return zstandard.ZstdCompressionDict(raw)


# The dictionaries digested for LEVEL, by id. Digesting one costs about a
# millisecond, once; a compressor made on a digested dictionary then costs
# microseconds, so each record gets its own: a compressor is not safe to
# share between threads, and the compression runs outside the caller's
# thread under gevent (encode).
_DIGESTED: dict[int, zstandard.ZstdCompressionDict] = {}
_DIGESTING = threading.Lock()


def _digested(dict_id: int) -> zstandard.ZstdCompressionDict:
    with _DIGESTING:
        dictionary = _DIGESTED.get(dict_id)
        if dictionary is None:
            dictionary = _dictionary(dict_id)
            dictionary.precompute_compress(level=LEVEL)
            _DIGESTED[dict_id] = dictionary
        return dictionary


def _compress(dictionary: zstandard.ZstdCompressionDict | None, body: bytes) -> bytes:
    return zstandard.ZstdCompressor(level=LEVEL, dict_data=dictionary).compress(body)


def _decompressor(dict_id: int) -> zstandard.ZstdDecompressor:
    # Not cached: a decompressor is not safe to share between threads (and cheap).
    if dict_id == 0:
        return zstandard.ZstdDecompressor()
    return zstandard.ZstdDecompressor(dict_data=_dictionary(dict_id))


def encode(record: Record) -> bytes:
    """The record's bytes (format ``FORMAT_VERSION``, the game's dictionary)."""
    dict_id = GAME_DICTIONARY.get(record.doc.get("game", ""), 0)
    dictionary = _digested(dict_id) if dict_id else None
    # Level 19 takes 2-100 ms (a long match's record): zstd releases the GIL,
    # and under gevent it runs in a thread of its own, so the other requests
    # of this process are answered meanwhile (storage/offload.py).
    frame = off_the_loop(_compress, dictionary, orjson.dumps(record.payload()))
    return MAGIC + bytes((FORMAT_VERSION, dict_id)) + frame


def decode(match_id: str, raw: bytes) -> Record:
    """The record of ``match_id`` stored as ``raw``; RecordError when it cannot be read."""
    if len(raw) < 4 or raw[:2] != MAGIC:
        raise RecordError(match_id, "not an archive record")
    version, dict_id = raw[2], raw[3]
    if version != FORMAT_VERSION:
        raise RecordError(match_id, f"unknown format version {version}")
    if dict_id and dict_id not in DICTIONARIES:
        raise RecordError(match_id, f"unknown dictionary {dict_id}")
    try:
        body = _decompressor(dict_id).decompress(raw[4:], max_output_size=MAX_RECORD_BYTES)
        payload = orjson.loads(body)
        record = Record(
            doc=payload["doc"],
            actions=payload["actions"],
            extra=payload["extra"],
            skip=payload["skip"],
            tokens=payload["tokens"],
            finished_ms=int(payload["finished_ms"]),
        )
    except (zstandard.ZstdError, orjson.JSONDecodeError, KeyError, TypeError, ValueError) as error:
        raise RecordError(match_id, f"corrupt: {error}") from None
    if not isinstance(record.doc, dict) or record.doc.get("id") != match_id:
        raise RecordError(match_id, "the record is another match's")
    if record.doc.get("status") != "finished":
        raise RecordError(match_id, "the record's match is not finished")
    return record
