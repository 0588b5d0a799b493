"""``/metrics`` on an internal port only, and nothing else there.

The metrics tell anyone who reads them the routes' traffic, the matches by
status and the queue's depth: an operator's, not a player's, business. So
gunicorn listens on a second address (``METRICS_HOST:METRICS_PORT``,
deploy/gunicorn.conf.py) that only the operator's network reaches, and the
app tells the two apart by the port the connection came in on. Under
gunicorn, ``SERVER_PORT`` is the listening socket's own port for a TCP bind
(the ``Host`` header is read only for unix sockets), so a client of the
public port cannot claim the internal one.

- On the internal port: ``GET /metrics``; every other path answers 404, and
  the move's own lane (service/http/move_lane.py) is not taken.
- On the public port: ``/metrics`` answers 404, as an unknown path does.
- ``METRICS_PORT=0`` (the app's default): no port serves ``/metrics``.
"""

from typing import Any

from flask import abort, request

INTERNAL_FLAG = "tabula.internal_port"
METRICS_PATH = "/metrics"


class InternalPort:
    """WSGI: requests to ``port`` go straight to Flask (``flask_wsgi``),
    flagged; the others take the usual way in (``public``)."""

    def __init__(self, public: Any, flask_wsgi: Any, port: int) -> None:
        self.public = public
        self.flask_wsgi = flask_wsgi
        self.port = str(port) if port else None

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if self.port is not None and environ.get("SERVER_PORT") == self.port:
            environ[INTERNAL_FLAG] = True
            return self.flask_wsgi(environ, start_response)
        return self.public(environ, start_response)


def only_metrics_inside() -> None:
    """Flask ``before_request``: ``/metrics`` inside, everything else outside."""
    inside = bool(request.environ.get(INTERNAL_FLAG))
    if inside != (request.path == METRICS_PATH):
        abort(404)  # the app's answer to an unknown path, byte for byte
