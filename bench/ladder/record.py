"""A ladder's finished matches, kept in a file so that a stopped run goes on
where it stopped.

The whole ladder takes longer than a working session on two cores, and a
session's processes end with it. With a record, each finished match is
written at once; a later run of the same command plays only the matches the
record lacks, and prints the same table as one uninterrupted run would.

A record holds results of one version of each game's code: every line of
it carries the game's id and a fingerprint of the engine files that game
runs on (its own rules and players and the shared engine) and of the
ladder's own settings. A line made with other code is dropped when the
record is read (a changed player makes its old results meaningless), so a
change to one game's rules or players replays that game only. The first
line lists the fingerprints, for the reader; the rest are JSON lines:

- ``{"match": key, "game": id, "engine": fp, "at": time, "result": ...}``:
  one finished match;
- ``{"block": id, "game": id, "engine": fp, "first": time, "last": time,
  "results": ..., "timing": ...}``: a whole pairing, once all its matches
  are in; it replaces their lines, so the record stays small (per match a
  winner, a length and the scores; the decision times of the pairing as one
  histogram per level).
"""

import hashlib
import json
import os
from collections import namedtuple
from datetime import UTC, datetime
from pathlib import Path

from . import matches, timing

# A pairing's results (dicts without timing), in task order, with the timing
# of all of them together and when its first and last matches finished.
Block = namedtuple("Block", "results timing first last")


def engine_files(root, game_id):
    """The files under ``root/engine`` that ``game_id`` runs on: all but the
    other games' rules (``engine/games/<game>``) and players
    (``engine/ai/<game>``)."""
    engine = Path(root) / "engine"
    games = {p.name for p in (engine / "games").iterdir() if p.is_dir()} - {game_id, "__pycache__"}
    others = {engine / part / game for part in ("games", "ai") for game in games}
    return sorted(
        p
        for p in engine.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and not others & set(p.parents)
    )


def engine_fingerprint(root, settings, game_id):
    """A digest of the engine files ``game_id`` runs on and of ``settings``."""
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True).encode())
    for path in engine_files(root, game_id):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def match_key(task):
    return json.dumps(task, sort_keys=True, separators=(",", ":"))


def block_id(tasks):
    joined = "\n".join(match_key(t) for t in tasks)
    return hashlib.sha256(joined.encode()).hexdigest()[:16]


def _now():
    return datetime.now(UTC).isoformat(timespec="seconds")


def _block_to_json(bid, block):
    return {
        "block": bid,
        "first": block.first,
        "last": block.last,
        "results": [[r["winner"], r["length"], r["scores"]] for r in block.results],
        "timing": {level: timing.to_json(t) for level, t in block.timing.items()},
    }


def _block_from_json(data):
    results = [
        {"winner": winner, "length": length, "scores": scores, "timing": None}
        for winner, length, scores in data["results"]
    ]
    times = {level: timing.from_json(t) for level, t in data["timing"].items()}
    return Block(results, times, data["first"], data["last"])


def _read_lines(path):
    """The file's JSON lines; a line cut short by a stopped run is skipped."""
    if path is None or not path.exists():
        return []
    entries = []
    for line in path.read_text().splitlines():
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return entries


class Record:
    """Finished matches and pairings; ``path=None`` keeps them in memory only.
    ``fingerprints`` maps each game's id to the fingerprint of its code now."""

    def __init__(self, path, fingerprints):
        self.path = Path(path) if path is not None else None
        self.fingerprints = dict(fingerprints)
        self.matches = {}  # match key -> (result, when it finished)
        self.blocks = {}  # block id -> (game id, Block)
        self.dropped = 0  # lines of other code left out when the record was read
        self._load()

    def _current(self, entry):
        return "game" in entry and entry.get("engine") == self.fingerprints.get(entry["game"])

    def _load(self):
        entries = [e for e in _read_lines(self.path) if "match" in e or "block" in e]
        for entry in entries:
            if not self._current(entry):
                self.dropped += 1
            elif "match" in entry:
                self.matches[entry["match"]] = (matches.result_from_json(entry["result"]), entry["at"])
            else:
                self.blocks[entry["block"]] = (entry["game"], _block_from_json(entry))
        self._rewrite()

    def block(self, tasks, play_many):
        """The pairing of ``tasks``, as a ``Block``: from the record if it is
        there, else played. ``play_many(todo)`` plays a list of tasks and
        yields ``(index in todo, result)`` in any order; it is given only the
        matches the record lacks, and each is written as soon as it ends."""
        bid = block_id(tasks)
        if bid not in self.blocks:
            todo = [t for t in tasks if match_key(t) not in self.matches]
            for index, result in play_many(todo):
                self._add_match(todo[index], result)
            self._seal(bid, tasks)
        return self.blocks[bid][1]

    def _add_match(self, task, result):
        key, at = match_key(task), _now()
        self.matches[key] = (result, at)
        self._append(self._match_line(key, result, at))

    def _seal(self, bid, tasks):
        """Turns the pairing's matches into one block, in the file as well."""
        finished = [self.matches.pop(match_key(t)) for t in tasks]
        times = {}
        for result, _ in finished:
            timing.merge_into(times, result["timing"])
        results = [{**result, "timing": None} for result, _ in finished]
        ats = [at for _, at in finished]
        block = Block(results, times, min(ats, default=None), max(ats, default=None))
        self.blocks[bid] = (tasks[0]["game"], block)
        self._rewrite()

    def _stamp(self, game_id):
        return {"game": game_id, "engine": self.fingerprints[game_id]}

    def _match_line(self, key, result, at):
        game_id = json.loads(key)["game"]
        return {"match": key, **self._stamp(game_id), "at": at, "result": matches.result_to_json(result)}

    def _lines(self):
        yield {"engines": self.fingerprints}
        for bid, (game_id, block) in self.blocks.items():
            yield {**_block_to_json(bid, block), **self._stamp(game_id)}
        for key, (result, at) in self.matches.items():
            yield self._match_line(key, result, at)

    def _rewrite(self):
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_name(self.path.name + ".partial")
        partial.write_text("".join(json.dumps(line) + "\n" for line in self._lines()))
        os.replace(partial, self.path)

    def _append(self, line):
        if self.path is None:
            return
        with self.path.open("a") as f:
            f.write(json.dumps(line) + "\n")
            f.flush()
