"""How the archive's zstd dictionaries (service/storage/archive_dicts/) were made.

    .venv/bin/python -m bench.archive_dicts [--samples 120] [--out DIR]

Plays AI matches of every variant of each game with the engine alone (levels
random, easy and medium; 2 to 4 seats), shapes each as the record its
finished match would store (service.storage.archive, a match document made
by service.play.matches.new_match), and trains one dictionary per game on
them. The dictionaries in the repository are frozen: records written with
one are read with it for ever, so a new one gets a new dictionary id and
the old stays (archive.DICTIONARIES pins each by sha256). Run this only to
make a new dictionary; it prints each dictionary's sha256 and the median
record size with and without it.
"""

import argparse
import random
import secrets
import statistics
from pathlib import Path

import orjson
import zstandard

import engine
from engine.rng import mix_seed
from service.model.dice import Dice
from service.model.documents import refresh_play_status
from service.play.matches import new_match
from service.storage.archive import LEVEL, Record

VARIANTS = {
    "anno1503": [{}, {"expansion": "pirates_aristocrats"}],
    "anno1452": [
        {"rules": "basic"},
        {"rules": "expert"},
        {"scenario": "ottokar_a"},
        {"scenario": "ottokar_b"},
    ],
}
NAMES = ["Ada", "Grace", "Linus", "Barbara", None, "Ken", "Margaret", "Edsger"]


def sample_record(game_id: str, options: dict, seed: int, max_actions: int = 4000) -> bytes | None:
    """The JSON payload of one AI match's record, or None if it did not end."""
    game = engine.get_game(game_id)
    rng = random.Random(seed)
    scenario = options.get("scenario", "standard")
    count = rng.choice([2, 3] if scenario != "standard" else ([3, 4] if game_id == "anno1452" else [2, 3, 4]))
    if scenario == "standard" and count == 2:
        count = 3
    seats = [
        {"kind": "human", "name": rng.choice(NAMES)}
        if rng.random() < 0.3
        else {"kind": "ai", "level": rng.choice(["random", "easy", "medium"]), "name": None}
        for _ in range(count)
    ]
    resolved = game.resolve_options(count, options)
    made = new_match(game, resolved, seats, Dice.fair(), rng.choice([0, 300, 86400]))
    state = made.state
    doc = made.doc
    doc["status"] = "active"
    players = [engine.ai.get_player("easy" if s["kind"] == "human" else s["level"]) for s in doc["seats"]]
    actions = []
    for version in range(max_actions):
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        action = players[seat].choose(
            game, seat, game.view(state, seat), legal, seed=mix_seed(seed, version, seat)
        )
        actions.append([seat, action])
        state, _ = game.apply(state, seat, action)
    else:
        return None
    doc["version"] = len(actions)
    refresh_play_status(game, doc, state)
    tokens = {secrets.token_hex(32): s["seat"] for s in doc["seats"] if s["kind"] == "human"}
    record = Record(doc=doc, actions=actions, tokens=tokens, finished_ms=doc["updated_ms"])
    return orjson.dumps(record.payload())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=120)
    parser.add_argument("--size", type=int, default=16 * 1024)
    parser.add_argument("--out", default="/tmp/archive_dicts")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for game_id, variants in VARIANTS.items():
        samples = []
        seed = 1000
        while len(samples) < args.samples:
            seed += 1
            payload = sample_record(game_id, variants[seed % len(variants)], seed)
            if payload is not None:
                samples.append(payload)
        trained = zstandard.train_dictionary(args.size, samples[: args.samples * 3 // 4], level=LEVEL)
        path = out / f"{game_id}-1.zdict"
        path.write_bytes(trained.as_bytes())
        held_out = samples[args.samples * 3 // 4 :]
        plain = [len(zstandard.ZstdCompressor(level=LEVEL).compress(s)) for s in held_out]
        with_dict = [
            len(zstandard.ZstdCompressor(level=LEVEL, dict_data=trained).compress(s)) for s in held_out
        ]
        import hashlib

        print(
            f"{path} sha256 {hashlib.sha256(trained.as_bytes()).hexdigest()}; held-out records: "
            f"median {statistics.median(plain):.0f} B plain, {statistics.median(with_dict):.0f} B with it"
        )


if __name__ == "__main__":
    main()
