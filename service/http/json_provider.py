"""Flask's JSON provider on orjson: the API's responses are its hot path.

orjson is several times faster than the stdlib encoder Flask uses by
default. Where orjson refuses a value (integers beyond 64 bits, which a
client may send and an error echoes back), the stdlib encoder is used
instead, so nothing that serialized before fails now. ``sort_keys=True``
(flask-smorest's ETag hashing asks for it) is honoured.
"""

from typing import Any, cast

import orjson
from flask import Flask
from flask.json.provider import DefaultJSONProvider

_BASE_OPTIONS = orjson.OPT_NON_STR_KEYS


class OrjsonProvider(DefaultJSONProvider):
    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return self._dump_bytes(obj, **kwargs).decode("utf-8")

    def _dump_bytes(self, obj: Any, **kwargs: Any) -> bytes:
        options = 0
        if kwargs.get("sort_keys", self.sort_keys):
            options |= orjson.OPT_SORT_KEYS
        if kwargs.get("indent"):
            options |= orjson.OPT_INDENT_2
        default = kwargs.get("default", self.default)
        try:
            # Without OPT_NON_STR_KEYS first: it makes orjson markedly slower,
            # and with string keys only (the usual case) the output is the same.
            return orjson.dumps(obj, default=default, option=options)
        except TypeError:  # orjson.JSONEncodeError
            pass
        try:
            return orjson.dumps(obj, default=default, option=options | _BASE_OPTIONS)
        except TypeError:  # too large an int, for example
            return super().dumps(obj, **kwargs).encode("utf-8")

    def response_bytes(self, obj: Any) -> bytes:
        """The body ``response`` sends for ``obj``."""
        return self._dump_bytes(obj) + b"\n"

    def response(self, *args: Any, **kwargs: Any) -> Any:  # the app's response_class
        # Bytes straight from orjson: a move's response is several kilobytes,
        # not worth decoding to str only for werkzeug to encode it again.
        obj = self._prepare_response_obj(args, kwargs)
        app = cast(Flask, self._app)  # this provider serves a Flask app
        return app.response_class(self.response_bytes(obj), mimetype=self.mimetype)
