"""``schema.dump`` for plain dicts, compiled once per schema.

marshmallow's dump walks every field through several generic calls (attribute
lookup, default handling, per-field dispatch); for the move response, whose
view holds dozens of nested values, that was a sixth of the request's CPU.
``compile_dump(schema)`` returns a function that produces the same dict as
``schema.dump(obj)`` when ``obj`` is made of dicts (what the service's
operations return): same keys, same order, same leaf conversions. A schema
using a feature this module does not reproduce (dump defaults, hooks,
``only``/``exclude``...) is refused at compile time rather than dumped
differently, and ``tests/service/test_move_lane.py`` (its "compile_dump
against marshmallow's dump" tests) compares both on real responses of every
game and refuses what is not reproduced.
"""

from collections.abc import Callable
from typing import Any

import marshmallow as ma

_MISSING = ma.missing


class UnsupportedSchema(TypeError):
    """The schema uses something ``compile_dump`` does not reproduce exactly."""


def compile_dump(schema: ma.Schema) -> Callable[[dict], dict]:
    """A function ``obj -> dict`` equal to ``schema.dump(obj)`` for dict objects."""
    if schema.many:
        raise UnsupportedSchema("many=True schemas are not compiled")
    if schema._hooks.get("pre_dump") or schema._hooks.get("post_dump"):
        raise UnsupportedSchema(f"{type(schema).__name__} has dump hooks")
    steps = [(attr, field.data_key or attr, _converter(field)) for attr, field in schema.dump_fields.items()]
    for attr, _key, _convert in steps:
        if hasattr(dict, attr):
            # marshmallow would fall back to getattr(dict, attr) for a
            # missing key; not worth reproducing.
            raise UnsupportedSchema(f"field {attr!r} shadows a dict attribute")

    def dump(obj: dict) -> dict:
        out = {}
        for attr, key, convert in steps:
            value = obj.get(attr, _MISSING)
            if value is not _MISSING:
                out[key] = None if value is None else convert(value)
        return out

    return dump


def _converter(field: ma.fields.Field) -> Callable[[Any], Any]:
    """``value -> dumped value`` for a non-None value of ``field``."""
    if field.dump_default is not _MISSING:
        raise UnsupportedSchema(f"field {field.name!r} has a dump default")
    if isinstance(field, ma.fields.Nested):
        if field.only or field.exclude or field.many or field.schema.many:
            raise UnsupportedSchema(f"nested field {field.name!r} uses only/exclude/many")
        return compile_dump(field.schema)
    if isinstance(field, ma.fields.List):
        inner = _converter(field.inner)
        return lambda values: [None if v is None else inner(v) for v in values]
    if type(field) is ma.fields.Integer and not field.as_string:
        # int(value) is what marshmallow does; skip the call for a real int.
        return lambda v: v if type(v) is int else field._serialize(v, None, None)
    if type(field) is ma.fields.String:
        return lambda v: v if type(v) is str else field._serialize(v, None, None)
    if type(field) is ma.fields.Raw:
        return lambda v: v
    if type(field) is ma.fields.Dict and field.key_field is None and field.value_field is None:
        return dict  # marshmallow returns a shallow copy
    # Anything else: the field's own conversion (same result, generic speed).
    return lambda v: field._serialize(v, None, None)
