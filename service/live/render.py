"""How a stream's messages look on the wire: SSE (``id:``, ``event:``,
``data:``) or NDJSON, one line per message."""

import orjson

from service.model.documents import public_event

RETRY_MS = 2000  # SSE `retry:` sent with the first message

# --- rendering --------------------------------------------------------------


def render_event(seq: int, version: int, event: dict, viewer: int | None, sse: bool) -> bytes:
    body = public_event(seq, version, event, viewer)
    data = orjson.dumps(body)
    if sse:
        return b"id: %d\nevent: %s\ndata: %s\n\n" % (seq, body["type"].encode(), data)
    return data + b"\n"


def render_match(match: dict, sse: bool, first: bool = False) -> bytes:
    data = orjson.dumps(match)
    if sse:
        return (b"retry: %d\n" % RETRY_MS if first else b"") + b"event: match\ndata: " + data + b"\n\n"
    return data + b"\n"


def render_error(document: dict, sse: bool) -> bytes:
    data = orjson.dumps(document)
    return b"event: error\ndata: " + data + b"\n\n" if sse else data + b"\n"


def keep_alive(sse: bool) -> bytes:
    return b": keep-alive\n\n" if sse else b"\n"
