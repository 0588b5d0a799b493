"""Actions of the set-up and of an action round: Estates, Citizens, attacks.

Each action is an ``ActionSpec`` built from three small functions named
after it (``_settle_candidates``, ``_settle_check``: the reason it is illegal
or None, ``_settle_perform``: the change), so ``legal_actions`` and the
checked ``apply`` share one rule.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Any, Final

from ...kit import event
from ...params import Optional
from .actionkit import ESTATE, REGION, always_allowed, bare_action, end_decision, make_spec
from .battle import start_battle
from .board import (
    BORDERS,
    build_cost,
    capacity,
    change_estate,
    citizen_supply,
    estate_at,
    estate_supply,
    free_slot,
    iter_estates,
    place_estate,
    settle_holdings,
)
from .data import CITIZENS_PER_PLAYER, ESTATES_PER_PLAYER, PRICES, REGION_INDEX, REGION_NAMES
from .deck import crowned_role
from .holdings import Holdings
from .state import is_player, pay_gold
from .steps import change_decision
from .trade import pass_open_swap

if TYPE_CHECKING:
    from ...core import Action, ActionSpec, Event
    from .state import Data


# Final ints: compiled, constants in C, not lookups in the module's dict.
CITIZEN_COST: Final[int] = PRICES["citizen"]["cost"]
ESTATE_BASE_COST: Final[int] = PRICES["estate"]["base_cost"]
ESTATE_COST_PER_ESTATE: Final[int] = PRICES["estate"]["cost_per_estate_in_region"]
# Per region: the regions its Estates reach in an attack (itself and its
# neighbours), in map order.
ATTACK: Final = {"type": "attack"}  # read only
REACH: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sorted(BORDERS[region] | {region})) for region in range(len(BORDERS))
)

# --- set-up: two Estates in two bordering regions, all regions distinct ----------


def _initial_ok(d: Data, region):
    return region not in d["initial_regions"] and free_slot(d, region) is not None


def _has_partner(d: Data, region) -> bool:
    return any(_initial_ok(d, neighbour) for neighbour in BORDERS[region])


def _place_estate_check(d: Data, seat, action: Action) -> str | None:
    region = REGION_INDEX[action["region"]]
    first = d["decision"]["first"]
    if not _initial_ok(d, region):
        return "region_taken"
    if first is not None:
        return None if region in BORDERS[first] else "not_bordering"
    # Only the fallback of a blocked map allows a first region without partner.
    if not _has_partner(d, region) and any(
        _initial_ok(d, other) and _has_partner(d, other) for other in range(len(REGION_NAMES))
    ):
        return "no_bordering_region_left"
    return None


def _place_estate_candidates(d: Data, seat) -> list[Action]:
    return [{"type": "place_estate", "region": n} for n in REGION_NAMES]


def _place_estate_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    region = REGION_INDEX[action["region"]]
    place_estate(d, seat, region, events, "setup")
    d["initial_regions"] = [*d["initial_regions"], region]  # replaced: a clone shares it
    settle_holdings(d, events)
    first = d["decision"]["first"]
    if first is None and _has_partner(d, region):
        change_decision(d, first=region)
    else:
        end_decision(d)


# --- build an Estate ----------------------------------------------------------------


def _build_estate_check(d: Data, seat, action: Action) -> str | None:
    region = REGION_INDEX[action["region"]]
    if estate_supply(d, seat) == 0:
        return "no_estate_in_supply"
    if free_slot(d, region) is None:
        return "region_full"
    if d["players"][seat]["gold"] < build_cost(d, region):
        return "not_enough_gold"
    return None


def _build_estate_candidates(d: Data, seat) -> list[Action]:
    return [{"type": "build_estate", "region": n} for n in REGION_NAMES]


def _build_estate_legal(d: Data, seat) -> list[Action]:
    return build_estate_actions(d, seat, Holdings(d, seat))


def build_estate_actions(d: Data, seat, holdings: Holdings) -> list[Action]:
    """``_build_estate_check`` over every region, from ``holdings``."""
    if len(holdings.own) >= ESTATES_PER_PLAYER:
        return []
    gold: int = d["players"][seat]["gold"]
    placed, size = holdings.placed, holdings.size
    return [
        {"type": "build_estate", "region": REGION_NAMES[region]}
        for region in range(len(placed))
        if placed[region] < size[region]
        and gold >= ESTATE_BASE_COST + ESTATE_COST_PER_ESTATE * placed[region]
    ]


def _build_estate_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    region = REGION_INDEX[action["region"]]
    pay_gold(d, seat, build_cost(d, region), events, "estate")
    place_estate(d, seat, region, events, "built")
    settle_holdings(d, events)
    end_decision(d)


# --- settle 1-3 Citizens ------------------------------------------------------------


def _settle_targets(action: Action):
    return [
        tuple(estate)
        for estate in (action.get("at"), action.get("at2"), action.get("at3"))
        if estate is not None
    ]


def _settle_check(d: Data, seat, action: Action) -> str | None:
    if action.get("at2") is None and action.get("at3") is not None:
        return "fill_at2_first"
    targets = _settle_targets(action)
    if targets != sorted(targets):
        return "estates_in_order"
    player = d["players"][seat]
    if player["gold"] < CITIZEN_COST * len(targets):
        return "not_enough_gold"
    if citizen_supply(d, seat) < len(targets):
        return "no_citizen_in_supply"
    for ref in set(targets):
        estate = estate_at(d, ref[0], ref[1])
        if estate is None or estate["owner"] != seat:
            return "not_your_estate"
        if estate["citizens"] + targets.count(ref) > capacity(estate):
            return "estate_full"
    return None


def _settle_candidates(d: Data, seat) -> list[Action]:
    room = [
        ((region, slot), capacity(estate) - estate["citizens"])
        for region, slot, estate in iter_estates(d, seat)
        if estate["citizens"] < capacity(estate)
    ]
    refs = [ref for ref, _ in room]
    actions = []
    for count in (1, 2, 3):  # at, at2, at3
        for combo in combinations_with_replacement(refs, count):
            action = {"type": "settle", "at": list(combo[0])}
            if count > 1:
                action["at2"] = list(combo[1])
            if count > 2:
                action["at3"] = list(combo[2])
            actions.append(action)
    return actions


def _settle_legal(d: Data, seat) -> list[Action]:
    return settle_actions(d, seat, Holdings(d, seat))


def settle_actions(d: Data, seat, holdings: Holdings) -> list[Action]:
    """``_settle_candidates`` that pass ``_settle_check``, in their order (that
    of ``combinations_with_replacement``): the gold and the supply bound the
    count, each Estate's room how often it is named (``holdings``)."""
    refs, room = holdings.roomy, holdings.room
    most = min(3, d["players"][seat]["gold"] // CITIZEN_COST, CITIZENS_PER_PLAYER - holdings.citizens)
    n = len(refs)
    actions = [{"type": "settle", "at": ref} for ref in refs] if most >= 1 else []
    if most >= 2:
        for i in range(n):
            for j in range(i if room[i] >= 2 else i + 1, n):
                actions.append({"type": "settle", "at": refs[i], "at2": refs[j]})
    if most >= 3:
        for i in range(n):
            for j in range(i if room[i] >= 2 else i + 1, n):
                twice = room[j] >= (3 if i == j else 2)
                for k in range(j if twice else j + 1, n):
                    actions.append({"type": "settle", "at": refs[i], "at2": refs[j], "at3": refs[k]})
    return actions


def _settle_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    targets = _settle_targets(action)
    pay_gold(d, seat, CITIZEN_COST * len(targets), events, "citizens")
    for region, slot in targets:
        change_estate(d, region, slot, citizens=d["regions"][region]["slots"][slot]["citizens"] + 1)
        event(events, "citizen_settled", seat, region=REGION_NAMES[region], slot=slot)
    end_decision(d)


# --- attack ---------------------------------------------------------------------------


def attack_problem(d: Data, seat, origin, target, mercenaries=0):
    """Why ``seat`` may not attack ``target`` from ``origin`` now, or None."""
    victim = estate_at(d, target[0], target[1])
    if victim is None:
        return "no_estate_there"
    owner = victim["owner"]
    if owner == seat:
        return "own_estate"
    if estate_supply(d, seat) == 0:
        return "no_estate_in_supply"
    if is_player(owner) and owner in d["landfrieden"]:
        return "landfrieden"
    if is_player(owner) and sorted([seat, owner]) in d["pacts"]:
        return "non_aggression_pact"
    if origin is None:
        role = crowned_role(d, seat)
        if role is None:
            return "needs_an_estate"
        if d["soldiers"][role] + mercenaries == 0:
            return "no_soldiers"
        return None
    own = estate_at(d, origin[0], origin[1])
    if own is None or own["owner"] != seat:
        return "not_your_estate"
    if origin[0] != target[0] and target[0] not in BORDERS[origin[0]]:
        return "not_in_reach"
    return None


def attack_actions(d: Data, seat, base):
    """Every (origin, target) pair worth checking, as actions built on ``base``."""
    own = [[region, slot] for region, slot, _ in iter_estates(d, seat)]
    enemies = [[region, slot] for region, slot, estate in iter_estates(d) if estate["owner"] != seat]
    actions = []
    for origin in own:
        for target in enemies:
            if target[0] == origin[0] or target[0] in BORDERS[origin[0]]:
                actions.append({**base, "target": target, "from": origin})
    if crowned_role(d, seat):
        actions += [{**base, "target": target, "from": None} for target in enemies]
    return actions


def _attack_check(d: Data, seat, action: Action) -> str | None:
    return attack_problem(d, seat, action.get("from"), action["target"])


def _attack_candidates(d: Data, seat) -> list[Action]:
    return attack_actions(d, seat, {"type": "attack"})


def _attack_legal(d: Data, seat) -> list[Action]:
    return attack_legal(d, seat, ATTACK)


def turn_attacks(d: Data, seat, holdings: Holdings) -> list[Action]:
    """The action turn's attacks (``_attack_legal``) from ``holdings``."""
    return attack_legal(d, seat, ATTACK, 0, holdings)


def attack_legal(d: Data, seat, base, mercenaries=0, holdings: Holdings | None = None) -> list[Action]:
    """``attack_actions`` that pass ``attack_problem``, in their order: the
    supply and each target's owner (Landfrieden, a pact) checked once, not
    per pair (``Holdings``), and each origin's reach looked up. ``base`` is
    ``{"type"}`` or ``{"type", "card"}`` (a Special Action card)."""
    if holdings is None:
        holdings = Holdings(d, seat)
    if len(holdings.own) >= ESTATES_PER_PLAYER:
        return []
    # Each action built at once (a random 2-player match lists dozens of
    # attacks at every turn, Ottokar's Estates among the targets).
    kind, card = base["type"], base.get("card")
    actions: list[Action] = []
    targets_in = holdings.targets_in
    for origin in holdings.own:
        for region in REACH[origin[0]]:
            for target in targets_in[region]:
                actions.append(_attack_action(kind, card, target, origin))
    role = crowned_role(d, seat)
    if role and d["soldiers"][role] + mercenaries != 0:
        for target in holdings.targets:
            actions.append(_attack_action(kind, card, target, None))
    return actions


def _attack_action(kind, card, target, origin) -> Action:
    """An attack (``card``: a Special Action card's, or None), as a dict
    display: cheaper than ``{**base, ...}``."""
    if card is None:
        return {"type": kind, "target": target, "from": origin}
    return {"type": kind, "card": card, "target": target, "from": origin}


def _attack_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    end_decision(d)
    start_battle(d, seat, action.get("from"), action["target"], events)


def _pass_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    if d["decision"]["kind"] == "open_swap":
        pass_open_swap(d, seat, events)
        return
    event(events, "passed", seat, decision=d["decision"]["kind"])
    end_decision(d)


# Annotated: mypyc (engine.native) cannot infer a type across the package's import cycle.
SPECS: list[ActionSpec[Any]] = [
    make_spec(
        "place_estate",
        {"region": REGION},
        _place_estate_candidates,
        _place_estate_check,
        _place_estate_perform,
        "Set-up: place an initial Estate (distinct regions; the second borders the first).",
    ),
    make_spec(
        "build_estate",
        {"region": REGION},
        _build_estate_candidates,
        _build_estate_check,
        _build_estate_perform,
        f"Build an Estate for {PRICES['estate']['base_cost']} gold + "
        f"{PRICES['estate']['cost_per_estate_in_region']} per Estate already in the region.",
        _build_estate_legal,
    ),
    make_spec(
        "settle",
        {"at": ESTATE, "at2": Optional(ESTATE), "at3": Optional(ESTATE)},
        _settle_candidates,
        _settle_check,
        _settle_perform,
        f"Settle 1-3 Citizens ({CITIZEN_COST} gold each) on own Estates, listed in ascending order.",
        _settle_legal,
    ),
    make_spec(
        "attack",
        {"target": ESTATE, "from": Optional(ESTATE)},
        _attack_candidates,
        _attack_check,
        _attack_perform,
        "Attack an Estate from an own Estate in the same or a bordering region "
        "(King/Anti-King: from null, with Soldiers only).",
        _attack_legal,
    ),
    make_spec(
        "pass",
        {},
        bare_action("pass"),
        always_allowed,
        _pass_perform,
        "Do nothing: end the turn, skip a special action, stop swapping open cards.",
    ),
]
