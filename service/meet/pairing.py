"""One wave's grouping of a pool's waiting seekers into tables (pure: no Redis).

Two seekers may share a table when both want a rated match or both an
unrated one, each one's rating (mu) lies within the other's explicit range,
and their ratings differ by at most the narrower of their two *widths*. A
seeker's width starts at ``base`` and grows by ``per_wave`` with each wave
it has waited, up to ``most`` (Lichess's pools widen the same way): a table
is first sought among near equals, and a long wait buys a wider spread.

The oldest seeker is seated first: among the seekers compatible with it and
with each other, nearest in rating first, it takes the largest player count
every one of them accepts. A seeker nobody fits stays for the next wave,
unless it asked for AI after S seconds and waited that long: then it plays
its smallest accepted count with AI in the empty seats.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Widening:
    base: float
    per_wave: float
    most: float
    wave_ms: int

    def width(self, waited_ms: int) -> float:
        return min(self.most, self.base + self.per_wave * (waited_ms // max(1, self.wave_ms)))


@dataclass
class Seeker:
    sid: str
    aid: str
    mu: float
    counts: list[int]
    rated: bool
    created_ms: int
    rating_min: float | None = None
    rating_max: float | None = None
    ai_level: str | None = None
    ai_after_ms: int | None = None
    width: float = field(default=0.0, compare=False)

    def accepts(self, other: Seeker) -> bool:
        if self.rating_min is not None and other.mu < self.rating_min:
            return False
        if self.rating_max is not None and other.mu > self.rating_max:
            return False
        return abs(self.mu - other.mu) <= self.width


@dataclass
class Table:
    seekers: list[Seeker]
    ai_seats: int = 0
    ai_level: str | None = None

    @property
    def spread(self) -> float:
        mus = [s.mu for s in self.seekers]
        return max(mus) - min(mus)


def compatible(a: Seeker, b: Seeker) -> bool:
    return a.aid != b.aid and a.rated == b.rated and a.accepts(b) and b.accepts(a)


def _nearest(by_mu: list[Seeker], mus: list[float], s: Seeker, taken: set[str]) -> list[Seeker]:
    """The free seekers within ``s``'s width, nearest in rating first."""
    lo = bisect.bisect_left(mus, s.mu - s.width)
    hi = bisect.bisect_right(mus, s.mu + s.width)
    near = [c for c in by_mu[lo:hi] if c.sid not in taken and c.sid != s.sid and compatible(s, c)]
    return sorted(near, key=lambda c: (abs(c.mu - s.mu), c.created_ms))


def _table_for(s: Seeker, near: list[Seeker]) -> list[Seeker] | None:
    for n in sorted(s.counts, reverse=True):
        chosen = [s]
        for c in near:
            if n in c.counts and all(compatible(c, x) for x in chosen[1:]):
                chosen.append(c)
                if len(chosen) == n:
                    return chosen
    return None


def group(seekers: list[Seeker], now_ms: int, widening: Widening) -> list[Table]:
    """The tables of one wave; each seeker in at most one."""
    for s in seekers:
        s.width = widening.width(now_ms - s.created_ms)
    by_mu = sorted(seekers, key=lambda s: s.mu)
    mus = [s.mu for s in by_mu]
    taken: set[str] = set()
    tables = []
    for s in sorted(seekers, key=lambda s: (s.created_ms, s.sid)):
        if s.sid in taken:
            continue
        chosen = _table_for(s, _nearest(by_mu, mus, s, taken))
        if chosen is not None:
            tables.append(Table(chosen))
        elif s.ai_level is not None and s.ai_after_ms is not None and now_ms - s.created_ms >= s.ai_after_ms:
            chosen = [s]
            tables.append(Table(chosen, min(s.counts) - 1, s.ai_level))
        else:
            continue
        taken.update(c.sid for c in chosen)
    return tables
