"""Timestamps as ISO 8601 in UTC, as the API and the logs write them.

Every move stamps its document and events, and every request its log line:
``datetime.fromtimestamp(...).isoformat()`` on each cost a few per cent of a
move's CPU on a loaded worker (py-spy, issue 45). The date and time of day
change once a second, so they are formatted once a second and only the
fraction is formatted each time.
"""

import time
from datetime import UTC, datetime

# The second last formatted: (epoch seconds, "YYYY-MM-DDTHH:MM:SS"), one
# tuple so that a thread never reads one second's text with another's.
_second: tuple[int, str] = (-1, "")
# The last second of year 9999: gmtime and datetime format alike up to it.
_LAST = 253402300799


def _date_and_time(second: int) -> str:
    """``YYYY-MM-DDTHH:MM:SS`` of the epoch ``second`` (cached for the last one)."""
    global _second
    cached = _second
    if cached[0] != second:
        cached = _second = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
    return cached[1]


def iso_utc(ms: int) -> str:
    """Epoch milliseconds as ISO 8601 in UTC with milliseconds and ``Z``."""
    second, milli = divmod(ms, 1000)
    if not 0 <= second <= _LAST:
        # Before 1970 (no clock of ours) and past 9999 as datetime does it.
        iso = datetime.fromtimestamp(second, tz=UTC).isoformat()
        return f"{iso.replace('+00:00', '')}.{milli:03d}Z"
    return f"{_date_and_time(second)}.{milli:03d}Z"


def iso_utc_now_us() -> str:
    """Now as ISO 8601 in UTC with microseconds and ``Z`` (the log lines' timestamp)."""
    now = time.time()
    second = int(now)
    return f"{_date_and_time(second)}.{int((now - second) * 1_000_000):06d}Z"
