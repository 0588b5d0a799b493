"""Decision times of one AI level, summed up small enough to keep.

A ladder plays tens of thousands of decisions per variant, and its record
(``record``) keeps every finished match so that a run can be picked up
again in a later session. Keeping each time would make that record
megabytes long; a histogram with buckets 2% wide keeps the median and the
95th percentile to within 1% and the maxima exactly, in a few hundred
numbers per level.
"""

import math
from collections import Counter, namedtuple

BUCKET_RATIO = 1.02
_LOG_RATIO = math.log(BUCKET_RATIO)
_SHORTEST = 1e-9  # a clock can read 0 s for the cheapest decisions

# n decisions timed, {bucket: count}, the slowest raw and steady times, the
# decisions that had a single legal action (not timed), and for ``hard`` the
# decisions it searched and how many of those its wall-clock cap cut short.
LevelTiming = namedtuple("LevelTiming", "n hist max steady_max singles searches capped")
NO_TIMING = LevelTiming(0, {}, 0.0, 0.0, 0, 0, 0)


def bucket(seconds):
    return math.floor(math.log(max(seconds, _SHORTEST)) / _LOG_RATIO)


def bucket_middle(index):
    """The geometric middle of a bucket: within 1% of every time in it."""
    return BUCKET_RATIO ** (index + 0.5)


def level_timing(times, steady, singles, searches=0, capped=0):
    """One level's decisions in one match, as a ``LevelTiming``."""
    return LevelTiming(
        len(times),
        dict(Counter(bucket(t) for t in times)),
        max(times, default=0.0),
        max(steady, default=0.0),
        singles,
        searches,
        capped,
    )


def merged(a, b):
    hist = Counter(a.hist)
    hist.update(b.hist)
    return LevelTiming(
        a.n + b.n,
        dict(hist),
        max(a.max, b.max),
        max(a.steady_max, b.steady_max),
        a.singles + b.singles,
        a.searches + b.searches,
        a.capped + b.capped,
    )


def merge_into(acc, timing):
    """Adds a match's ``{level: LevelTiming}`` to ``acc`` in place."""
    for level, t in timing.items():
        acc[level] = merged(acc.get(level, NO_TIMING), t)
    return acc


def quantile(timing, q):
    """The ``q`` quantile of the decision times (0.5: the median), to within
    1% (the middle of its bucket); None without decisions."""
    if timing.n == 0:
        return None
    rank = max(1, math.ceil(q * timing.n))
    seen = 0
    for index in sorted(timing.hist):
        seen += timing.hist[index]
        if seen >= rank:
            return bucket_middle(index)


def median(timing):
    return quantile(timing, 0.5)


def to_json(timing):
    return {
        "n": timing.n,
        "hist": sorted(timing.hist.items()),
        "max": timing.max,
        "steady_max": timing.steady_max,
        "singles": timing.singles,
        "searches": timing.searches,
        "capped": timing.capped,
    }


def from_json(data):
    return LevelTiming(
        data["n"],
        {int(k): c for k, c in data["hist"]},
        data["max"],
        data["steady_max"],
        data["singles"],
        data.get("searches", 0),
        data.get("capped", 0),
    )
