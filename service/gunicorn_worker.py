"""gunicorn's ``gevent`` and ``gthread`` workers, answering the errors they raise
themselves in JSON.

gunicorn refuses some requests before the app sees them: a request line over
``limit_request_line`` (414), a header over ``limit_request_field_size`` or
more than ``limit_request_fields`` headers (431), a request that is not valid
HTTP/1.1, e.g. ``Content-Length: -1`` (400), a transfer coding other than
chunked (501). Its own answer is an HTML page; this worker sends the
contract's body instead, with gunicorn's status and reason:

    {"error": "uri_too_long", "message": "...", "details": {"max_request_line": 4094}}

Codes: 400 ``bad_request``, 403 ``forbidden``, 413 ``payload_too_large``,
414 ``uri_too_long``, 417 ``expectation_failed``, 431 ``headers_too_large``,
501 ``not_implemented``, 500 ``internal_error`` (a bug). gunicorn decides the
status and writes the access log as before (its ``handle_error`` runs on a
stand-in socket that only records the status line); only the bytes sent differ.

``JsonErrors`` does this for any worker class; deploy/gunicorn.conf.py makes
the gevent one the default (thousands of open event streams per process,
none holding a thread):

    worker_class = "service.gunicorn_worker.JsonErrorGeventWorker"

``JsonErrorThreadWorker`` is the same for ``gthread``. It imports nothing of
the app, so the gunicorn master loads it cheaply; gevent is imported only when
the gevent worker class is asked for (module ``__getattr__``).
"""

import json
from http import HTTPStatus
from typing import Any

from gunicorn import util
from gunicorn.workers.gthread import ThreadWorker

from service import gunicorn_response

# gunicorn's status -> the contract's error code.
ERROR_CODES = {
    400: "bad_request",
    403: "forbidden",
    413: "payload_too_large",
    414: "uri_too_long",
    417: "expectation_failed",
    431: "headers_too_large",
    500: "internal_error",
    501: "not_implemented",
}

# The longest part of gunicorn's own reason quoted in a message (it may echo
# the offending request line or header).
MAX_QUOTED = 200


class _StatusRecorder(gunicorn_response.SendRecorder):
    """A stand-in client socket for gunicorn's handle_error: it keeps the
    status line of the HTML answer gunicorn would send, and sends nothing."""

    def status(self) -> tuple[int, str]:
        """``(status, reason)`` of the recorded answer; the reason is the
        standard phrase (gunicorn sends 501 as "Bad Request")."""
        line = self.sent.split(b"\r\n", 1)[0].decode("latin-1")
        _, status, reason = (line.split(" ", 2) + ["", ""])[:3]
        if not status.isdigit():
            return 500, "Internal Server Error"
        try:
            return int(status), HTTPStatus(int(status)).phrase
        except ValueError:
            return int(status), reason


def _message(status: int, reason: str, exc: BaseException) -> str:
    if status == 500:
        return "internal error"
    text = str(exc)
    if len(text) > MAX_QUOTED:
        text = text[:MAX_QUOTED] + "..."
    return f"{reason}: {text}" if text else reason


def error_document(status: int, reason: str, exc: BaseException, cfg: Any) -> dict[str, Any]:
    """The contract's error body (dict) for gunicorn's ``status`` on ``exc``."""
    details = {}
    if status == 414:
        details = {"max_request_line": cfg.limit_request_line}
    elif status == 431:
        details = {"max_header_size": cfg.limit_request_field_size, "max_headers": cfg.limit_request_fields}
    code = ERROR_CODES.get(status, "bad_request" if status < 500 else "internal_error")
    return {"error": code, "message": _message(status, reason, exc), "details": details}


def error_response(status: int, reason: str, document: dict[str, Any]) -> bytes:
    body = json.dumps(document).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


class JsonErrors:
    """Mixin for a gunicorn worker class: the contract's JSON body on the
    errors gunicorn answers itself (put it before the worker class)."""

    cfg: Any  # the worker class's
    log: Any

    def init_process(self) -> None:
        gunicorn_response.install()  # in this worker process only
        super().init_process()  # type: ignore[misc]  # runs the worker until it exits

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        recorder = _StatusRecorder()
        super().handle_error(req, recorder, addr, exc)  # type: ignore[misc]  # status, logs, access log
        status, reason = recorder.status()
        document = error_document(status, reason, exc, self.cfg)
        try:
            util.write_nonblock(client, error_response(status, reason, document))
        except Exception:  # noqa: BLE001  (the client is gone; as gunicorn does)
            self.log.debug("Failed to send error message.")


class JsonErrorThreadWorker(JsonErrors, ThreadWorker):
    """``gthread`` with the contract's JSON body on the errors gunicorn answers."""


def __getattr__(name: str) -> type:
    # gevent is imported only for the worker class that needs it.
    if name == "JsonErrorGeventWorker":
        from gunicorn.workers.ggevent import GeventWorker

        class JsonErrorGeventWorker(JsonErrors, GeventWorker):
            """``gevent`` with the contract's JSON body on the errors gunicorn answers."""

        globals()[name] = JsonErrorGeventWorker
        return JsonErrorGeventWorker
    raise AttributeError(name)
