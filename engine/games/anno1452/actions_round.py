"""Actions of the set-up and of an action round: Estates, Citizens, attacks.

Each action is an ``ActionSpec`` built from three small functions
(``_cand_*`` candidates, ``_check_*`` the reason it is illegal or None,
``_do_*`` the change), so ``legal_actions`` and the checked ``apply`` share
one rule.
"""

from itertools import combinations_with_replacement

from ...params import Optional
from .actionkit import ESTATE, REGION, end_decision, make_spec
from .battle import start_battle
from .board import (
    BORDERS,
    build_cost,
    capacity,
    citizen_supply,
    estate_at,
    estate_supply,
    free_slot,
    iter_estates,
    place_estate,
    settle_holdings,
)
from .data import REGION_INDEX, REGION_NAMES
from .deck import crowned_role
from .state import event, is_player, pay_gold
from .trade import pass_open_swap

CITIZEN_COST = 3

# --- set-up: two Estates in two bordering regions, all regions distinct ----------

def _initial_ok(d, r):
    return r not in d["initial_regions"] and free_slot(d, r) is not None


def _has_partner(d, r):
    return any(_initial_ok(d, b) for b in BORDERS[r])


def _check_place(d, seat, a):
    r = REGION_INDEX[a["region"]]
    first = d["decision"]["first"]
    if not _initial_ok(d, r):
        return "region_taken"
    if first is not None:
        return None if r in BORDERS[first] else "not_bordering"
    # Only the fallback of a blocked map allows a first region without partner.
    if not _has_partner(d, r) and any(_initial_ok(d, x) and _has_partner(d, x) for x in range(len(REGION_NAMES))):
        return "no_bordering_region_left"
    return None


def _cand_place(d, seat):
    return [{"type": "place_estate", "region": n} for n in REGION_NAMES]


def _do_place(d, seat, a, events):
    r = REGION_INDEX[a["region"]]
    place_estate(d, seat, r, events, "setup")
    d["initial_regions"].append(r)
    settle_holdings(d, events)
    first = d["decision"]["first"]
    if first is None and _has_partner(d, r):
        d["decision"]["first"] = r
    else:
        end_decision(d)


# --- build an Estate ----------------------------------------------------------------

def _check_build(d, seat, a):
    r = REGION_INDEX[a["region"]]
    if estate_supply(d, seat) == 0:
        return "no_estate_in_supply"
    if free_slot(d, r) is None:
        return "region_full"
    if d["players"][seat]["gold"] < build_cost(d, r):
        return "not_enough_gold"
    return None


def _cand_build(d, seat):
    return [{"type": "build_estate", "region": n} for n in REGION_NAMES]


def _do_build(d, seat, a, events):
    r = REGION_INDEX[a["region"]]
    pay_gold(d, seat, build_cost(d, r), events, "estate")
    place_estate(d, seat, r, events, "built")
    settle_holdings(d, events)
    end_decision(d)


# --- settle 1-3 Citizens ------------------------------------------------------------

def _settle_targets(a):
    return [tuple(x) for x in (a.get("at"), a.get("at2"), a.get("at3")) if x is not None]


def _check_settle(d, seat, a):
    if a.get("at2") is None and a.get("at3") is not None:
        return "fill_at2_first"
    targets = _settle_targets(a)
    if targets != sorted(targets):
        return "estates_in_order"
    p = d["players"][seat]
    if p["gold"] < CITIZEN_COST * len(targets):
        return "not_enough_gold"
    if citizen_supply(d, seat) < len(targets):
        return "no_citizen_in_supply"
    for ref in set(targets):
        est = estate_at(d, *ref)
        if est is None or est["owner"] != seat:
            return "not_your_estate"
        if est["citizens"] + targets.count(ref) > capacity(est):
            return "estate_full"
    return None


def _cand_settle(d, seat):
    room = [((r, s), capacity(e) - e["citizens"]) for r, s, e in iter_estates(d, seat) if e["citizens"] < capacity(e)]
    refs = [ref for ref, _ in room]
    out = []
    for k in (1, 2, 3):
        for combo in combinations_with_replacement(refs, k):
            action = {"type": "settle", "at": list(combo[0])}
            if k > 1:
                action["at2"] = list(combo[1])
            if k > 2:
                action["at3"] = list(combo[2])
            out.append(action)
    return out


def _do_settle(d, seat, a, events):
    targets = _settle_targets(a)
    pay_gold(d, seat, CITIZEN_COST * len(targets), events, "citizens")
    for r, s in targets:
        d["regions"][r]["slots"][s]["citizens"] += 1
        event(events, "citizen_settled", seat, region=REGION_NAMES[r], slot=s)
    end_decision(d)


# --- attack ---------------------------------------------------------------------------

def attack_problem(d, seat, origin, target, mercenaries=0):
    """Why ``seat`` may not attack ``target`` from ``origin`` now, or None."""
    victim = estate_at(d, *target)
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
    own = estate_at(d, *origin)
    if own is None or own["owner"] != seat:
        return "not_your_estate"
    if origin[0] != target[0] and target[0] not in BORDERS[origin[0]]:
        return "not_in_reach"
    return None


def attack_candidates(d, seat, base):
    """Every (origin, target) pair worth checking, as actions built on ``base``."""
    own = [[r, s] for r, s, _ in iter_estates(d, seat)]
    enemies = [[r, s] for r, s, e in iter_estates(d) if e["owner"] != seat]
    out = []
    for origin in own:
        for target in enemies:
            if target[0] == origin[0] or target[0] in BORDERS[origin[0]]:
                out.append({**base, "target": target, "from": origin})
    if crowned_role(d, seat):
        out += [{**base, "target": target, "from": None} for target in enemies]
    return out


def _check_attack(d, seat, a):
    return attack_problem(d, seat, a.get("from"), a["target"])


def _cand_attack(d, seat):
    return attack_candidates(d, seat, {"type": "attack"})


def _do_attack(d, seat, a, events):
    end_decision(d)
    start_battle(d, seat, a.get("from"), a["target"], events)


def _do_pass(d, seat, a, events):
    if d["decision"]["kind"] == "open_swap":
        pass_open_swap(d, seat, events)
        return
    event(events, "passed", seat, decision=d["decision"]["kind"])
    end_decision(d)


SPECS = [
    make_spec("place_estate", {"region": REGION}, _cand_place, _check_place, _do_place,
               "Set-up: place an initial Estate (distinct regions; the second borders the first)."),
    make_spec("build_estate", {"region": REGION}, _cand_build, _check_build, _do_build,
               "Build an Estate for 4 gold + 1 per Estate already in the region."),
    make_spec("settle", {"at": ESTATE, "at2": Optional(ESTATE), "at3": Optional(ESTATE)},
               _cand_settle, _check_settle, _do_settle,
               "Settle 1-3 Citizens (3 gold each) on own Estates, listed in ascending order."),
    make_spec("attack", {"target": ESTATE, "from": Optional(ESTATE)}, _cand_attack, _check_attack, _do_attack,
               "Attack an Estate from an own Estate in the same or a bordering region "
               "(King/Anti-King: from null, with Soldiers only)."),
    make_spec("pass", {}, lambda d, seat: [{"type": "pass"}], lambda d, seat, a: None, _do_pass,
               "Do nothing: end the turn, skip a special action, stop swapping open cards."),
]
