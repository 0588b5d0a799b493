"""Parameter domains of actions: one description serves three purposes.

Each action type lists its parameters as domains. The engine checks the shape
of an incoming action against them (malformed -> ``InvalidActionError``), and
the service turns the same domains into marshmallow fields, so the HTTP
schemas and the engine can never disagree about what an action looks like.
"""

from collections.abc import Iterable, Mapping
from typing import Any, Protocol, TypeVar

from .errors import InvalidActionError


class Domain:
    """A set of allowed values for one parameter."""

    required = True

    def problem(self, value: object) -> str | None:
        """Return why ``value`` is outside the domain, or None."""
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        """JSON-able description used to build schemas and docs."""
        raise NotImplementedError


class OneOf(Domain):
    """A string from a fixed list."""

    def __init__(self, values: Iterable[str], description: str = "") -> None:
        self.values = tuple(values)
        self._set = frozenset(self.values)
        self.description = description

    def problem(self, value: object) -> str | None:
        if type(value) is not str or value not in self._set:
            return "must be one of: " + ", ".join(self.values)
        return None

    def describe(self) -> dict[str, Any]:
        return {"kind": "enum", "values": list(self.values), "description": self.description}


class IntRange(Domain):
    """An integer in ``[lo, hi]``."""

    def __init__(self, lo: int, hi: int, description: str = "") -> None:
        self.lo, self.hi, self.description = lo, hi, description

    def problem(self, value: object) -> str | None:
        if type(value) is not int or not self.lo <= value <= self.hi:
            return f"must be an integer from {self.lo} to {self.hi}"
        return None

    def describe(self) -> dict[str, Any]:
        return {"kind": "int", "min": self.lo, "max": self.hi, "description": self.description}


class Square(Domain):
    """A board square ``[row, col]`` inside a ``rows`` x ``cols`` grid."""

    def __init__(self, rows: int, cols: int, description: str = "") -> None:
        self.rows, self.cols, self.description = rows, cols, description

    def problem(self, value: object) -> str | None:
        if (
            type(value) is not list
            or len(value) != 2
            or type(value[0]) is not int
            or type(value[1]) is not int
            or not 0 <= value[0] < self.rows
            or not 0 <= value[1] < self.cols
        ):
            return f"must be [row, col] with row < {self.rows} and col < {self.cols}"
        return None

    def describe(self) -> dict[str, Any]:
        return {"kind": "square", "rows": self.rows, "cols": self.cols, "description": self.description}


class Optional(Domain):
    """The parameter may be left out (or null); when present it is ``inner``."""

    required = False

    def __init__(self, inner: Domain) -> None:
        self.inner = inner

    def problem(self, value: object) -> str | None:
        return None if value is None else self.inner.problem(value)

    def describe(self) -> dict[str, Any]:
        return dict(self.inner.describe(), optional=True)


class _Shaped(Protocol):
    """What ``check_shape`` reads of an action spec (``core.ActionSpec``)."""

    @property
    def params(self) -> Mapping[str, Domain]: ...


SpecT = TypeVar("SpecT", bound=_Shaped)


def check_shape(action: object, specs: Mapping[str, SpecT]) -> SpecT:
    """Raise ``InvalidActionError`` unless ``action`` fits one of ``specs``.

    Returns the matching spec.
    """
    if type(action) is not dict:
        raise InvalidActionError("an action must be a JSON object", field="action")
    kind = action.get("type")
    spec = specs.get(kind) if type(kind) is str else None
    if spec is None:
        raise InvalidActionError(f"unknown action type {kind!r}", field="type", allowed=sorted(specs))
    params = spec.params  # read once: a protocol's attribute is a generic lookup each time
    for name in action:
        if name != "type" and name not in params:
            raise InvalidActionError(f"unexpected field {name!r} for {kind}", field=name)
    for name, domain in params.items():
        if name not in action:
            if domain.required:
                raise InvalidActionError(f"missing field {name!r} for {kind}", field=name)
            continue
        why = domain.problem(action[name])
        if why:
            raise InvalidActionError(f"{kind}.{name} {why}", field=name)
    return spec
