"""Structured logs: one pipeline (structlog) for our loggers and the stdlib's.

``configure()`` is called by each process's entry point, never by
``create_app`` (tests keep pytest's own handlers): gunicorn's ``post_fork``
hook (deploy/gunicorn.conf.py) and ``python -m service.worker``. It installs
one root handler whose ``structlog.stdlib.ProcessorFormatter`` renders every
record, ours (``structlog.get_logger``) and foreign ones (gunicorn, RQ,
werkzeug, ``logging.getLogger(__name__)``), as:

* ``LOG_FORMAT=json`` (the default; containers): one JSON object per line,
  ``{"event", "level", "logger", "timestamp", ...fields}``, with the request
  id (and, in a worker, the job id and match id) bound in context variables;
* ``LOG_FORMAT=console``: structlog's human-readable lines (``make run``).

The request log (``request_line``, one line per HTTP request, written by
service/runtime/metrics.py's middleware) goes to the ``tabula.request`` logger.
"""

import logging
import os
import re
import sys
from collections.abc import Callable
from typing import IO, Any

import orjson
import structlog
from structlog.contextvars import bind_contextvars, merge_contextvars, reset_contextvars

from service.model.clock import iso_utc_now_us

FORMATS = ("json", "console")
REQUEST_LOGGER = "tabula.request"
# X-Request-ID: what we accept from a client (else we make a new one).
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:@+=/-]{1,128}")

_configured: dict = {}


def _dumps(obj: Any, **_kw: Any) -> str:
    return orjson.dumps(obj, default=str).decode()


def _add_process_name(logger: Any, method: str, event_dict: Any) -> Any:
    name = _configured.get("process")
    if name:
        event_dict.setdefault("process", name)
    return event_dict


def _shared_processors() -> list[Any]:
    return [
        merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        _add_process_name,
    ]


def formatter(fmt: str | None = None) -> structlog.stdlib.ProcessorFormatter:
    """The stdlib Formatter of every handler: JSON or console, per ``fmt``
    (default: ``LOG_FORMAT``). gunicorn.conf.py's ``logconfig_dict`` uses it too."""
    fmt = (fmt or os.environ.get("LOG_FORMAT") or "json").lower()
    if fmt not in FORMATS:
        raise ValueError(f"LOG_FORMAT must be one of {FORMATS}, not {fmt!r}")
    renderer = (
        structlog.processors.JSONRenderer(serializer=_dumps)
        if fmt == "json"
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    processors: list[Any] = [structlog.stdlib.ProcessorFormatter.remove_processors_meta]
    if fmt == "json":
        processors.append(structlog.processors.format_exc_info)
    result = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=_shared_processors(), processors=[*processors, renderer]
    )
    result._tabula_format = fmt  # type: ignore[attr-defined]  # read by the gunicorn hook
    return result


def configure(
    fmt: str | None = None,
    level: str | None = None,
    stream: IO[str] | None = None,
    process: str | None = None,
) -> logging.Handler:
    """Route every logger of this process through one handler on ``stream``
    (default stderr) in ``fmt`` (``LOG_FORMAT``: json or console) at ``level``
    (``LOGLEVEL``, INFO). ``process`` names the process in every line
    (default ``SUPERVISOR_PROCESS_NAME``, set under ``make run``)."""
    _configured["process"] = process or os.environ.get("SUPERVISOR_PROCESS_NAME")
    structlog.configure(
        processors=[*_shared_processors(), structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter(fmt))
    handler._tabula = True  # type: ignore[attr-defined]  # ours: replaced by the next configure
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "_tabula", False) or stream is None]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel((level or os.environ.get("LOGLEVEL") or "INFO").upper())
    _configured["handler"] = handler
    # The request log's shortcut (request_line): JSON straight to this handler.
    _configured["direct"] = handler if formatter_format(handler) == "json" else None
    _configured["direct_fd"] = _file_descriptor(handler.stream)
    return handler


def _file_descriptor(stream: IO[str]) -> int | None:
    """The stream's file descriptor; None for one in memory (tests)."""
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return None


def formatter_format(handler: logging.Handler) -> str | None:
    return getattr(handler.formatter, "_tabula_format", None)


def request_id(header_value: str | None, new_id: Callable[[], str]) -> str:
    """The request id: the client's ``X-Request-ID`` when it is sane (1 to 128
    of ``A-Z a-z 0-9 . _ : @ + = / -``), else ``new_id()``."""
    if header_value is not None and _REQUEST_ID.fullmatch(header_value):
        return header_value
    return new_id()


def bind(**fields: Any) -> Any:
    """Bind ``fields`` to every log line of this context; returns the tokens
    for ``unbind``."""
    return bind_contextvars(**fields)


def unbind(tokens: Any) -> None:
    reset_contextvars(**tokens)


_request_logger = logging.getLogger(REQUEST_LOGGER)
# Makes ProcessorFormatter take the record's msg (a dict) as the event dict
# as it is, as for a structlog call, without running the processor chain:
# the request line is on every request's path, so it is built here at once.
_AS_STRUCTLOG = {"_logger": None, "_name": "info"}


def request_line(fields: dict[str, Any]) -> None:
    """Log one request on the ``tabula.request`` logger; ``fields``:
    request_id, method, route, path, match_id, status, duration_ms, client."""
    if not _request_logger.isEnabledFor(logging.INFO):
        return
    event = {
        "event": "request",
        **fields,
        "level": "info",
        "logger": REQUEST_LOGGER,
        "timestamp": iso_utc_now_us(),
    }
    process = _configured.get("process")
    if process:
        event["process"] = process
    direct = _configured.get("direct")
    if direct is not None and not _request_logger.handlers:
        # What the JSON handler would write, without a LogRecord and the
        # formatter's copy of it: a quarter of the cost, on every request.
        _write_line(direct, orjson.dumps(event, default=str, option=orjson.OPT_APPEND_NEWLINE))
        return
    _request_logger.info(event, extra=_AS_STRUCTLOG)


def _write_line(handler: logging.StreamHandler[Any], line: bytes) -> None:
    """One whole line onto the handler's stream. Where that is a file, with one
    ``os.write`` and no lock or text layer: the handler flushes after every
    record, so nothing of its own waits in the stream's buffer, and one
    write(2) of a line is not cut into by another's (a pipe's up to
    PIPE_BUF; a file's, whose offset Linux moves under its own lock)."""
    fd = _configured.get("direct_fd")
    if fd is None:
        handler.acquire()
        try:
            handler.stream.write(line.decode())
            handler.stream.flush()
        finally:
            handler.release()
        return
    while line:
        line = line[os.write(fd, line) :]
