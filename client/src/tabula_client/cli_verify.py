"""Checking a finished match's replay, for ``tabula replay --verify``.

Standard library only (the client never imports the server's ``service``
package): the dice checks are the few lines of the README's step 6, the same
derivation as the server's ``service/dice.py``. The re-run uses the
``engine`` package when it is importable (the server's repository, or the
server package installed), and is reported as skipped otherwise.
"""

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

SEED_BITS = 63


@dataclass
class Check:
    """One verification step: ``ok`` True (passed), False (failed) or None (skipped)."""

    name: str
    ok: bool | None
    detail: str

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "detail": self.detail}


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def engine_seed(secret_hex: str, client_seed: Any = None) -> int:
    """HMAC-SHA256(key=secret, msg="tabula-dice:" + client seed): its first
    8 bytes, big-endian, shifted right to 63 bits."""
    message = b"tabula-dice:" + (b"" if client_seed is None else str(client_seed).encode("ascii"))
    digest = hmac.new(bytes.fromhex(secret_hex), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def reproducible_check(replay: dict[str, Any]) -> Check:
    """A reproducible seed: only its commitment can be checked."""
    ok = replay.get("proof") is None and sha256_hex(str(replay.get("seed"))) == replay.get("seed_commitment")
    return Check(
        "commitment",
        ok,
        ("sha256(seed) == seed_commitment" if ok else "sha256(seed) differs from seed_commitment")
        + " (reproducible dice: the creator chose the seed and knew every die)",
    )


def dice_checks(replay: dict[str, Any]) -> list[Check]:
    """The commitment and the seed derivation (fair dice), or the commitment
    of a reproducible seed."""
    commitment = replay.get("seed_commitment")
    proof = replay.get("proof")
    if replay.get("dice") == "reproducible":
        return [reproducible_check(replay)]
    if not isinstance(proof, dict) or not isinstance(proof.get("server_secret"), str):
        return [Check("commitment", False, "the replay has no proof.server_secret")]
    secret = proof["server_secret"]
    try:
        committed = sha256_hex(secret) == commitment
        derived = engine_seed(secret, proof.get("client_seed"))
    except (ValueError, UnicodeEncodeError) as error:
        return [Check("commitment", False, f"the secret is not hex: {error}")]
    checks = [
        Check(
            "commitment",
            committed,
            "sha256(server_secret) == seed_commitment"
            if committed
            else "sha256(server_secret) differs from seed_commitment",
        )
    ]
    same = derived == replay.get("seed")
    checks.append(
        Check(
            "seed derivation",
            same,
            "HMAC-SHA256(server_secret, 'tabula-dice:' + client_seed) gives the seed"
            if same
            else f"the secret and client seed give {derived}, the replay says {replay.get('seed')}",
        )
    )
    return checks


def rerun_check(replay: dict[str, Any]) -> Check:
    """Re-run the actions with the engine and compare the winners."""
    name = "engine re-run"
    try:
        import engine
        from engine.runner import replay as run_replay
    except ImportError as error:
        return Check(
            name,
            None,
            f"skipped: the engine package is not importable ({error}); "
            "run from the Tabula repository or install the server package",
        )
    result = replay.get("result") or {}
    expected = result.get("engine_winners", result.get("winners"))
    try:
        game = engine.get_game(replay["game"])
        actions = [(entry["seat"], entry["action"]) for entry in replay["actions"]]
        state, _ = run_replay(
            game, len(replay["seats"]), replay.get("options") or {}, replay["seed"], actions
        )
        outcome = game.outcome(state)
    except Exception as error:  # noqa: BLE001  (any engine refusal fails the check)
        return Check(name, False, f"the engine refused the replay: {type(error).__name__}: {error}")
    if outcome is None:
        return Check(name, False, f"after {len(actions)} actions the engine has no result yet")
    winners = list(outcome.get("winners", []))
    if expected is None:
        return Check(name, False, f"the replay has no result to compare (engine winners {winners})")
    ok = sorted(winners) == sorted(expected)
    return Check(
        name,
        ok,
        f"{len(actions)} actions re-run: engine winners {winners}"
        + ("" if ok else f", the match says {list(expected)}"),
    )


def verify(replay: dict[str, Any], rerun: bool = True) -> list[Check]:
    checks = dice_checks(replay)
    if rerun:
        checks.append(rerun_check(replay))
    return checks
