"""A seeded random match played through the public API, checked at every step.

Cheap checks run at every step: dump/load round trip and strict JSON,
to_act/outcome/legal_actions consistency, the chosen action applies without
touching its input, event shapes and public event data, and the game's
bookkeeping (conservation, gold) when a support module is given.

Costly ones run at the steps ``Sampler`` picks, at the last decision and at
the end: the listing's shape and stability, every listed action applies,
refusal sampling, ``json.dumps``, views (leaks and hidden-info
perturbations), and the reloaded copy continuing identically.

Players choose exactly as ``engine.runner.play_match`` does (same seeds), so
the action log can be compared with it.
"""

import random
from collections import Counter
from dataclasses import dataclass, field

import engine
from engine.rng import mix_seed

from . import checks, probes, secrecy

MAX_ACTIONS = 1_000_000


class Sampler:
    """Which steps get the costly probes; deterministic for a match.

    Random matches run to tens of thousands of actions, so a fixed stride
    would either cost minutes or miss rare situations. Probed: every
    ``every``-th step of the first ``dense_until`` ones, every
    ``sparse_every``-th step after, and the first step at which each action
    type is listed (so rare decisions, such as a pirate loss, a reserve
    placement or a discard, are probed in every match where they occur).
    """

    def __init__(self, every=25, dense_until=250, sparse_every=2500):
        self.every, self.dense_until, self.sparse_every = every, dense_until, sparse_every
        self.types_seen = set()

    def wants(self, step, legal):
        types = {a["type"] for a in legal}
        new_type = not types <= self.types_seen
        self.types_seen |= types
        stride = self.every if step < self.dense_until else self.sparse_every
        return new_type or step % stride == 0


@dataclass
class CheckedMatch:
    """What a checked match leaves behind, for further assertions."""

    num_players: int
    seed: int
    options: dict = field(default_factory=dict)
    actions: list = field(default_factory=list)  # [(seat, action)]
    events: list = field(default_factory=list)
    final_state: object = None
    final_dump: dict = None
    outcome: dict = None
    probed: list = field(default_factory=list)  # where the costly probes ran
    perturbations: Counter = field(default_factory=Counter)
    refusals: int = 0


class _Probe:
    """The costly checks, bound to one match."""

    def __init__(self, game, support, record):
        self.game, self.support, self.record = game, support, record
        self.n = record.num_players
        self.rng = random.Random(record.seed)
        self.described = game.describe_actions()

    def decision(self, state, loaded, dump, seat, legal, where):
        game, n = self.game, self.n
        self.record.probed.append(where)
        checks.stdlib_json(dump, f"dump at {where}")
        checks.others_get_nothing(game, state, n, where)
        checks.listing(game, state, seat, legal, self.described, where)
        checks.listing_is_stable(game, state, loaded, seat, legal, where)
        probes.every_listed_applies(game, state, seat, legal, n, self.bookkeeping, where)
        self.record.refusals += probes.refusals(game, state, seat, legal, n, self.rng, where)
        self.views(state, dump, where)

    def views(self, state, dump, where):
        if self.support is None:
            for viewer in secrecy.viewers(self.n):
                checks.strict_json(self.game.view(state, viewer), f"view of {viewer} at {where}")
            return
        secrecy.check_views(self.game, self.support, state, dump, self.n, where, self.record.perturbations)

    def bookkeeping(self, dump, where):
        if self.support is not None:
            problems = self.support.state_problems(dump)
            assert not problems, f"bookkeeping broken at {where}: {problems}"

    def after_chosen(self, state, loaded, dump, seat, action, state_after, events, where):
        """The input is untouched and the reloaded copy (generator included) continues identically."""
        game = self.game
        after = game.dump(state)
        assert after == dump, f"apply changed its input at {where}: {checks.first_diff(dump, after)}"
        for event in events:
            checks.redaction(event, self.n, where)
        other, other_events = game.apply(loaded, seat, action)
        assert game.dump(other) == game.dump(state_after), f"reloaded state diverges after {where}"
        assert other_events == events, f"reloaded state emits other events after {where}"


def play_checked(
    game, num_players, seed, support=None, sampler=None, max_actions=None, options=None, player=None
):
    """Play and check one match; return its ``CheckedMatch``.

    The match is played to its end unless ``max_actions`` cuts it short
    (then ``outcome`` is None and the end-of-match checks are skipped).
    ``player`` (default: the uniform random player) chooses for every seat.
    """
    options = dict(options or {})
    record = CheckedMatch(num_players=num_players, seed=seed, options=options)
    probe = _Probe(game, support, record)
    sampler = sampler or Sampler()
    player = player or engine.ai.get_player("random")
    state = game.setup(num_players, options, seed)
    last = None  # the previous unprobed decision, probed if it turns out to be the last
    for step in range(MAX_ACTIONS + 1):
        if step == max_actions:
            record.final_state = state
            return record
        where = f"{game.id} {num_players}p seed {seed} step {step}"
        dump, loaded = checks.round_trip(game, state, where)
        probe.bookkeeping(dump, where)
        to_act, legal = checks.turn_consistency(game, state, num_players, where)
        if not to_act:
            break
        seat = to_act[0]
        probed = sampler.wants(step, legal)
        if probed:
            probe.decision(state, loaded, dump, seat, legal, where)
            view = game.view(state, seat)
        else:
            # The random player ignores its view; building one per step would
            # cost a fifth of the run, and views are checked when probed.
            view = None
        action = player.choose(game, seat, view, legal, seed=mix_seed(seed, step))
        state_after, events = _apply_chosen(game, state, seat, action, num_players, support, where)
        if probed:
            probe.after_chosen(state, loaded, dump, seat, action, state_after, events, where)
        last = None if probed else (state, loaded, dump, seat, legal, where + " (last decision)")
        record.actions.append((seat, action))
        record.events.extend(events)
        state = state_after
    else:
        raise AssertionError(f"{game.id} {num_players}p seed {seed}: no outcome after {MAX_ACTIONS} actions")
    if last is not None:
        probe.decision(*last)
    _finish(game, probe, record, state, dump, where)
    return record


def _apply_chosen(game, state, seat, action, num_players, support, where):
    try:
        new_state, events = game.apply(state, seat, action)
    except engine.EngineError as exc:
        raise AssertionError(f"chosen listed action {action!r} refused at {where}: {exc!r}") from None
    checks.events_shape(events, num_players, where)
    if support is not None:
        leaks = [leak for event in events for leak in support.event_leaks(event)]
        assert not leaks, f"public event data leaks at {where}: {leaks}"
    return new_state, events


def _finish(game, probe, record, state, dump, where):
    checks.others_get_nothing(game, state, record.num_players, where)
    probe.views(state, dump, where + " (final)")
    probes.game_over_refusals(game, state, record.num_players, probe.described, where)
    record.final_state = state
    record.final_dump = dump
    record.outcome = game.outcome(state)
