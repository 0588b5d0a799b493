"""Account names: what may be one, and when two names are the same name.

A name is typed as ASCII or full-width ASCII (``NAME_INPUT_PATTERN``) and
NFKC-normalized (full-width ``U+FF21 U+FF44 U+FF41`` becomes ``Ada``), then
must be 2 to 24 ASCII letters, digits, ``_`` or ``-``: a look-alike from
another script (Cyrillic ``U+0430``, Greek ``U+03BF``) is refused rather than folded,
so no two accepted names look alike. Two names are one when their NFKC forms
casefold alike (``name_key``). The built-in AI's names, the operator's and
the closed accounts' neutral names are reserved.
"""

import re
import unicodedata

from service.model.accounts import NAME_INPUT_PATTERN
from service.model.errors import validation

NAME_PATTERN = re.compile(r"^[A-Za-z0-9_-]{2,24}$")
INPUT_PATTERN = re.compile(NAME_INPUT_PATTERN)
RESERVED_NAMES = frozenset(
    {
        "ai-random",
        "ai-easy",
        "ai-medium",
        "ai-hard",
        "ai",
        "admin",
        "administrator",
        "root",
        "system",
        "tabula",
        "operator",
        "anonymous",
        "closed",
    }
)
RESERVED_PREFIXES = ("ai-", "closed-")


def normalize_name(raw: str) -> tuple[str, str]:
    """``(name, name_key)``: the NFKC form shown, and its casefold, the unique key.

    Raises 422 ``validation_error`` (``details.fields.name``) for a name of
    other characters or length, or a reserved one."""
    name = unicodedata.normalize("NFKC", raw)
    if not (INPUT_PATTERN.match(raw) and NAME_PATTERN.match(name)):
        raise _refused("2 to 24 ASCII letters, digits, '_' or '-' (or their full-width forms)")
    key = name.casefold()
    if key in RESERVED_NAMES or key.startswith(RESERVED_PREFIXES):
        raise _refused("this name is reserved")
    return name, key


def name_key(raw: str) -> str | None:
    """The unique key of a name as looked up (no reservation check), or None
    when it cannot be any account's name."""
    name = unicodedata.normalize("NFKC", raw)
    return name.casefold() if NAME_PATTERN.match(name) else None


def _refused(why: str) -> Exception:
    return validation(f"name: {why}", fields={"name": [why]})
