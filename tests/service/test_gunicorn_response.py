"""service/gunicorn_response.py: gunicorn's response bytes, the head sent with the body.

Each case runs one request through gunicorn's own parser and ``wsgi.create``,
once with gunicorn's ``Response`` and once with ``OneSendResponse``, on a
socket that records every ``sendall``: the bytes on the wire must be the same,
and a response with a body of known length must leave in one send.
"""

import pytest
from gunicorn import util
from gunicorn.config import Config
from gunicorn.http import wsgi
from gunicorn.http.parser import RequestParser

from service import gunicorn_response
from service.gunicorn_response import OneSendResponse

STOCK = wsgi.Response


class RecordingSocket:
    def __init__(self) -> None:
        self.sends: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.sends.append(bytes(data))


def _response(sock, method="GET", response_class=None):
    """The response gunicorn's ``wsgi.create`` builds for ``method /`` on ``sock``
    (its own class unless ``response_class`` is given)."""
    cfg = Config()
    raw = f"{method} / HTTP/1.1\r\nHost: example\r\n\r\n".encode()
    request = next(iter(RequestParser(cfg, iter([raw]), ("127.0.0.1", 5000))))
    extra = (response_class,) if response_class else ()
    response, _ = wsgi.create(request, sock, ("127.0.0.1", 5000), ("127.0.0.1", 8000), cfg, *extra)
    return response


def _serve(response_class, method, status, headers, chunks):
    """The sends of one response to ``method /`` through gunicorn's request path."""
    sock = RecordingSocket()
    response = _response(sock, method, response_class)
    response.start_response(status, headers)
    for chunk in chunks:
        response.write(chunk)
    response.close()
    return sock.sends


CASES = {
    "json body": (
        "POST",
        "200 OK",
        [("Content-Type", "application/json"), ("Content-Length", "11")],
        [b'{"ok":true}'],
    ),
    "body in two chunks": ("GET", "200 OK", [("Content-Length", "6")], [b"abc", b"def"]),
    "body longer than its length": ("GET", "200 OK", [("Content-Length", "3")], [b"abcdef"]),
    "empty body": ("GET", "200 OK", [("Content-Length", "0")], [b""]),
    "no body at all": ("GET", "200 OK", [("Content-Length", "0")], []),
    "HEAD": ("HEAD", "200 OK", [("Content-Length", "11")], [b'{"ok":true}']),
    "204": ("DELETE", "204 No Content", [], [b""]),
    "chunked": ("GET", "200 OK", [("Content-Type", "text/event-stream")], [b"data: 1\n\n", b"data: 2\n\n"]),
}


@pytest.fixture(autouse=True)
def _one_date(monkeypatch):
    monkeypatch.setattr(util, "http_date", lambda *_: "Mon, 30 Nov 2026 03:00:00 GMT")


@pytest.mark.parametrize("case", CASES)
def test_the_bytes_sent_are_gunicorns(case):
    assert b"".join(_serve(OneSendResponse, *CASES[case])) == b"".join(_serve(STOCK, *CASES[case]))


@pytest.mark.parametrize("case", ["json body", "body longer than its length"])
def test_a_body_of_known_length_leaves_with_its_head_in_one_send(case):
    assert len(_serve(STOCK, *CASES[case])) == 2
    sends = _serve(OneSendResponse, *CASES[case])
    assert len(sends) == 1 and sends[0].startswith(b"HTTP/1.1 200 OK\r\n")


def test_a_response_without_body_bytes_still_sends_its_head_once():
    for case in ("HEAD", "204", "no body at all"):
        sends = _serve(OneSendResponse, *CASES[case])
        assert len(sends) == 1 and sends[0].endswith(b"\r\n\r\n"), case


def test_a_chunked_body_keeps_gunicorns_sends_head_first():
    sends = _serve(OneSendResponse, *CASES["chunked"])
    assert sends == _serve(STOCK, *CASES["chunked"]) and sends[0].endswith(b"\r\n\r\n")


def test_install_makes_it_the_response_gunicorn_builds(monkeypatch):
    monkeypatch.setattr(wsgi, "Response", STOCK)
    gunicorn_response.install()
    assert type(_response(RecordingSocket())) is OneSendResponse
