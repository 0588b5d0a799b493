"""Battles: declaration, the crowns' Soldiers, reactions, dice rounds, losses.

A battle lives in ``d["battle"]`` and advances through ``stage``:
``soldiers`` (King/Anti-King commit pawns) -> ``reactions`` (one card per
side) -> ``round`` (simultaneous dice) -> ``losses`` (owners allocate hits;
the Estate goes last) -> ``round`` again until an Estate has fallen
(ruling 7). Each stage that needs a seat sets a decision; everything else is
automatic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ...kit import event
from .board import change_estate, estate_at, remove_estate, set_slot, settle_holdings
from .data import BATTLE, CARDS, REGION_NAMES
from .deck import crowned_role
from .state import change_prestige, is_player, roll
from .steps import decide, push_front

if TYPE_CHECKING:
    from collections.abc import Callable

    from ...core import Event
    from .state import Data


SIDES = ("attacker", "defender")
DEFENDER_ONLY = ("befestigung", "hinterhalt", "waffenstillstand")
HITS_FROM = BATTLE["hits_from"]
# The lowest face that hits, per unit type (Final: compiled, constants).
PEASANTS_HIT_FROM: Final[int] = HITS_FROM["peasants"]
CITIZENS_HIT_FROM: Final[int] = HITS_FROM["citizens"]
SOLDIERS_HIT_FROM: Final[int] = HITS_FROM["soldiers"]
CITY_CANCELS_UP_TO = BATTLE["city_cancels_up_to"]
REINFORCEMENTS = BATTLE["reactions"]["verstaerkung"]
ARCHERS_HIT_FROM: Final[int] = BATTLE["reactions"]["bogenschuetzen"]["citizens_hit_from"]
FORTIFIED_CANCELS_UP_TO = BATTLE["reactions"]["befestigung"]["cancels_up_to"]
TREASON = BATTLE["reactions"]["verrat"]
# A side's rolls' purposes (dice_rolled events), by unit type.
_ROLL_PURPOSES = {
    side: {kind: f"battle_{side}_{kind}" for kind in ("peasants", "citizens", "soldiers", "reinforcements")}
    for side in SIDES
}
BATTLE_REACTIONS = (
    "verstaerkung",
    "bogenschuetzen",
    "befestigung",
    "hinterhalt",
    "verrat",
    "waffenstillstand",
)


def start_battle(d: Data, seat, origin, target, events: list[Event], mercenaries=0, fehde=False) -> None:
    """Declare an attack from ``origin`` ([region, slot] or None) on ``target``."""
    defender = estate_at(d, target[0], target[1])["owner"]
    d["battle"] = {
        "attacker": seat,
        "defender": defender,
        "from": origin,
        "target": target,
        "stage": "soldiers",
        "asked": [],
        "round": 0,
        "soldiers": {"attacker": mercenaries, "defender": 0},
        "reactions": {"attacker": None, "defender": None},
        "answered": [],
        "hits": {"attacker": 0, "defender": 0},
        "committed": {},
    }
    event(
        events,
        "attack_declared",
        seat,
        target=list(target),
        origin=origin,
        defender=defender,
        mercenaries=mercenaries,
        region=REGION_NAMES[target[0]],
    )
    if not fehde:
        change_prestige(d, seat, -1, events, "declaration_of_war")
    push_front(d, ["battle"])


def side_owner(battle, side):
    return battle[side]


def side_estate(d: Data, battle, side):
    ref = battle["from"] if side == "attacker" else battle["target"]
    return None if ref is None else estate_at(d, ref[0], ref[1])


def change_side_estate(d: Data, battle, side, **changes):
    """Change one side's Estate (replaced: ``board.set_slot``); returns the new one."""
    ref = battle["from"] if side == "attacker" else battle["target"]
    return change_estate(d, *ref, **changes)


# Per side, the ids of the reaction cards it may play in a battle (card ids
# are CARDS indices): asked at every stage of every battle.
_REACTION_CARDS = {
    side: frozenset(
        card
        for card, text in enumerate(CARDS)
        if text["kind"] == "reaction"
        and text["effect"] in BATTLE_REACTIONS
        and (side == "defender" or text["effect"] not in DEFENDER_ONLY)
    )
    for side in SIDES
}


def usable_reactions(d: Data, battle, side):
    owner = battle[side]
    if not is_player(owner):
        return []
    playable = _REACTION_CARDS[side]
    hand: list[int] = d["players"][owner]["hand"]
    return [card for card in hand if card in playable]


def _step_battle(d: Data, events: list[Event]) -> None:
    battle = d["battle"]
    if battle["stage"] == "soldiers":
        for side in SIDES:
            role = crowned_role(d, battle[side]) if is_player(battle[side]) else None
            if side not in battle["asked"] and role and d["soldiers"][role] > 0:
                battle["asked"].append(side)
                decide(d, "soldiers", [battle[side]], side=side)
                return
        battle["stage"] = "reactions"
    if battle["stage"] == "reactions":
        seats = [
            battle[who] for who in SIDES if who not in battle["answered"] and usable_reactions(d, battle, who)
        ]
        if seats:
            decide(d, "reaction", seats)
            return
        if not _apply_reactions(d, battle, events):
            return
    if battle["stage"] == "round":
        _roll_round(d, battle, events)
    if battle["stage"] == "losses":
        _losses(d, battle, events)
    elif battle["stage"] == "after_losses":
        _after_losses(d, battle, events)


def side_of(battle, seat):
    """The side ``seat`` fights on in the pending decision."""
    for side in SIDES:
        if battle[side] == seat:
            return side
    return None


# --- reactions ------------------------------------------------------------------


def _apply_reactions(d: Data, battle, events: list[Event]):
    """Resolve played reactions; False when the battle ended (cease-fire)."""
    battle["stage"] = "round"
    effects = {who: battle["reactions"][who] for who in SIDES}
    if effects["defender"] == "waffenstillstand":
        event(events, "attack_cancelled", battle["attacker"], reason="waffenstillstand")
        _return_soldiers(d, battle)
        d["battle"] = None
        return False
    for side, other in (("attacker", "defender"), ("defender", "attacker")):
        if effects[side] == "verrat":
            _treason(d, battle, other, events)
    if effects["defender"] == "hinterhalt":
        hits = _side_hits(d, battle, "defender", events, ambush=True)
        battle["hits"] = {"attacker": hits, "defender": 0}
        battle["stage"] = "losses"
    return True


def _return_soldiers(d: Data, battle) -> None:
    for side in SIDES:
        role = crowned_role(d, battle[side]) if is_player(battle[side]) else None
        if role and side in battle["asked"]:
            d["soldiers"][role] += battle.get("committed", {}).get(side, 0)


def _treason(d: Data, battle, victim, events: list[Event]) -> None:
    """Verrat: the victim loses 2 fighting Citizens, or 1 Estate strength (data/battle.json)."""
    estate = side_estate(d, battle, victim)
    if estate is None:
        return
    if estate["citizens"]:
        lost = min(TREASON["citizens_lost"], estate["citizens"])
        change_side_estate(d, battle, victim, citizens=estate["citizens"] - lost)
        event(events, "treason", battle[victim] if is_player(battle[victim]) else None, citizens=lost)
    elif estate["strength"] > TREASON["strength_lost"]:
        estate = change_side_estate(d, battle, victim, strength=estate["strength"] - TREASON["strength_lost"])
        event(
            events,
            "treason",
            battle[victim] if is_player(battle[victim]) else None,
            reduced_to=estate["strength"],
        )


# --- dice --------------------------------------------------------------------------


def _count_hits(dice: list[int], lowest: int) -> int:
    hits = 0
    for value in dice:  # a loop, not a generator: compiled, machine ints
        if value >= lowest:
            hits += 1
    return hits


def _side_hits(d: Data, battle, side, events: list[Event], ambush=False):
    """Roll for one side by unit type; returns (hits, defence dice cancels)."""
    estate = side_estate(d, battle, side)
    seat = battle[side] if is_player(battle[side]) else None
    effect = battle["reactions"][side]
    groups = []
    if estate is not None:
        groups.append(("peasants", estate["strength"], PEASANTS_HIT_FROM))
        citizens_from = ARCHERS_HIT_FROM if effect == "bogenschuetzen" else CITIZENS_HIT_FROM
        groups.append(("citizens", estate["citizens"], citizens_from))
    groups.append(("soldiers", battle["soldiers"][side], SOLDIERS_HIT_FROM))
    if effect == "verstaerkung":
        groups.append(("reinforcements", REINFORCEMENTS["dice"], REINFORCEMENTS["hits_from"]))
    hits, all_dice = 0, []
    purposes = _ROLL_PURPOSES[side]
    for kind, count, lowest in groups:
        if count > 0:
            dice = roll(d, count, events, purposes[kind], seat)
            hits += _count_hits(dice, lowest)
            all_dice += dice
    if side == "defender":
        battle["defence_dice"] = all_dice
    return hits


def _defence_cancels(d: Data, battle):
    """Defender dice showing 1 in a City (1 or 2 with Befestigung) cancel hits."""
    estate = side_estate(d, battle, "defender")
    if battle["reactions"]["defender"] == "befestigung":
        top = FORTIFIED_CANCELS_UP_TO
    else:
        top = CITY_CANCELS_UP_TO if estate["city"] else 0
    cancels = 0
    dice: list[int] = battle.get("defence_dice", [])
    for value in dice:  # as in _count_hits
        if value <= top:
            cancels += 1
    return cancels


def _roll_round(d: Data, battle, events: list[Event]) -> None:
    battle["round"] += 1
    attack = _side_hits(d, battle, "attacker", events)
    defence = _side_hits(d, battle, "defender", events)
    cancelled = min(attack, _defence_cancels(d, battle))
    battle["hits"] = {"attacker": defence, "defender": attack - cancelled}
    event(
        events,
        "battle_round",
        battle["attacker"],
        round=battle["round"],
        hits_on_attacker=defence,
        hits_on_defender=attack - cancelled,
        cancelled=cancelled,
    )
    battle["stage"] = "losses"


# --- losses ------------------------------------------------------------------------


def loss_range(d: Data, battle, side):
    """``(lo, hi)`` Citizens the side may lose for its pending hits."""
    hits = battle["hits"][side]
    estate = side_estate(d, battle, side)
    citizens = estate["citizens"] if estate else 0
    hi = min(hits, citizens)
    return min(hi, max(0, hits - battle["soldiers"][side])), hi


def _losses(d: Data, battle, events: list[Event]) -> None:
    choosers = []
    for side in SIDES:
        if battle["hits"][side] == 0:
            continue
        lo, hi = loss_range(d, battle, side)
        if hi > lo and is_player(battle[side]):
            choosers.append(battle[side])
        else:
            apply_losses(d, battle, side, lo, events)
    if choosers:
        decide(d, "losses", choosers)
        return
    _after_losses(d, battle, events)


def apply_losses(d: Data, battle, side, citizens, events: list[Event]) -> None:
    """Take ``citizens`` Citizens, then Soldiers, then Estate strength."""
    hits = battle["hits"][side]
    battle["hits"][side] = 0
    estate = side_estate(d, battle, side)
    if estate is not None and citizens:
        estate = change_side_estate(d, battle, side, citizens=estate["citizens"] - citizens)
    soldiers = min(battle["soldiers"][side], hits - citizens)
    battle["soldiers"][side] -= soldiers
    rest = hits - citizens - soldiers
    if estate is not None and rest:
        estate = change_side_estate(d, battle, side, strength=max(0, estate["strength"] - rest))
    event(
        events,
        "losses_taken",
        battle[side] if is_player(battle[side]) else None,
        side=side,
        citizens=citizens,
        soldiers=soldiers,
        estate=rest,
        strength=estate["strength"] if estate else None,
    )


def _after_losses(d: Data, battle, events: list[Event]) -> None:
    attacking_estate = side_estate(d, battle, "attacker")
    attacker_gone = (
        attacking_estate["strength"] == 0
        if attacking_estate is not None
        else battle["soldiers"]["attacker"] == 0
    )
    defender_gone = side_estate(d, battle, "defender")["strength"] == 0
    if attacker_gone or defender_gone:
        _finish(d, battle, attacker_gone, defender_gone, events)
    else:
        battle["stage"] = "round"
        push_front(d, ["battle"])


def _finish(d: Data, battle, attacker_gone, defender_gone, events: list[Event]) -> None:
    attacker, defender = battle["attacker"], battle["defender"]
    target_region, target_slot = battle["target"]
    if attacker_gone and battle["from"] is not None:
        remove_estate(d, battle["from"][0], battle["from"][1], events, "battle")
    if defender_gone and attacker_gone:
        remove_estate(d, target_region, target_slot, events, "battle")
        event(events, "battle_ended", attacker, winner=None, defender=defender)
    elif defender_gone:
        city = d["regions"][target_region]["slots"][target_slot]["city"]
        remove_estate(d, target_region, target_slot, events, "conquered")
        set_slot(
            d, target_region, target_slot, {"owner": attacker, "strength": 1, "city": city, "citizens": 0}
        )
        event(
            events,
            "estate_conquered",
            attacker,
            region=REGION_NAMES[target_region],
            slot=target_slot,
            city=city,
            previous=defender,
        )
        _prestige_result(d, attacker, defender, events)
    else:
        _prestige_result(d, defender, attacker, events)
    d["battle"] = None
    settle_holdings(d, events)


def _prestige_result(d: Data, winner, loser, events: list[Event]) -> None:
    event(events, "battle_ended", winner if is_player(winner) else None, winner=winner, loser=loser)
    change_prestige(d, winner, 1, events, "battle_won")
    change_prestige(d, loser, -1, events, "battle_lost")


STEPS: dict[str, Callable[..., Any]] = {"battle": _step_battle}
