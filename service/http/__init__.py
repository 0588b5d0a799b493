"""The HTTP edge: the Flask app (``app``), its routes (``routes``), the move
lane (WSGI middleware answering POST .../actions below Flask), request bodies,
errors as JSON, CORS, guards (tokens and rate limits) and the JSON provider.

The top layer: may import everything in ``service`` but ``worker``; nothing
imports it except the package's ``create_app`` and ``openapi``.
"""
