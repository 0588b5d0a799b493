"""The match state: plain data with ``__slots__``, a hand-written clone and
the DESIGN.md dump format.

Internally island spaces are list indices (``data.SPACES`` order) and board
squares are ``(row, col)`` tuples; the dump turns them into the documented
``"r,c"`` keys and ``[r, c]`` lists. ``choice``, ``last_roll``,
``discovery``, the ``seen`` tuples, ``box``, ``buildings``, ``reserve`` and
``removed`` are never mutated in place (they are replaced), so ``clone`` may
share them.

A variant (``State.variant``, chosen from the options at setup and load)
may add a typed state part: ``State.part`` and each ``Player.part`` (None
in the base game). A part has ``clone()`` and ``dump_into(out)``; the
variant loads it (``load_match_part``, ``load_player_part``).
"""

from typing import Any

from ...rng import Rng
from .data import BRIDGES, COMMODITIES, KINDS, MAX_SHIPS, PUBLIC_BUILDING_SLOTS, SLOTS

RULES_VERSION = 1


class Player:
    """One seat's holdings and its per-turn counters.

    ``slots``, ``buildings``, ``branch_offices``, ``trade_agreements`` and
    ``sold`` change rarely, so they are copy-on-write: replaced through the
    ``set_*``/``add_*`` methods, never mutated in place, and shared by
    ``clone``. ``hand`` and the ships change often and are copied.
    """

    __slots__ = (
        "bbo_used",
        "branch_offices",
        "buildings",
        "buys",
        "gold",
        "hand",
        "part",
        "ship_ap",
        "ship_at",
        "slots",
        "sold",
        "trade_agreements",
    )
    bbo_used: bool
    branch_offices: list[int | None]  # tile id per bridge
    buildings: list[str | None]
    buys: int
    gold: int
    hand: dict[str, int]
    part: Any  # the variant's holdings, None in the base game
    ship_ap: list[int]
    ship_at: list[Any]  # (row, col), or None for a ship in stock
    slots: list[Any]  # an inhabitant kind, or None for a free slot
    sold: dict[str, int]
    trade_agreements: list[int]

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
        part = self.part
        p.part = None if part is None else part.clone()
        return p

    @classmethod
    def new(cls, gold, hand, slots, hand_keys=COMMODITIES, part=None):
        """``hand_keys``: the card kinds a hand holds; ``part``: the variant's holdings."""
        p = cls.__new__(cls)
        p.gold = gold
        p.part = part
        p.hand = {c: hand.get(c, 0) for c in hand_keys}
        p.slots = list(slots) + [None] * (SLOTS - len(slots))
        p.buildings = [None] * PUBLIC_BUILDING_SLOTS
        p.branch_offices = [None] * BRIDGES  # index = bridge number - 1
        p.trade_agreements = []
        p.ship_at = [None] * MAX_SHIPS
        p.ship_ap = [0] * MAX_SHIPS
        p.reset_turn()
        return p

    def reset_turn(self) -> None:
        self.sold = dict.fromkeys(KINDS, 0)
        self.buys = 0
        self.bbo_used = False

    # --- copy-on-write updates ---------------------------------------------

    def set_slot(self, index, kind) -> None:
        slots = self.slots.copy()
        slots[index] = kind
        self.slots = slots

    def set_building(self, index, building) -> None:
        buildings = self.buildings.copy()
        buildings[index] = building
        self.buildings = buildings

    def set_branch_office(self, index, tile) -> None:
        offices = self.branch_offices.copy()
        offices[index] = tile
        self.branch_offices = offices

    def add_trade_agreement(self, tile) -> None:
        self.trade_agreements = self.trade_agreements + [tile]

    def pop_trade_agreement(self):
        tile = self.trade_agreements[-1]
        self.trade_agreements = self.trade_agreements[:-1]
        return tile

    def count_sale(self, kind) -> None:
        self.sold = {**self.sold, kind: self.sold[kind] + 1}

    def move_sale(self, before, after) -> None:
        """An inhabitant that bought this turn was developed from ``before`` to ``after``."""
        self.sold = {**self.sold, before: self.sold[before] - 1, after: self.sold[after] + 1}

    def hand_size(self):
        return sum(self.hand.values())

    def dump(self):
        out = self._dump_base()
        if self.part is not None:
            self.part.dump_into(out)
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
    def load(cls, data, variant):
        p = cls.__new__(cls)
        p.gold = data["gold"]
        p.part = variant.load_player_part(data)
        p.hand = {c: data["hand"].get(c, 0) for c in variant.hand_keys}
        p.slots = list(data["slots"])
        p.buildings = list(data["buildings"])
        p.branch_offices = [data["branch_offices"].get(str(b)) for b in range(1, BRIDGES + 1)]
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
        "active",
        "box",
        "buildings",
        "choice",
        "discovery",
        "last_roll",
        "num_players",
        "options",
        "part",
        "phase",
        "players",
        "queue",
        "removed",
        "reserve",
        "rng",
        "seed",
        "seen",
        "spaces",
        "stacks",
        "start_player",
        "turn",
        "variant",
        "winner",
    )
    active: int
    box: tuple[int, ...]
    buildings: dict[str, int]
    choice: Any  # the pending decision's dict in the choice phases, else None
    discovery: Any  # {"ship", "space"} during tile_decision, else None
    last_roll: dict[str, Any]
    num_players: int
    options: dict[str, Any]
    part: Any  # the variant's match state, None in the base game
    phase: str
    players: list[Player]
    queue: list[int]
    removed: list[int]
    reserve: list[int]
    rng: Rng
    seed: int
    seen: list[tuple[int, ...]]
    spaces: list[int | None]
    stacks: dict[str, int]
    start_player: int
    turn: int
    variant: Any  # variant.BaseGame or a subclass
    winner: int | None

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
        s.variant = self.variant  # the rules object: stateless, shared
        part = self.part
        s.part = None if part is None else part.clone()
        return s

    def __eq__(self, other):
        return isinstance(other, State) and dump_state(self) == dump_state(other)

    __hash__ = None  # type: ignore[assignment]  # mutable: compared by value, never hashed


def _square_list(sq):
    return [sq[0], sq[1]]


def dump_state(s):
    """The DESIGN.md dump: JSON-compatible, string keys, no tuples."""
    geo = s.variant.geometry
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
        "choice": _dump_choice(s.choice, geo, s.variant.space_choices),
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
    if s.part is not None:
        s.part.dump_into(out)
    return out


def _dump_choice(choice, geo, space_choices):
    if choice is None:
        return None
    out = dict(choice)
    if choice["kind"] in space_choices:
        out["options"] = [_square_list(geo.spaces[i]) for i in choice["options"]]
    else:
        out["options"] = [dict(o) if isinstance(o, dict) else o for o in choice["options"]]
    return out


def _load_choice(data, geo, space_choices):
    if data is None:
        return None
    out = dict(data)
    if data["kind"] in space_choices:
        out["options"] = tuple(geo.space_index[tuple(sq)] for sq in data["options"])
    else:
        out["options"] = tuple(data["options"])
    return out


def load_state(data, variant):
    """Inverse of ``dump_state`` for a match of ``variant`` (the rules object
    of its options); raises ``KeyError``/``ValueError`` on bad data."""
    s = State.__new__(State)
    s.variant = variant
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
    geo = variant.geometry
    s.choice = _load_choice(data["choice"], geo, variant.space_choices)
    s.stacks = {c: data["stacks"][c] for c in variant.hand_keys}
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
    s.players = [Player.load(p, variant) for p in data["players"]]
    s.part = variant.load_match_part(data)
    return s
