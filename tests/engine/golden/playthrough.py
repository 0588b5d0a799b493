"""Record and compare golden playthroughs.

A record is one seeded match of one variant (tests/engine/support's
``MATCH_VARIANTS``, played by that variant's seeded policy): its actions,
the digest of the game's dump after set-up and after every action, the
events' digest and the outcome; beside it, ``<name>.states.gz`` keeps the
dumps themselves, compactly (``states``). Comparing replays the recorded
actions (the rules alone) and plays the policy again (the legal actions it
chose from): either can reveal a change, and ``describe_change`` says where,
with the diff of the recorded and the new state at the first step that differs.
"""

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import orjson

import engine
from engine.rng import mix_seed
from tests.engine.golden.states import first_difference, flatten, recorded_leaves, save_states
from tests.engine.support import anno1452, anno1503

RECORDS = Path(__file__).resolve().parent / "records"
SUPPORT = {"anno1503": anno1503, "anno1452": anno1452}
MAX_ACTIONS = 20_000  # far above any recorded match; a runaway is a change too


def digest(value):
    """A short, stable digest of a JSON-compatible value."""
    return hashlib.sha256(orjson.dumps(value, option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]


@dataclass(frozen=True)
class Case:
    game_id: str
    variant: object  # support.variants.Variant
    num_players: int
    seed: int

    @property
    def name(self):
        label = self.variant.label.replace(" ", "-")
        return f"{label}-{self.num_players}p-s{self.seed}"

    @property
    def path(self):
        return RECORDS / f"{self.name}.json"

    @property
    def states_path(self):
        return RECORDS / f"{self.name}.states.gz"


def cases():
    """One match per variant and player count (the uniform-random variants
    are left out: their matches run to thousands of actions)."""
    out = []
    for game_id, support in SUPPORT.items():
        for variant in support.MATCH_VARIANTS:
            if variant.weights is None:
                continue
            out += [Case(game_id, variant, n, variant.first_seed) for n in variant.player_counts]
    return out


def play(case):
    """The record of ``case`` as the engine plays it now (with its ``dumps``)."""
    game = engine.get_game(case.game_id)
    player = case.variant.player()
    state = game.setup(case.num_players, dict(case.variant.options), case.seed)
    dumps = [game.dump(state)]
    actions, digests, events = [], [digest(dumps[0])], []
    for step in range(MAX_ACTIONS):
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        action = player.choose(
            game,
            seat,
            game.view(state, seat),
            game.legal_actions(state, seat),
            seed=mix_seed(case.seed, step),
        )
        state, new_events = game.apply(state, seat, action)
        actions.append([seat, action])
        dumps.append(game.dump(state))
        digests.append(digest(dumps[-1]))
        events.extend(new_events)
    return {
        "game": case.game_id,
        "variant": case.variant.label,
        "options": dict(case.variant.options),
        "num_players": case.num_players,
        "seed": case.seed,
        "outcome": game.outcome(state),
        "events": digest(events),
        "actions": actions,
        "digests": digests,
        "dumps": dumps,
    }


def replay_digests(record):
    """The per-step digests of the recorded actions replayed now; stops at
    the first action the rules refuse, returning its error as the last item."""
    dumps, refusal = replay_dumps(record)
    return [digest(dump) for dump in dumps] + ([refusal] if refusal else [])


def replay_dumps(record):
    """``(dumps, refusal)``: the dumps of the recorded actions replayed now
    (set-up first), up to the first action the rules refuse (``refusal``:
    its error as text, else None)."""
    game = engine.get_game(record["game"])
    state = game.setup(record["num_players"], record["options"], record["seed"])
    dumps = [game.dump(state)]
    for seat, action in record["actions"]:
        try:
            state, _ = game.apply(state, seat, action)
        except (engine.errors.EngineError, ValueError) as error:
            return dumps, f"refused: {error}"
        dumps.append(game.dump(state))
    return dumps, None


def load(case):
    """The committed record of ``case`` (as ``play`` returns one), or None."""
    if not case.path.exists():
        return None
    stored = json.loads(case.path.read_text())
    steps = stored.pop("steps")
    return {
        **stored,
        "digests": [stored.pop("setup")] + [step_digest for step_digest, _, _ in steps],
        "actions": [[seat, action] for _, seat, action in steps],
        "states": case.states_path,
    }


def save(record, case):
    """Write ``record`` as JSON with one step per line, so that a renewed
    record's diff shows the moves that changed."""
    head = {k: v for k, v in record.items() if k not in ("actions", "digests", "dumps", "states")}
    head["setup"] = record["digests"][0]
    steps = [
        json.dumps([step_digest, seat, action], sort_keys=True)
        for step_digest, (seat, action) in zip(record["digests"][1:], record["actions"], strict=True)
    ]
    body = json.dumps(head, sort_keys=True, indent=1)[:-2]  # reopen the object for "steps"
    case.path.write_text(body + ',\n "steps": [\n' + ",\n".join(steps) + "\n ]\n}\n")
    save_states(case.states_path, record["dumps"])


def describe_change(old, new):
    """What differs between two records of one case, in words; None if nothing."""
    if old is None:
        return "no record yet"
    for step, (was, now) in enumerate(zip(old["digests"], new["digests"])):
        if was != now:
            where = "set-up" if step == 0 else f"step {step} ({_action_text(new, step - 1)})"
            return f"state differs after {where}" + state_diff(old, new, step)
    for step, (was, now) in enumerate(zip(old["actions"], new["actions"])):
        if was != now:
            return f"the policy chose differently at step {step + 1}: {was} then, {now} now"
    for field in ("outcome", "events"):
        if old[field] != new[field]:
            return f"{field} differs: {old[field]} then, {new[field]} now"
    if len(old["actions"]) != len(new["actions"]):
        return f"length differs: {len(old['actions'])} then, {len(new['actions'])} now"
    return None


def _action_text(record, index):
    seat, action = record["actions"][index]
    return f"seat {seat} {json.dumps(action, sort_keys=True)}"


def state_diff(old, new, step):
    """The recorded state at ``step`` against ``new``'s, as text (``states.first_difference``),
    after a colon and a line break; "" when either state is not at hand."""
    path, dumps = old.get("states"), new.get("dumps")
    if path is None or dumps is None or step >= len(dumps):
        return ""
    recorded = recorded_leaves(path, step)
    if recorded is None:
        return ""
    return ": recorded -> now\n" + first_difference(recorded, flatten(dumps[step]))
