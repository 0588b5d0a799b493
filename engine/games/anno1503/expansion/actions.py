"""Expansion actions on the aristocrat island and with aristocrat cards.

``buy_cannon``, ``build_manor``, ``build_aristocrat``, ``sell_luxury``,
``repair_ship``, ``play_card``, ``exchange_card`` (phase ``main``),
``respond`` (the pending sea-battle decision), ``attack_lair`` (phase
``tile_decision``: reveal a discovered lair and fight it, S3 §6.3) and
``discard_card`` (the aristocrat-card hand limit of 4 at the end of the turn).
"""

from ....kit import ActionSpec, event
from ....params import IntRange, OneOf, Optional
from ..actions_island import can_develop, develop_slot, finish_turn
from ..actions_sea import SHIP
from ..data import SLOTS
from ..rules import can_pay, pay, take
from ..turn import ship_ap
from .combat import attack_lair, give_penalty, offer_answer, pirate_attack_answer, sea_hero_answer
from .data import (
    ARISTO_BUILDINGS,
    ARISTO_COSTS,
    ARISTO_SITES,
    CARD_HAND_LIMIT,
    CARD_TYPES,
    CATHEDRAL_CARDS,
    CONTENT,
    HAND_KEYS,
    LUXURIES,
    MANOR_COSTS,
    PARK_GOLD,
    PLAYABLE_CARDS,
    REPAIR_COST,
    SKULL_SITE,
    TILE_KINDS,
)
from .rules import aristocrat_pays, draw_aristocrat_cards, may_attack_lairs, next_cannon_price

_EXCHANGE = CONTENT["exchange_cost"]
_RESPONSES = ("pay", "fight", "sea_hero", "reroll", "decline", "gold") + HAND_KEYS


# --- cannons and the manor -------------------------------------------------------


def _buy_cannon_candidates(state, seat):
    return [{"type": "buy_cannon"}]


def _buy_cannon_check(state, seat, action):
    player = state.players[seat]
    price = next_cannon_price(player)
    if price is None:
        return "cannon_track_full"
    return "not_enough_gold" if player.gold < price else None


def _buy_cannon_perform(state, seat, action, events):
    player = state.players[seat]
    price = next_cannon_price(player)
    player.gold -= price
    player.part.cannons += 1
    event(events, "cannon_bought", seat, gold=price, cannons=player.part.cannons)


def manor_step_problem(player):
    step = player.part.manor
    if step >= len(MANOR_COSTS):
        return "manor_complete"
    if step == len(MANOR_COSTS) - 1 and not player.part.lairs:
        return "manor_step_9_needs_a_defeated_lair"
    return None


def _build_manor_candidates(state, seat):
    return [{"type": "build_manor"}]


def _build_manor_check(state, seat, action):
    player = state.players[seat]
    problem = manor_step_problem(player)
    if problem:
        return problem
    return None if _can_pay_cost(player, MANOR_COSTS[player.part.manor]) else "cannot_pay"


def _can_pay_cost(player, cost):
    gold = dict(cost).get("gold", 0)
    return player.gold >= gold and can_pay(player, [(c, n) for c, n in cost if c != "gold"])


def _pay_cost(state, player, cost):
    player.gold -= dict(cost).get("gold", 0)
    pay(state, player, [(c, n) for c, n in cost if c != "gold"])


def _build_manor_perform(state, seat, action, events):
    player = state.players[seat]
    _pay_cost(state, player, MANOR_COSTS[player.part.manor])
    advance_manor(state, seat, events, draw=True)


def advance_manor(state, seat, events, draw):
    player = state.players[seat]
    player.part.manor += 1
    event(events, "manor_advanced", seat, step=player.part.manor)
    if draw:
        draw_aristocrat_cards(state, seat, 1, events)


# --- aristocrat buildings ---------------------------------------------------------


def _develop_options(player):
    return [i + 1 for i in range(len(player.slots)) if can_develop(player, i)]


def _build_aristocrat_candidates(state, seat):
    player = state.players[seat]
    out = []
    for name in ARISTO_BUILDINGS:
        if name == "library" and _develop_options(player):
            out += [
                {"type": "build_aristocrat", "building": name, "slot": s} for s in _develop_options(player)
            ]
        else:
            out.append({"type": "build_aristocrat", "building": name})
    return out


def _build_aristocrat_check(state, seat, action):
    player = state.players[seat]
    name, slot = action["building"], action.get("slot")
    owned = player.part.buildings
    if name in owned:
        return "building_already_owned"
    if state.part.aristocrat_buildings[name] <= 0:
        return "building_not_available"
    if len(owned) >= ARISTO_SITES:
        return "no_free_building_site"
    if len(owned) + 1 == SKULL_SITE and not player.part.lairs:
        return "skull_site_needs_a_defeated_lair"
    if not can_pay(player, ARISTO_COSTS[name]):
        return "cannot_pay"
    if name != "library":
        return None if slot is None else "no_slot_for_this_building"
    options = _develop_options(player)
    if slot is None:
        return "slot_required" if options else None
    return None if slot in options else "slot_cannot_develop"


def _build_aristocrat_perform(state, seat, action, events):
    player = state.players[seat]
    name = action["building"]
    pay(state, player, ARISTO_COSTS[name])
    player.part.buildings.append(name)
    supply = state.part.aristocrat_buildings
    supply[name] -= 1
    event(events, "aristocrat_building_built", seat, building=name)
    if name == "park":
        player.gold += PARK_GOLD
        event(events, "gold_received", seat, amount=PARK_GOLD, reason="park")
    elif name == "cathedral":
        draw_aristocrat_cards(state, seat, CATHEDRAL_CARDS, events)
    elif name == "library" and action.get("slot") is not None:
        before, after = develop_slot(player, action["slot"] - 1)
        event(events, "developed", seat, slot=action["slot"], **{"from": before, "to": after})


# --- luxury sale, repair ----------------------------------------------------------


def _sell_luxury_candidates(state, seat):
    return [{"type": "sell_luxury", "commodity": c} for c in LUXURIES]


def _sell_luxury_check(state, seat, action):
    player = state.players[seat]
    if player.part.luxury_sold:
        return "aristocrat_bought_this_turn"
    return None if player.hand[action["commodity"]] > 0 else "commodity_not_held"


def _sell_luxury_perform(state, seat, action, events):
    player = state.players[seat]
    price = aristocrat_pays(player)
    pay(state, player, ((action["commodity"], 1),))
    player.gold += price
    player.part.luxury_sold = True
    event(events, "sold", seat, commodity=action["commodity"], gold=price, buyer="aristocrat")


def _repair_ship_candidates(state, seat):
    return [{"type": "repair_ship", "ship": s} for s in range(len(state.players[seat].ship_at))]


def _repair_ship_check(state, seat, action):
    player = state.players[seat]
    if not player.part.damaged[action["ship"]]:
        return "ship_not_damaged"
    return None if can_pay(player, REPAIR_COST) else "cannot_pay"


def _repair_ship_perform(state, seat, action, events):
    player = state.players[seat]
    pay(state, player, REPAIR_COST)
    repair(state, seat, action["ship"], events)


def repair(state, seat, ship, events):
    """Ruling §2.14 #7: a ship repaired before sailing this turn may move."""
    player = state.players[seat]
    player.part.damaged[ship] = False
    if not player.part.sailed:
        player.ship_ap[ship] = ship_ap(state, player)
    event(events, "ship_repaired", seat, ship=ship)


# --- aristocrat cards -------------------------------------------------------------


def _play_card_candidates(state, seat):
    player = state.players[seat]
    out = []
    for card in PLAYABLE_CARDS:
        if card not in player.part.cards:
            continue
        if card == "inventor":
            out += [{"type": "play_card", "card": card, "luxury": c} for c in LUXURIES]
        elif card == "engineer":
            out += [{"type": "play_card", "card": card}]
            out += [
                {"type": "play_card", "card": card, "ship": s}
                for s in range(len(state.players[seat].ship_at))
            ]
        else:
            out.append({"type": "play_card", "card": card})
    return out


def _play_card_check(state, seat, action):
    player = state.players[seat]
    card, luxury, ship = action["card"], action.get("luxury"), action.get("ship")
    if card not in player.part.cards:
        return "card_not_held"
    if player.part.sailed:
        return "cards_only_before_sailing"  # ruling §2.14 #4
    if (luxury is not None) != (card == "inventor"):
        return "luxury_only_for_inventor"
    if ship is not None and card != "engineer":
        return "ship_only_for_engineer"
    return _CARD_PROBLEMS[card](state, player, action)


def _builder_problem(state, player, action):
    return manor_step_problem(player)


def _inventor_problem(state, player, action):
    return None if state.stacks[action["luxury"]] > 0 else "stack_empty"


def _engineer_problem(state, player, action):
    ship = action.get("ship")
    if ship is None:
        return None if next_cannon_price(player) is not None else "cannon_track_full"
    return None if player.part.damaged[ship] else "ship_not_damaged"


_CARD_PROBLEMS = {
    "explorer": lambda state, player, action: None,
    "builder": _builder_problem,
    "inventor": _inventor_problem,
    "engineer": _engineer_problem,
}


def _play_card_perform(state, seat, action, events):
    player = state.players[seat]
    card = action["card"]
    player.part.cards.remove(card)
    state.part.aristocrat_discard.append(card)
    event(events, "aristocrat_card_played", seat, card=card)
    if card == "explorer":
        bonus = CONTENT["explorer_bonus_ap"]
        player.ship_ap = [
            ap + bonus if at is not None else ap for at, ap in zip(player.ship_at, player.ship_ap)
        ]
        player.part.free_discovery = True
    elif card == "builder":
        advance_manor(state, seat, events, draw=False)
    elif card == "inventor":
        take(state, player, action["luxury"])
        event(events, "commodity_taken", seat, commodity=action["luxury"], source="inventor")
    elif action.get("ship") is not None:
        repair(state, seat, action["ship"], events)
    else:
        player.part.cannons += 1
        event(events, "cannon_bought", seat, gold=0, cannons=player.part.cannons)


def _exchange_card_candidates(state, seat):
    return [{"type": "exchange_card", "card": c} for c in CARD_TYPES if c in state.players[seat].part.cards]


def _exchange_card_check(state, seat, action):
    player = state.players[seat]
    if player.part.exchanged:
        return "exchanged_this_turn"
    if action["card"] not in player.part.cards:
        return "card_not_held"
    return None if player.gold >= _EXCHANGE else "not_enough_gold"


def _exchange_card_perform(state, seat, action, events):
    player = state.players[seat]
    player.gold -= _EXCHANGE
    player.part.cards.remove(action["card"])
    player.part.exchanged = True
    state.part.aristocrat_discard.append(action["card"])
    event(events, "aristocrat_card_exchanged", seat, card=action["card"], gold=_EXCHANGE)
    draw_aristocrat_cards(state, seat, 1, events)


# --- respond and discard_card -------------------------------------------------------


def _respond_candidates(state, seat):
    return [{"type": "respond", "option": o} for o in state.choice["options"]]


def _respond_check(state, seat, action):
    return None if action["option"] in state.choice["options"] else "not_an_option"


_ANSWERS = {
    "pirate_attack": pirate_attack_answer,
    "sea_hero": sea_hero_answer,
    "pirate_penalty": give_penalty,
    "pirate_offer": offer_answer,
}


def _respond_perform(state, seat, action, events):
    kind = state.choice["kind"]
    state.choice = None
    _ANSWERS[kind](state, action["option"], events)


# --- a discovered lair (S3 §6.3) -----------------------------------------------------
# The finder either puts the tile back and explores on (``return_tile``) or
# reveals the lair and fights it (``attack_lair``); the discovery alone
# starts no battle.


def _discovered_lair(state):
    return TILE_KINDS[state.spaces[state.discovery["space"]]] == "lair"


def _attack_lair_candidates(state, seat):
    if _discovered_lair(state) and may_attack_lairs(state.players[seat]):
        return [{"type": "attack_lair"}]
    return []


def _attack_lair_check(state, seat, action):
    if not _discovered_lair(state):
        return "not_a_lair"
    if not may_attack_lairs(state.players[seat]):
        return "two_lairs_defeated"
    return None


def _attack_lair_perform(state, seat, action, events):
    discovery = state.discovery
    attack_lair(state, seat, discovery["ship"], discovery["space"], events)


def _discard_card_candidates(state, seat):
    return [{"type": "discard_card", "card": c} for c in CARD_TYPES if c in state.players[seat].part.cards]


def _discard_card_check(state, seat, action):
    return None if action["card"] in state.players[seat].part.cards else "card_not_held"


def _discard_card_perform(state, seat, action, events):
    player = state.players[seat]
    player.part.cards.remove(action["card"])
    state.part.aristocrat_discard.append(action["card"])
    event(events, "aristocrat_card_discarded", seat, card=action["card"])
    if len(player.part.cards) <= CARD_HAND_LIMIT:
        finish_turn(state, seat, events)


SPECS = [
    ActionSpec(
        "buy_cannon",
        {},
        _buy_cannon_candidates,
        _buy_cannon_check,
        _buy_cannon_perform,
        "Expansion: buy the next cannon on the price track (4, 6, 8, ... gold).",
    ),
    ActionSpec(
        "build_manor",
        {},
        _build_manor_candidates,
        _build_manor_check,
        _build_manor_perform,
        "Expansion: pay the next manor step and draw an aristocrat card (step 9 needs a defeated lair).",
    ),
    ActionSpec(
        "build_aristocrat",
        {
            "building": OneOf(ARISTO_BUILDINGS, "an aristocrat building"),
            "slot": Optional(IntRange(1, SLOTS, "Library: the inhabitant to develop")),
        },
        _build_aristocrat_candidates,
        _build_aristocrat_check,
        _build_aristocrat_perform,
        "Expansion: build an aristocrat building (third site needs a defeated lair).",
    ),
    ActionSpec(
        "sell_luxury",
        {"commodity": OneOf(LUXURIES, "a luxury")},
        _sell_luxury_candidates,
        _sell_luxury_check,
        _sell_luxury_perform,
        "Expansion: the aristocrat buys one luxury per turn (3 gold, 6 with the Richest Aristocrat).",
    ),
    ActionSpec(
        "repair_ship",
        {"ship": SHIP},
        _repair_ship_candidates,
        _repair_ship_check,
        _repair_ship_perform,
        "Expansion: repair a damaged ship for wood + tool.",
    ),
    ActionSpec(
        "play_card",
        {
            "card": OneOf(PLAYABLE_CARDS, "an aristocrat card"),
            "luxury": Optional(OneOf(LUXURIES, "Inventor: the luxury to take")),
            "ship": Optional(SHIP),
        },
        _play_card_candidates,
        _play_card_check,
        _play_card_perform,
        "Expansion: play an aristocrat card before your first ship move or discovery.",
    ),
    ActionSpec(
        "exchange_card",
        {"card": OneOf(CARD_TYPES, "the card to give up")},
        _exchange_card_candidates,
        _exchange_card_check,
        _exchange_card_perform,
        "Expansion: once per turn pay 2 gold to discard a card and draw a new one.",
    ),
    ActionSpec(
        "respond",
        {"option": OneOf(_RESPONSES, "one of the pending choice's options")},
        _respond_candidates,
        _respond_check,
        _respond_perform,
        "Expansion: answer the pending sea-battle decision (pay/fight, Sea Hero, penalty, offer).",
    ),
    ActionSpec(
        "attack_lair",
        {},
        _attack_lair_candidates,
        _attack_lair_check,
        _attack_lair_perform,
        "Expansion: reveal the discovered pirate lair and fight it (else return_tile puts it back).",
    ),
    ActionSpec(
        "discard_card",
        {"card": OneOf(CARD_TYPES, "an aristocrat card")},
        _discard_card_candidates,
        _discard_card_check,
        _discard_card_perform,
        "Expansion: end of turn with more than 4 aristocrat cards: discard one.",
    ),
]
