"""The action index space: every legal action of random matches of every
variant encodes to an index that decodes back to the same action, and the
mask marks exactly the legal ones."""

import numpy as np
import pytest

import engine
from engine.runner import play_match
from tabula_env.codec import codec_for, normalize
from tabula_env.variants import VARIANTS, get_variant

# Anno 1503 matches are cut (they are long); Anno 1452 matches run to the end
# of the shortest option (end_year 1314: every phase, six epochs). The full-length
# matches of test_random_agent.py encode every legal action of every step too.
MAX_ACTIONS = {"anno1503": 1200, "anno1452": 100_000}
SHORT = {"anno1503": {}, "anno1452": {"end_year": 1314}}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_legal_action_round_trips(name):
    variant = get_variant(name)
    game = engine.get_game(variant.game)
    codec = codec_for(variant)
    seen = set()

    def check(state, seat, action, new_state, events):
        legal = game.legal_actions(state, seat)
        indices = [codec.encode(a) for a in legal]
        for a, i in zip(legal, indices):
            assert codec.decode(i) == normalize(a), (a, i)
        mask = codec.mask(legal)
        assert mask.dtype == np.int8 and mask.shape == (codec.size,)
        assert sorted(np.flatnonzero(mask)) == sorted(indices) and len(set(indices)) == len(legal)
        seen.update(a["type"] for a in legal)

    play_match(
        game,
        [engine.ai.get_player("random")] * variant.num_players,
        seed=1,
        options={**variant.options, **SHORT[variant.game]},
        max_actions=MAX_ACTIONS[variant.game],
        on_step=check,
    )
    assert len(seen) >= 5, seen  # the matches went past the first decisions


def test_space_is_fixed_and_shared_by_rule_options():
    base, expansion = codec_for("anno1503-base-3p"), codec_for("anno1503-pa-3p")
    assert base is expansion and base.actions == codec_for("anno1503-base-3p").actions
    assert codec_for("anno1452-basic-standard-3p").size == codec_for("anno1452-expert-ottokar_b-3p").size
    # Seat parameters stop at the player count.
    sizes = [codec_for(f"anno1503-base-{n}p").size for n in (2, 3, 4)]
    assert sizes[0] < sizes[1] < sizes[2]
    assert [base.encode(a) for a in base.actions] == list(range(base.size))


def test_null_and_left_out_are_the_same_action():
    codec = codec_for("anno1452-basic-standard-3p")
    index = codec.encode({"type": "react", "card": None})
    assert index == codec.encode({"type": "react"})
    assert codec.decode(index) == {"type": "react"}
    attack = {"type": "attack", "target": [0, 1], "from": None}
    assert codec.decode(codec.encode(attack)) == {"type": "attack", "target": [0, 1]}


@pytest.mark.parametrize("variant", ["anno1503-base-2p", "anno1452-expert-ottokar_a-2p"])
def test_numbers_read_back_from_arrays_encode_as_the_ints_they_equal(variant):
    """An agent's action often comes back from NumPy: its ints are np.int64,
    or floats. Each encodes to the index of the action it equals."""
    import numpy as np

    codec = codec_for(variant)

    def as_numpy(value, kind):
        if isinstance(value, list):
            return [as_numpy(item, kind) for item in value]
        return kind(value) if isinstance(value, int) and not isinstance(value, bool) else value

    for index in range(0, codec.size, max(1, codec.size // 40)):
        action = codec.decode(index)
        for kind in (np.int64, np.int32, float):
            assert codec.encode({k: as_numpy(v, kind) for k, v in action.items()}) == index, (kind, action)


def test_decode_returns_a_fresh_copy():
    codec = codec_for("anno1452-basic-standard-3p")
    index = codec.encode({"type": "settle", "at": [0, 0], "at2": [1, 0]})
    first = codec.decode(index)
    first["at"][0] = 9
    assert codec.decode(index) == {"type": "settle", "at": [0, 0], "at2": [1, 0]}


@pytest.mark.parametrize(
    "action",
    [
        {"type": "no_such_type"},
        {"type": "sell", "commodity": "gold"},
        {"type": "big_branch_office", "target": 3},  # a 4th seat in a 2-player match
        {"type": "end_turn", "extra": 1},
        "end_turn",
    ],
)
def test_encode_refuses_actions_outside_the_space(action):
    with pytest.raises(ValueError, match="outside"):
        codec_for("anno1503-base-2p").encode(action)


@pytest.mark.parametrize("index", [-1, 10**6])
def test_decode_refuses_indices_outside_the_space(index):
    with pytest.raises(ValueError, match="outside"):
        codec_for("anno1503-base-2p").decode(index)


def test_unknown_variant_is_refused_with_the_names():
    with pytest.raises(ValueError, match="anno1503-base-2p"):
        get_variant("anno1503-base-5p")
