"""Shared helpers for the Anno 1452 tests: positions from edited dumps,
forced dice, and the invariants checked over random matches."""

import json
from typing import ClassVar

from engine.games.anno1452 import Anno1452
from engine.games.anno1452.board import iter_estates, majority_owner, totals
from engine.games.anno1452.data import CITIZENS_PER_PLAYER, ESTATES_PER_PLAYER, MAX_ESTATES, REGION_INDEX

GAME = Anno1452()
R = REGION_INDEX


def blank(num_players=3, options=None, seed=1):
    """A dump after set-up with an empty map, every seat's hand cleared,
    in the first action round with seat 0 to act (order 0, 1, 2...)."""
    d = GAME.dump(GAME.setup(num_players, options or {}, seed))
    for reg in d["regions"]:
        reg["slots"] = [None] * len(reg["slots"])
        reg["principality"] = None
    for p in d["players"]:
        d["deck"] += p["hand"]
        p["hand"] = []
    d["order"] = list(range(num_players))
    d["phase"] = "action"
    d["row"], d["ar"] = 1, 1
    d["queue"] = [["turn", s] for s in range(1, num_players)] + [["ar_end", 1]]
    d["decision"] = {"kind": "action_turn", "seats": [0], "extra_used": False}
    d["turn"] = 0
    return d


def put(d, region, owner, strength=3, citizens=0, city=False):
    """Place an Estate directly in the dump; returns its [region, slot]."""
    r = R[region]
    slots = d["regions"][r]["slots"]
    s = slots.index(None)
    slots[s] = {"owner": owner, "strength": strength, "city": city, "citizens": citizens}
    return [r, s]


def give_card(d, seat, name):
    """Move the first card named ``name`` from the deck into ``seat``'s hand."""
    from engine.games.anno1452.data import CARDS

    card = next(c for c in d["deck"] if CARDS[c]["name"] == name)
    d["deck"].remove(card)
    d["players"][seat]["hand"].append(card)
    return card


class ScriptedDice:
    """Stands in for ``engine.rng.Rng`` in the rules (``state.use_dice``):
    dice come from a script (boardgame.io's MockRandom idea); shuffles keep
    their order."""

    script: ClassVar[list[int]] = []

    def __init__(self, state):
        self.state = state

    def die(self, sides=6):
        if not ScriptedDice.script:
            raise AssertionError("the scripted dice ran out")
        return ScriptedDice.script.pop(0)

    def dice(self, count, sides=6):
        return [self.die(sides) for _ in range(count)]

    def shuffle(self, items):
        pass


def run_steps(state, steps):
    """Run flow steps (e.g. ``[["income"]]``) on a loaded state; returns events."""
    from engine.games.anno1452.flow import advance

    d = state.data
    d["queue"], d["decision"] = [list(s) for s in steps], None
    events = []
    advance(d, events)
    return events


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


def load(d):
    return GAME.load(d)


def act(state, seat, **action):
    return GAME.apply(state, seat, action)


def check_invariants(state):
    """Rule invariants that hold in every reachable position."""
    d = state.data
    json.dumps(GAME.dump(state))
    for seat in range(d["num_players"]):
        p = d["players"][seat]
        assert p["gold"] >= 0, ("negative gold", seat, p["gold"])
        assert 0 <= p["prestige"] <= 20
        estates, citizens, _ = totals(d, seat)
        assert estates <= ESTATES_PER_PLAYER
        assert citizens <= CITIZENS_PER_PLAYER
    for r, reg in enumerate(d["regions"]):
        assert len(reg["slots"]) == MAX_ESTATES[r]
        holder = reg["principality"]
        if holder is not None:
            marriage = d["players"][holder]["marriage"]
            conveyed = marriage is not None and r in marriage["conveyed"]
            assert conveyed or majority_owner(d, r) == holder, ("principality without majority", r, holder)
        elif d["battle"] is None:
            owner = majority_owner(d, r)
            assert owner is None or owner == "ottokar" or _conveyed_elsewhere(d, r), (
                "majority without card",
                r,
            )
    for _, _, e in iter_estates(d):
        cap = 6 if e["city"] else 3
        assert 0 <= e["citizens"] <= cap
        assert 0 <= e["strength"] <= 3


def _conveyed_elsewhere(d, r):
    return any(p["marriage"] and r in p["marriage"]["conveyed"] for p in d["players"])
