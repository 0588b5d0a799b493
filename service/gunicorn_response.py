"""gunicorn's HTTP/1 response, with the head sent together with the body's first bytes.

gunicorn's ``Response`` puts the status line and headers on the socket in one
``sendall`` and each body chunk in another, so the usual answer of the API (one
body chunk, from Flask) costs two sends. Over loopback each send is a syscall
that also runs the receiving side's TCP path; under bench/http_bench.py, py-spy
put gunicorn's header send at 15% of a gunicorn worker's samples on a move.
``OneSendResponse`` keeps the head back until the first body chunk and sends
both at once. Everything else is gunicorn's: the head is what its
``send_headers`` writes (recorded, not rebuilt here); chunked bodies, bodies
gunicorn drops (HEAD, 204, 304) or cuts to ``Content-Length``, and files sent
with ``sendfile`` keep its behaviour, the held head going out first.

gunicorn offers no setting for this; ``install()`` (the worker classes of
service/gunicorn_worker.py call it in each worker process) makes it the class
gunicorn's ``wsgi.create`` builds for HTTP/1 requests.
"""

from typing import Any

from gunicorn import util
from gunicorn.http import wsgi


class SendRecorder:
    """A stand-in client socket that keeps what gunicorn sends to it and sends nothing
    (here: the head, held for the body; service/gunicorn_worker.py: its error pages)."""

    def __init__(self) -> None:
        self.sent = b""

    def gettimeout(self) -> float:
        return 0.0  # util.write_nonblock then writes without touching the mode

    def sendall(self, data: bytes) -> None:
        self.sent += data


class OneSendResponse(wsgi.Response):
    """gunicorn's ``Response``; its head leaves with the first body chunk."""

    _held = b""
    sock: Any  # gunicorn's; untyped there

    def write(self, arg: Any) -> None:
        if not self.headers_sent and not self.chunked:
            self._hold_head()
        super().write(arg)
        self._send_held()  # the body was dropped or cut to nothing: the head goes alone

    def close(self) -> None:
        self._send_held()
        super().close()

    def _hold_head(self) -> None:
        client, recorder = self.sock, SendRecorder()
        self.sock = recorder
        try:
            self.send_headers()
        finally:
            self.sock = client
        self._held = recorder.sent

    def _emit_body(self, data: bytes) -> None:
        held, self._held = self._held, b""
        util.write(self.sock, held + data if held else data, self.chunked)

    def _send_held(self) -> None:
        if self._held:
            held, self._held = self._held, b""
            util.write(self.sock, held)


def install() -> None:
    """Make ``OneSendResponse`` the response of this process's HTTP/1 requests."""
    wsgi.Response = OneSendResponse
