"""The action masks the environments hand out: shared between states with the
same legal set, so they must be read-only for good, and exactly the legal set."""

import numpy as np
import pytest

import tabula_env
from tabula_env import masks
from tabula_env.masks import MaskCache

from .agents import MaskedRandomAgent


# Anno 1503's masks are shared (cached), Anno 1452's built per step (a large space).
@pytest.mark.parametrize("variant", ["anno1503-base-2p", "anno1452-basic-ottokar_a-2p"])
def test_masks_are_read_only_and_cannot_be_made_writable(variant):
    env = tabula_env.aec_env(variant)
    env.reset(seed=7)
    mask = env.action_mask(env.agent_selection)
    with pytest.raises(ValueError):
        mask[0] = 1
    with pytest.raises(ValueError):
        mask.flags.writeable = True
    observed = env.observe(env.agent_selection)["action_mask"]
    observed[0] = 1  # the observation's copy is the caller's own
    assert not np.shares_memory(observed, mask)


def test_every_step_the_mask_is_exactly_the_legal_actions():
    env = tabula_env.aec_env("anno1503-base-3p")
    env.reset(seed=3)
    agent = MaskedRandomAgent(env.codec, 3)
    legal_sets = set()
    for name in env.agent_iter(400):
        mask, legal = env.action_mask(name), env.match.legal_actions()
        assert mask.dtype == np.int8 and mask.shape == (env.codec.size,)
        assert sorted(np.flatnonzero(mask)) == sorted(env.codec.encode(a) for a in legal)
        assert env.legal_indices(name) == [env.codec.encode(a) for a in legal]
        legal_sets.add(tuple(env.legal_indices(name)))
        for other in env.agents:
            if other != name:
                assert not env.action_mask(other).any() and env.legal_indices(other) == []
        env.step(agent.act(mask))
    assert len(legal_sets) < 400  # legal sets came back: shared masks were checked again


def test_a_full_cache_starts_over_and_stays_right():
    cache = MaskCache(10)
    cache.capacity = 3
    sets = [(1,), (2, 3), (0, 9), (4,), (1,)]
    for indices in sets:
        flags, mask = cache.legal(indices)
        assert list(np.flatnonzero(mask)) == sorted(indices) and flags == bytes(mask)
        assert len(cache._entries) <= 3
    assert cache.legal((2, 3))[1] is cache.legal((2, 3))[1]


def test_a_large_space_reuses_only_masks_nothing_holds():
    # Anno 1452 (55,000 actions): a step's mask is written into an earlier
    # step's buffer once nothing holds it; anything still held keeps its values.
    env = tabula_env.aec_env("anno1452-expert-ottokar_a-2p")
    env.reset(seed=5)
    agent = MaskedRandomAgent(env.codec, 5)
    held = []
    for step, name in enumerate(env.agent_iter(400)):
        mask = env.action_mask(name)
        assert sorted(np.flatnonzero(mask)) == sorted(env.legal_indices(name))
        if step % 4 == 0:  # the mask, a view, its memoryview, its buffer or a memoryview of it
            part = (mask, mask[3:], mask.base, mask.base.obj, memoryview(mask))[step // 4 % 5]
            held.append((part, bytes(part)))
            del part
        env.step(agent.act(mask))
        del mask
    assert all(bytes(part) == values for part, values in held)
    # A new buffer for each mask held, and a few the match keeps: not one a step.
    assert env.match._masks.made <= len(held) + masks.KEPT
