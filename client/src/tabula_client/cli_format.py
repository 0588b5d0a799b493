"""The ``tabula`` command line's output: text through rich (colour on a
terminal, plain when piped) or JSON, and the one-line renderings of seats,
events, results and errors that every command shares."""

import json
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .errors import TabulaError
from .models import Event, GameOption, Match, Seat


class Output:
    """Text through rich (colour on a terminal, plain when piped) or JSON."""

    def __init__(self, as_json: bool):
        self.json = as_json
        # force_terminal=None: rich decides; piped output has no colour codes.
        self.console = Console(force_terminal=None, highlight=False)
        self.errors = Console(stderr=True, force_terminal=None, highlight=False)

    @property
    def terminal(self) -> bool:
        return self.console.is_terminal

    def line(self, text: str | Text, style: str | None = None) -> None:
        """One line, never parsed as markup nor wrapped."""
        if isinstance(text, str):
            text = Text(text, style=style or "")
        self.console.print(text, soft_wrap=True, markup=False, emoji=False)

    def data(self, value: Any) -> None:
        """One JSON document on one line."""
        sys.stdout.write(json.dumps(value, ensure_ascii=False) + "\n")
        sys.stdout.flush()

    def error(self, text: str) -> None:
        self.errors.print(Text(text, style="bold red"), soft_wrap=True, markup=False, emoji=False)

    def listing(self, data: Any, table: Callable[[], Table], lines: Callable[[], Iterable[str]]) -> None:
        """``data`` as JSON, else a rich ``table()`` on a terminal, else ``lines()`` as plain text."""
        if self.json:
            self.data(data)
        elif self.terminal:
            self.console.print(table())
        else:
            for line in lines():
                self.line(line)

    def report(self, data: dict[str, Any], text: str, style: str) -> None:
        """``data`` as JSON, or ``text`` in ``style``."""
        if self.json:
            self.data(data)
        else:
            self.line(text, style=style)


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def seat_label(seat: Seat) -> str:
    kind = seat.get("kind")
    if kind == "ai":
        who = f"AI {seat.get('level') or 'medium'}"
    elif kind == "open":
        who = "open"
    else:
        who = seat.get("name") or "human"
        if seat.get("resigned"):
            who += ", resigned"
    return f"seat {seat.get('seat')} ({who})"


def seat_names(match: Match, seats: list[int]) -> str:
    by_number = {s["seat"]: s for s in match.get("seats", [])}
    labels = [seat_label(by_number[n]) if n in by_number else f"seat {n} (human)" for n in seats]
    if match.get("you") is not None and match["you"] in seats:
        labels[seats.index(match["you"])] += " [you]"
    return ", ".join(labels) or "nobody"


def event_line(event: Event) -> str:
    """ "v12 seat 1 sold {...}": version, actor, type, data."""
    actor = "server" if event.get("seat") is None else f"seat {event['seat']}"
    data = event.get("data")
    tail = f" {compact(data)}" if data else ""
    return f"v{event.get('version')} {actor} {event.get('type')}{tail}"


def result_line(match: Match) -> str:
    result: Mapping[str, Any] = match.get("result") or {}
    winners = result.get("winners", [])
    parts = [
        f"winners: {seat_names(match, winners)}" if winners else "no winner",
        f"reason: {result.get('reason')}",
    ]
    if result.get("scores"):
        parts.append(f"scores: {compact(result['scores'])}")
    if result.get("resigned"):
        parts.append(f"resigned: {compact(result['resigned'])}")
    return "result: " + "; ".join(parts)


def match_line(match: Match) -> str:
    head = f"match {match.get('id')} ({match.get('game')}) v{match.get('version')} {match.get('status')}"
    if match.get("status") == "finished":
        return f"{head}; {result_line(match)}"
    return f"{head}; to act: {seat_names(match, match.get('to_act', []))}"


def option_text(name: str, option: GameOption) -> str:
    text = f"{name}={option.get('default')}"
    if option.get("choices"):
        text += f" ({' | '.join(str(c) for c in option['choices'])})"
    elif "min" in option or "max" in option:
        text += f" ({option.get('min', '')}..{option.get('max', '')})"
    return text


def describe_error(error: Exception) -> str:
    if isinstance(error, TabulaError):
        reason = error.details.get("reason")
        return f"{error.status} {error.code}: {error.message}" + (f" (reason: {reason})" if reason else "")
    if isinstance(error, httpx.HTTPError):
        return f"network error: {type(error).__name__}: {error}"
    return f"{type(error).__name__}: {error}"
