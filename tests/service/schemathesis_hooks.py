"""schemathesis hooks of tests/service/test_schemathesis.py (``SCHEMATHESIS_HOOKS``):
the fuzzer's requests made as a real client makes them, where the rule is
one no request schema can state.

- ``Idempotency-Key`` (postAction, resign): a client sends a fresh key for
  each new request and the same key only to retry the same one; the same key
  with another body is 422 (docs/api-contract.md, as the IETF
  Idempotency-Key draft says), so generated values would collide across a
  run's thousands of requests. Every generated key is replaced by one of its
  own (a key outside the schema's bounds is left as it is: that is a
  negative case's point).
- ``POST /v1/seeks``: ``rating_min`` at most ``rating_max`` (422 otherwise:
  one field against another). Generated numbers the wrong way round are
  swapped.
"""

import itertools
import secrets
from typing import Any

import schemathesis

MAX_KEY_LENGTH = 255  # the schema's bound (service/spec/play_schemas.py)
_RUN = secrets.token_hex(4)
_KEYS = itertools.count()


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@schemathesis.hook
def map_case(context: Any, case: Any) -> Any:
    key = case.headers.get("Idempotency-Key") if case.headers else None
    if isinstance(key, str) and 1 <= len(key) <= MAX_KEY_LENGTH:
        case.headers["Idempotency-Key"] = f"fuzz-{_RUN}-{next(_KEYS)}"
    body = case.body
    if case.method.upper() == "POST" and case.path == "/v1/seeks" and isinstance(body, dict):
        low, high = body.get("rating_min"), body.get("rating_max")
        if _number(low) and _number(high) and low > high:
            body["rating_min"], body["rating_max"] = high, low
    return case
