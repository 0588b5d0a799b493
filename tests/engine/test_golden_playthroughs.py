"""Golden playthroughs (tests/engine/golden): every recorded seeded match of
every variant must play exactly as recorded. A deliberate rules change
renews them with ``python -m tests.engine.golden --renew``, which says what
changed."""

import copy

import pytest

from tests.engine.golden.playthrough import (
    cases,
    describe_change,
    digest,
    load,
    play,
    replay_digests,
    replay_dumps,
)
from tests.engine.golden.states import apply_patch, flatten, patch, recorded_leaves, save_states, unflatten

CASES = cases()


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_the_match_plays_as_recorded(case):
    record = load(case)
    assert record is not None, f"no golden record for {case.name}: python -m tests.engine.golden --renew"
    change = describe_change(record, play(case))
    assert change is None, (
        f"{case.name}: {change}. If the rules changed on purpose: python -m tests.engine.golden --renew"
    )


def test_every_game_and_variant_has_records():
    labels = {(case.game_id, case.variant.label) for case in CASES}
    assert {game for game, _ in labels} == {"anno1503", "anno1452"}
    assert len(labels) >= 10


@pytest.fixture(scope="module")
def short_record():
    case = min(CASES, key=lambda c: len(load(c)["actions"]))
    return load(case)


def test_a_changed_state_is_found_at_its_step(short_record):
    changed = copy.deepcopy(short_record)
    changed["digests"][5] = "0" * 16
    assert describe_change(short_record, changed).startswith("state differs after step 5 (seat ")


def test_a_changed_choice_is_found(short_record):
    changed = copy.deepcopy(short_record)
    changed["actions"][3] = [9, {"type": "made_up"}]
    assert "the policy chose differently at step 4" in describe_change(short_record, changed)


def test_a_changed_outcome_is_found(short_record):
    changed = copy.deepcopy(short_record)
    changed["outcome"] = {"winners": [], "reason": "other"}
    assert describe_change(short_record, changed).startswith("outcome differs")


def test_recorded_actions_replay_to_the_recorded_states(short_record):
    assert replay_digests(short_record) == short_record["digests"]
    refused = copy.deepcopy(short_record)
    refused["actions"][2] = [refused["actions"][2][0], {"type": "made_up"}]
    assert replay_digests(refused)[-1].startswith("refused: ")


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_every_record_keeps_its_states(case):
    """The states file rebuilds the recorded state of the last step (``--write-states`` renews it)."""
    record = load(case)
    last = len(record["digests"]) - 1
    leaves = recorded_leaves(case.states_path, last)
    assert leaves is not None, f"no states for {case.name}: python -m tests.engine.golden --write-states"
    assert digest(unflatten(leaves)) == record["digests"][last]


def test_flat_states_round_trip():
    value = {"a": [1, {"b": []}, {}], "c": {"d": None, "e": "x"}, "f": []}
    leaves = flatten(value)
    assert unflatten(leaves) == value
    changed = flatten({"a": [1, {"b": [2]}], "c": {"e": "y"}, "f": []})
    apply_patch(leaves, patch(leaves, changed))
    assert leaves == changed


def test_a_changed_record_prints_the_diff_of_the_two_states(tmp_path):
    """A record whose state at step 5 was different (a gold count altered in
    its stored states, its digest to match) fails with that step's diff."""
    case = min(CASES, key=lambda c: len(load(c)["actions"]))
    record = load(case)
    dumps, _ = replay_dumps(record)
    altered = copy.deepcopy(dumps)
    gold_path = next(path for path in flatten(altered[5]) if path[-1] == "gold")
    node = altered[5]
    for key in gold_path[:-1]:
        node = node[key]
    node["gold"] += 7
    save_states(tmp_path / "altered.states.gz", altered)
    record["states"] = tmp_path / "altered.states.gz"
    record["digests"][5] = digest(altered[5])

    change = describe_change(record, play(case))

    shown = "".join(f"[{k}]" if type(k) is int else f".{k}" for k in gold_path).lstrip(".")
    was = node["gold"]
    assert change.startswith("state differs after step 5 (seat "), change
    assert f"{shown}: {was} -> {was - 7}" in change, change
    assert change.count("\n") == 1, change  # only the altered leaf differs
