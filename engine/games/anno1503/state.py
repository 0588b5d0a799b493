"""The match state: plain data with ``__slots__``, a hand-written clone and
the DESIGN.md dump format.

Internally island spaces are list indices (``data.SPACES`` order) and board
squares are ``(row, col)`` tuples; the dump turns them into the documented
``"r,c"`` keys and ``[r, c]`` lists. ``choice``, ``last_roll``,
``discovery``, the ``seen`` tuples, ``box``, ``buildings``, ``reserve`` and
``removed`` are never mutated in place (they are replaced), so ``clone`` may
share them.
"""

from ...rng import Rng
from .data import COMMODITIES, KINDS
from .xdata import LUXURIES, geometry

RULES_VERSION = 1
# choices whose options are island spaces (dumped as [r, c])
SPACE_CHOICES = ("reserve_placement", "pirate_sea_placement")


class Player:
    """One seat's holdings and its per-turn counters.

    ``slots``, ``buildings``, ``branch_offices``, ``trade_agreements`` and
    ``sold`` change rarely, so they are copy-on-write: replaced through the
    ``set_*``/``add_*`` methods, never mutated in place, and shared by
    ``clone``. ``hand`` and the ships change often and are copied.
    """

    __slots__ = (
        "gold", "hand", "slots", "buildings", "branch_offices", "trade_agreements",
        "ship_at", "ship_ap", "sold", "buys", "bbo_used", "x",
    )

    def clone(self):
        p = Player.__new__(Player)
        p.gold = self.gold
        p.hand = self.hand.copy()
        p.slots = self.slots
        p.buildings = self.buildings
        p.branch_offices = self.branch_offices
        p.trade_agreements = self.trade_agreements
        p.ship_at = self.ship_at.copy()
        p.ship_ap = self.ship_ap.copy()
        p.sold = self.sold
        p.buys = self.buys
        p.bbo_used = self.bbo_used
        p.x = None if self.x is None else _copy_x(self.x)
        return p

    @classmethod
    def new(cls, gold, hand, slots, x=None):
        """``x``: the expansion holdings (None in the base game)."""
        p = cls.__new__(cls)
        p.gold = gold
        p.x = x
        keys = COMMODITIES if x is None else COMMODITIES + LUXURIES
        p.hand = {c: hand.get(c, 0) for c in keys}
        p.slots = list(slots) + [None] * (7 - len(slots))
        p.buildings = [None] * 4
        p.branch_offices = [None] * 5  # index = bridge number - 1
        p.trade_agreements = []
        p.ship_at = [None, None]
        p.ship_ap = [0, 0]
        p.reset_turn()
        return p

    def reset_turn(self):
        self.sold = dict.fromkeys(KINDS, 0)
        self.buys = 0
        self.bbo_used = False
        if self.x is not None:
            self.x["turn"] = dict.fromkeys(X_TURN_FLAGS, False)

    # --- copy-on-write updates ---------------------------------------------

    def set_slot(self, index, kind):
        slots = self.slots.copy()
        slots[index] = kind
        self.slots = slots

    def set_building(self, index, building):
        buildings = self.buildings.copy()
        buildings[index] = building
        self.buildings = buildings

    def set_branch_office(self, index, tile):
        offices = self.branch_offices.copy()
        offices[index] = tile
        self.branch_offices = offices

    def add_trade_agreement(self, tile):
        self.trade_agreements = self.trade_agreements + [tile]

    def pop_trade_agreement(self):
        tile = self.trade_agreements[-1]
        self.trade_agreements = self.trade_agreements[:-1]
        return tile

    def count_sale(self, kind):
        self.sold = {**self.sold, kind: self.sold[kind] + 1}

    def move_sale(self, before, after):
        """An inhabitant that bought this turn was developed from ``before`` to ``after``."""
        self.sold = {**self.sold, before: self.sold[before] - 1, after: self.sold[after] + 1}

    def hand_size(self):
        return sum(self.hand.values())

    def dump(self):
        out = self._dump_base()
        if self.x is not None:
            out["aristocrat"] = _copy_x(self.x)
        return out

    def _dump_base(self):
        return {
            "gold": self.gold,
            "hand": dict(self.hand),
            "slots": list(self.slots),
            "buildings": list(self.buildings),
            "branch_offices": {str(b + 1): t for b, t in enumerate(self.branch_offices)},
            "trade_agreements": list(self.trade_agreements),
            "ships": self.ships_dump(),
            "turn": self.turn_dump(),
        }

    # Shared by the dump and the views (all of it is public).
    def ships_dump(self):
        return [{"at": list(at) if at else None, "ap": ap} for at, ap in zip(self.ship_at, self.ship_ap)]

    def turn_dump(self):
        return {"sold": dict(self.sold), "buys": self.buys, "big_branch_office_used": self.bbo_used}

    @classmethod
    def load(cls, data):
        p = cls.__new__(cls)
        p.gold = data["gold"]
        x = data.get("aristocrat")
        p.x = None if x is None else _copy_x(x)
        keys = COMMODITIES if x is None else COMMODITIES + LUXURIES
        p.hand = {c: data["hand"].get(c, 0) for c in keys}
        p.slots = list(data["slots"])
        p.buildings = list(data["buildings"])
        p.branch_offices = [data["branch_offices"].get(str(b)) for b in range(1, 6)]
        p.trade_agreements = list(data["trade_agreements"])
        p.ship_at = [tuple(s["at"]) if s["at"] is not None else None for s in data["ships"]]
        p.ship_ap = [s["ap"] for s in data["ships"]]
        turn = data["turn"]
        p.sold = {k: turn["sold"].get(k, 0) for k in KINDS}
        p.buys = turn["buys"]
        p.bbo_used = turn["big_branch_office_used"]
        return p


class State:
    """A whole match; see DESIGN.md for the meaning of each field."""

    __slots__ = (
        "options", "num_players", "seed", "rng", "turn", "start_player", "active", "phase",
        "last_roll", "queue", "choice", "stacks", "buildings", "spaces", "seen",
        "reserve", "box", "removed", "discovery", "winner", "players", "x",
    )

    def clone(self):
        s = State.__new__(State)
        s.options = self.options
        s.num_players = self.num_players
        s.seed = self.seed
        s.rng = Rng(self.rng.state)
        s.turn = self.turn
        s.start_player = self.start_player
        s.active = self.active
        s.phase = self.phase
        s.last_roll = self.last_roll
        s.queue = self.queue.copy()
        s.choice = self.choice
        s.stacks = self.stacks.copy()
        s.buildings = self.buildings  # copy-on-write, like reserve and removed
        s.spaces = self.spaces.copy()
        s.seen = self.seen.copy()
        s.reserve = self.reserve
        s.box = self.box
        s.removed = self.removed
        s.discovery = self.discovery
        s.winner = self.winner
        s.players = [p.clone() for p in self.players]
        s.x = None if self.x is None else _copy_x(self.x)
        return s

    def __eq__(self, other):
        return isinstance(other, State) and dump_state(self) == dump_state(other)

    __hash__ = None


def _square_list(sq):
    return [sq[0], sq[1]]


def dump_state(s):
    """The DESIGN.md dump: JSON-compatible, string keys, no tuples."""
    geo = geometry(s)
    discovery = None
    if s.discovery is not None:
        discovery = {"ship": s.discovery["ship"], "space": _square_list(geo.spaces[s.discovery["space"]])}
    out = {
        "game": "anno1503",
        "rules_version": RULES_VERSION,
        "options": dict(s.options),
        "num_players": s.num_players,
        "seed": s.seed,
        "rng": s.rng.state,
        "turn": s.turn,
        "start_player": s.start_player,
        "active": s.active,
        "phase": s.phase,
        "last_roll": dict(s.last_roll),
        "queue": list(s.queue),
        "choice": _dump_choice(s.choice, geo),
        "stacks": dict(s.stacks),
        "buildings": dict(s.buildings),
        "spaces": dict(zip(geo.space_keys, s.spaces)),
        "seen": {k: list(v) for k, v in zip(geo.space_keys, s.seen) if v},
        "reserve": list(s.reserve),
        "box": list(s.box),
        "removed": list(s.removed),
        "discovery": discovery,
        "winner": s.winner,
        "players": [p.dump() for p in s.players],
    }
    if s.x is not None:
        out.update(_copy_x(s.x))
    return out


def _dump_choice(choice, geo):
    if choice is None:
        return None
    out = dict(choice)
    if choice["kind"] in SPACE_CHOICES:
        out["options"] = [_square_list(geo.spaces[i]) for i in choice["options"]]
    else:
        out["options"] = [dict(o) if isinstance(o, dict) else o for o in choice["options"]]
    return out


def _load_choice(data, geo):
    if data is None:
        return None
    out = dict(data)
    if data["kind"] in SPACE_CHOICES:
        out["options"] = tuple(geo.space_index[tuple(sq)] for sq in data["options"])
    else:
        out["options"] = tuple(data["options"])
    return out


def load_state(data):
    """Inverse of ``dump_state``; raises ``KeyError``/``ValueError`` on bad data."""
    s = State.__new__(State)
    s.options = dict(data["options"])
    s.num_players = data["num_players"]
    s.seed = data["seed"]
    s.rng = Rng(data["rng"])
    s.turn = data["turn"]
    s.start_player = data["start_player"]
    s.active = data["active"]
    s.phase = data["phase"]
    s.last_roll = dict(data["last_roll"])
    s.queue = list(data["queue"])
    geo = geometry(s)
    s.choice = _load_choice(data["choice"], geo)
    s.stacks = {c: data["stacks"][c] for c in COMMODITIES + tuple(k for k in LUXURIES if k in data["stacks"])}
    s.buildings = dict(data["buildings"])
    s.spaces = [data["spaces"].get(k) for k in geo.space_keys]
    seen = data.get("seen", {})
    s.seen = [tuple(seen.get(k, ())) for k in geo.space_keys]
    s.reserve = list(data["reserve"])
    s.box = tuple(data["box"])
    s.removed = list(data["removed"])
    d = data["discovery"]
    s.discovery = None if d is None else {"ship": d["ship"], "space": geo.space_index[tuple(d["space"])]}
    s.winner = data["winner"]
    s.players = [Player.load(p) for p in data["players"]]
    s.x = {k: _copy_value(data[k]) for k in X_STATE_KEYS} if "pirate_deck" in data else None
    return s


# --- expansion holdings (None in the base game) ---------------------------------

X_TURN_FLAGS = ("luxury_sold", "exchanged", "sailed", "free_discovery")
# top-level dump keys of the expansion, in dump order (DESIGN.md)
X_STATE_KEYS = (
    "aristocrat_buildings", "expansion_reserve", "pirate_deck", "pirate_discard",
    "aristocrat_deck", "aristocrat_discard", "combat",
)


def _copy_value(v):
    if isinstance(v, list):
        return [_copy_value(i) for i in v]
    if isinstance(v, dict):
        return {k: _copy_value(i) for k, i in v.items()}
    return v


def _copy_x(x):
    """One level deeper than needed suffices: every nested value of the
    expansion holdings is a flat list or a dict of scalars (hot in clone)."""
    out = {}
    for k, v in x.items():
        if type(v) is list:
            out[k] = v[:]
        elif type(v) is dict:
            out[k] = v.copy()
        else:
            out[k] = v
    return out
