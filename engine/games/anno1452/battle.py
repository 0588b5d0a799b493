"""Battles: declaration, the crowns' Soldiers, reactions, dice rounds, losses.

A battle lives in ``d["battle"]`` and advances through ``stage``:
``soldiers`` (King/Anti-King commit pawns) -> ``reactions`` (one card per
side) -> ``round`` (simultaneous dice) -> ``losses`` (owners allocate hits;
the Estate goes last) -> ``round`` again until an Estate has fallen
(ruling 7). Each stage that needs a seat sets a decision; everything else is
automatic.
"""

from .board import estate_at, remove_estate, settle_holdings
from .data import CARDS, REGION_NAMES
from .deck import crowned_role
from .state import change_prestige, event, is_player, roll
from .steps import decide, push_front

SIDES = ("attacker", "defender")
DEFENDER_ONLY = ("befestigung", "hinterhalt", "waffenstillstand")
BATTLE_REACTIONS = ("verstaerkung", "bogenschuetzen", "befestigung", "hinterhalt", "verrat", "waffenstillstand")


def start_battle(d, seat, origin, target, events, mercenaries=0, fehde=False):
    """Declare an attack from ``origin`` ([r, s] or None) on ``target``."""
    defender = estate_at(d, *target)["owner"]
    d["battle"] = {
        "attacker": seat, "defender": defender, "from": origin, "target": target,
        "stage": "soldiers", "asked": [], "round": 0,
        "soldiers": {"attacker": mercenaries, "defender": 0},
        "reactions": {"attacker": None, "defender": None}, "answered": [],
        "hits": {"attacker": 0, "defender": 0}, "committed": {},
    }
    event(events, "attack_declared", seat, target=list(target), origin=origin, defender=defender,
          mercenaries=mercenaries, region=REGION_NAMES[target[0]])
    if not fehde:
        change_prestige(d, seat, -1, events, "declaration_of_war")
    push_front(d, ["battle"])


def side_owner(b, side):
    return b[side]


def side_estate(d, b, side):
    ref = b["from"] if side == "attacker" else b["target"]
    return None if ref is None else estate_at(d, *ref)


def usable_reactions(d, b, side):
    owner = b[side]
    if not is_player(owner):
        return []
    return [c for c in d["players"][owner]["hand"]
            if CARDS[c]["kind"] == "reaction" and CARDS[c]["effect"] in BATTLE_REACTIONS
            and (side == "defender" or CARDS[c]["effect"] not in DEFENDER_ONLY)]


def _step_battle(d, events):
    b = d["battle"]
    if b["stage"] == "soldiers":
        for side in SIDES:
            role = crowned_role(d, b[side]) if is_player(b[side]) else None
            if side not in b["asked"] and role and d["soldiers"][role] > 0:
                b["asked"].append(side)
                decide(d, "soldiers", [b[side]], side=side)
                return
        b["stage"] = "reactions"
    if b["stage"] == "reactions":
        seats = [b[s] for s in SIDES if s not in b["answered"] and usable_reactions(d, b, s)]
        if seats:
            decide(d, "reaction", seats)
            return
        if not _apply_reactions(d, b, events):
            return
    if b["stage"] == "round":
        _roll_round(d, b, events)
    if b["stage"] == "losses":
        _losses(d, b, events)
    elif b["stage"] == "after_losses":
        _after_losses(d, b, events)


def side_of(b, seat):
    """The side ``seat`` fights on in the pending decision."""
    for side in SIDES:
        if b[side] == seat:
            return side
    return None


# --- reactions ------------------------------------------------------------------

def _apply_reactions(d, b, events):
    """Resolve played reactions; False when the battle ended (cease-fire)."""
    b["stage"] = "round"
    effects = {s: b["reactions"][s] for s in SIDES}
    if effects["defender"] == "waffenstillstand":
        event(events, "attack_cancelled", b["attacker"], reason="waffenstillstand")
        _return_soldiers(d, b)
        d["battle"] = None
        return False
    for side, other in (("attacker", "defender"), ("defender", "attacker")):
        if effects[side] == "verrat":
            _treason(d, b, other, events)
    if effects["defender"] == "hinterhalt":
        hits = _side_hits(d, b, "defender", events, ambush=True)
        b["hits"] = {"attacker": hits, "defender": 0}
        b["stage"] = "losses"
    return True


def _return_soldiers(d, b):
    for side in SIDES:
        role = crowned_role(d, b[side]) if is_player(b[side]) else None
        if role and side in b["asked"]:
            d["soldiers"][role] += b.get("committed", {}).get(side, 0)


def _treason(d, b, victim, events):
    """Verrat: the victim loses 2 fighting Citizens, or 1 Estate strength."""
    est = side_estate(d, b, victim)
    if est is None:
        return
    if est["citizens"]:
        lost = min(2, est["citizens"])
        est["citizens"] -= lost
        event(events, "treason", b[victim] if is_player(b[victim]) else None, citizens=lost)
    elif est["strength"] > 1:
        est["strength"] -= 1
        event(events, "treason", b[victim] if is_player(b[victim]) else None, reduced_to=est["strength"])


# --- dice --------------------------------------------------------------------------

def _count_hits(dice, lowest):
    return sum(1 for v in dice if v >= lowest)


def _side_hits(d, b, side, events, ambush=False):
    """Roll for one side by unit type; returns (hits, defence dice cancels)."""
    est = side_estate(d, b, side)
    seat = b[side] if is_player(b[side]) else None
    effect = b["reactions"][side]
    groups = []
    if est is not None:
        groups.append(("peasants", est["strength"], 6))
        groups.append(("citizens", est["citizens"], 4 if effect == "bogenschuetzen" else 5))
    groups.append(("soldiers", b["soldiers"][side], 4))
    if effect == "verstaerkung":
        groups.append(("reinforcements", 2, 5))
    hits, all_dice = 0, []
    for kind, count, lowest in groups:
        if count > 0:
            dice = roll(d, count, events, f"battle_{side}_{kind}", seat)
            hits += _count_hits(dice, lowest)
            all_dice += dice
    if side == "defender":
        b["defence_dice"] = all_dice
    return hits


def _defence_cancels(d, b):
    """Defender dice showing 1 in a City (1 or 2 with Befestigung) cancel hits."""
    est = side_estate(d, b, "defender")
    top = 2 if b["reactions"]["defender"] == "befestigung" else (1 if est["city"] else 0)
    return sum(1 for v in b.get("defence_dice", []) if v <= top)


def _roll_round(d, b, events):
    b["round"] += 1
    attack = _side_hits(d, b, "attacker", events)
    defence = _side_hits(d, b, "defender", events)
    cancelled = min(attack, _defence_cancels(d, b))
    b["hits"] = {"attacker": defence, "defender": attack - cancelled}
    event(events, "battle_round", b["attacker"], round=b["round"], hits_on_attacker=defence,
          hits_on_defender=attack - cancelled, cancelled=cancelled)
    b["stage"] = "losses"


# --- losses ------------------------------------------------------------------------

def loss_range(d, b, side):
    """``(lo, hi)`` Citizens the side may lose for its pending hits."""
    hits = b["hits"][side]
    est = side_estate(d, b, side)
    citizens = est["citizens"] if est else 0
    hi = min(hits, citizens)
    return min(hi, max(0, hits - b["soldiers"][side])), hi


def _losses(d, b, events):
    choosers = []
    for side in SIDES:
        if b["hits"][side] == 0:
            continue
        lo, hi = loss_range(d, b, side)
        if hi > lo and is_player(b[side]):
            choosers.append(b[side])
        else:
            apply_losses(d, b, side, lo, events)
    if choosers:
        decide(d, "losses", choosers)
        return
    _after_losses(d, b, events)


def apply_losses(d, b, side, citizens, events):
    """Take ``citizens`` Citizens, then Soldiers, then Estate strength."""
    hits = b["hits"][side]
    b["hits"][side] = 0
    est = side_estate(d, b, side)
    if est is not None:
        est["citizens"] -= citizens
    soldiers = min(b["soldiers"][side], hits - citizens)
    b["soldiers"][side] -= soldiers
    rest = hits - citizens - soldiers
    if est is not None and rest:
        est["strength"] = max(0, est["strength"] - rest)
    event(events, "losses_taken", b[side] if is_player(b[side]) else None, side=side,
          citizens=citizens, soldiers=soldiers, estate=rest, strength=est["strength"] if est else None)


def _after_losses(d, b, events):
    att = side_estate(d, b, "attacker")
    att_gone = att["strength"] == 0 if att is not None else b["soldiers"]["attacker"] == 0
    def_gone = side_estate(d, b, "defender")["strength"] == 0
    if att_gone or def_gone:
        _finish(d, b, att_gone, def_gone, events)
    else:
        b["stage"] = "round"
        push_front(d, ["battle"])


def _finish(d, b, att_gone, def_gone, events):
    attacker, defender = b["attacker"], b["defender"]
    tr, ts = b["target"]
    if att_gone and b["from"] is not None:
        remove_estate(d, b["from"][0], b["from"][1], events, "battle")
    if def_gone and att_gone:
        remove_estate(d, tr, ts, events, "battle")
        event(events, "battle_ended", attacker, winner=None, defender=defender)
    elif def_gone:
        city = d["regions"][tr]["slots"][ts]["city"]
        remove_estate(d, tr, ts, events, "conquered")
        d["regions"][tr]["slots"][ts] = {"owner": attacker, "strength": 1, "city": city, "citizens": 0}
        event(events, "estate_conquered", attacker, region=REGION_NAMES[tr], slot=ts, city=city, previous=defender)
        _prestige_result(d, attacker, defender, events)
    else:
        _prestige_result(d, defender, attacker, events)
    d["battle"] = None
    settle_holdings(d, events)


def _prestige_result(d, winner, loser, events):
    event(events, "battle_ended", winner if is_player(winner) else None, winner=winner, loser=loser)
    change_prestige(d, winner, 1, events, "battle_won")
    change_prestige(d, loser, -1, events, "battle_lost")


STEPS = {"battle": _step_battle}
