"""``tabula bot run``'s answer to challenges: accept those a filter lets
through, decline the others (lichess-bot's challenge settings, as flags).

    --accept-challenges            accept every challenge (the filters below narrow it)
    --challenge-game GAME          only challenges to this game (repeatable)
    --challenge-mode rated|casual  only rated, or only casual ones (default: both)
    --challenge-from NAME          only from these accounts (repeatable)
    --challenge-block NAME         never from these accounts (repeatable)

Without any of them the bot leaves challenges alone (a person may answer
them). With them, each ``challenge`` event of the account stream is
answered, and so is every challenge still pending when the bot starts."""

import argparse
from dataclasses import dataclass
from typing import Any

from .client import Client
from .errors import Conflict, Forbidden, NotFound
from .models import JSON


def add_challenge_flags(run: argparse.ArgumentParser) -> None:
    run.add_argument("--accept-challenges", action="store_true", help="accept challenges (see the filters)")
    run.add_argument("--challenge-game", action="append", metavar="GAME", help="accept only this game's")
    run.add_argument("--challenge-mode", choices=("rated", "casual", "any"), default="any")
    run.add_argument("--challenge-from", action="append", metavar="NAME", help="accept only from NAME")
    run.add_argument("--challenge-block", action="append", metavar="NAME", help="never accept from NAME")


@dataclass
class ChallengeFilter:
    games: set[str] | None = None
    mode: str = "any"
    allowed: set[str] | None = None
    blocked: frozenset[str] = frozenset()

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> "ChallengeFilter | None":
        """The filter the flags ask for, or None: challenges are left alone."""
        named = [args.challenge_game, args.challenge_from, args.challenge_block]
        if not (args.accept_challenges or any(named) or args.challenge_mode != "any"):
            return None
        return cls(
            set(args.challenge_game) if args.challenge_game else None,
            args.challenge_mode,
            {n.casefold() for n in args.challenge_from} if args.challenge_from else None,
            frozenset(n.casefold() for n in args.challenge_block or ()),
        )

    def why_not(self, challenge: JSON) -> str | None:
        """None when ``challenge`` passes, else why it is declined."""
        who = str(challenge["challenger"]["name"]).casefold()
        if self.games is not None and challenge["game"] not in self.games:
            return f"game {challenge['game']}"
        if self.mode != "any" and bool(challenge["rated"]) != (self.mode == "rated"):
            return "rated" if challenge["rated"] else "casual"
        if who in self.blocked or (self.allowed is not None and who not in self.allowed):
            return f"from {challenge['challenger']['name']}"
        return None


def answer(client: Client, rule: ChallengeFilter, challenge: JSON) -> tuple[str, str]:
    """Accept or decline one challenge: ``(what was done, text)``."""
    reason = rule.why_not(challenge)
    try:
        if reason is None:
            done = client.accept_challenge(challenge["id"])
            started = f", match {done['match_id']}" if done.get("match_id") else ""
            return "accepted", f"challenge {challenge['id']} accepted{started}"
        client.decline_challenge(challenge["id"])
        return "declined", f"challenge {challenge['id']} declined ({reason})"
    except (Conflict, NotFound, Forbidden) as error:
        return "skipped", f"challenge {challenge['id']} skipped ({error})"


def pending(client: Client, me: str | None) -> list[JSON]:
    """The challenges waiting for this account's answer when the bot starts."""
    try:
        listed = client.challenges()
    except Forbidden:  # the token may not read them: only new ones are answered
        return []
    mine: list[Any] = []
    for challenge in listed:
        if challenge["status"] != "pending" or challenge["challenger"]["name"] == me:
            continue
        seat = [s for s in challenge["seats"] if s.get("name") == me]
        if not seat or not seat[0].get("accepted"):
            mine.append(challenge)
    return mine
