"""Tabula's HTTP service: Flask + flask-smorest, Redis storage, RQ AI workers.

``create_app(config=None)`` is the WSGI app factory (``service:create_app()``
for gunicorn); ``python -m service.worker`` runs an AI worker;
``python -m service.openapi`` prints the OpenAPI document.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(config: dict[str, Any] | None = None) -> "Flask":
    """The Flask app (imported lazily so ``service.worker`` does not load Flask)."""
    from service.http.app import create_app as _create_app

    return _create_app(config)


__all__ = ["create_app"]
