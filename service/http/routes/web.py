"""The reference web client: static files under /play/, and / pointing at it.

The files are plain ES modules (service/static/play/): no build step, no
CDN, so the client works offline and its source is what the browser runs.
They need no storage, so the rate limit leaves them alone (guards.py).
"""

from importlib import resources
from typing import Any

from flask import Flask, Response, redirect, send_from_directory

CLIENT_PREFIX = "/play/"


def _client_folder() -> str:
    return str(resources.files("service").joinpath("static/play"))


def register_web_client(app: Flask) -> None:
    @app.get("/")
    def home() -> Any:
        return redirect(CLIENT_PREFIX, code=302)

    @app.get("/play")
    def client_without_slash() -> Any:
        return redirect(CLIENT_PREFIX, code=308)

    @app.get(CLIENT_PREFIX)
    @app.get(CLIENT_PREFIX + "<path:name>")
    def client_file(name: str = "index.html") -> Response:
        # send_from_directory refuses paths that leave the folder (404) and
        # answers If-None-Match / If-Modified-Since itself; no-cache makes a
        # browser revalidate, so a new deployment is picked up at once.
        response = send_from_directory(_client_folder(), name, max_age=0)
        response.headers["Cache-Control"] = "no-cache"
        return response
