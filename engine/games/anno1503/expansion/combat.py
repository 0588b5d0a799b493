"""Sea battles of the expansion: pirate cards and pirate lairs (§2.11, §2.12).

A battle's context lives in ``state.part.combat`` while a decision is
pending; decisions are the generic ``respond`` action of the seat named in
``state.choice`` (kinds ``pirate_attack``, ``sea_hero``, ``pirate_penalty``,
``pirate_offer``). Dice are rolled automatically (ruling §2.14 #2: the engine
rolls for the pirate/lair side) and every roll is a public event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....kit import event
from ..rules import pay, take
from ..turn import ask
from .data import (
    CONTENT,
    GEOMETRY,
    HAND_KEYS,
    PIRATE_CARDS,
    PIRATE_SEATS,
    PORT_SEA,
    TILE_STRENGTH,
    tile_public,
)
from .rules import cannons, combat_roll, left_of

if TYPE_CHECKING:
    from ....core import Event
    from ..state import State


_PAY_OFF = CONTENT["pay_off_pirates"]
_GIVE_GOLD = CONTENT["give_gold"]


def done(state: State) -> None:
    state.part.combat = None
    state.choice = None
    state.phase = "main"


# --- pirate squares ---------------------------------------------------------


def enter_pirate_square(state: State, seat: int, ship, events: list[Event]) -> None:
    """Entering a pirate square ends the move; the left neighbour draws."""
    player = state.players[seat]
    player.ship_ap[ship] = 0
    piles = state.part
    if not piles.pirate_deck:
        piles.pirate_deck, piles.pirate_discard = piles.pirate_discard, []
        state.rng.shuffle(piles.pirate_deck)
    card_id = piles.pirate_deck.pop()
    card = PIRATE_CARDS[card_id]
    drawer = left_of(state, seat)
    event(events, "pirate_card_drawn", drawer, card=dict(card), ship=ship, target=seat)
    piles.combat = {"kind": "pirate", "seat": seat, "ship": ship, "card": card_id}
    if card["kind"] == "peaceful":
        _offer(state, seat, card, events)
    else:
        _name_pirate(state, seat, card, events)


def _name_pirate(state: State, seat: int, card, events: list[Event]) -> None:
    combat = state.part.combat
    who = card["pirate"]
    pirate = None if who == "as_strong" else (seat + PIRATE_SEATS[who]) % state.num_players
    if pirate == seat:  # ruling §2.14 #1: the named pirate would be yourself
        pirate = None
    strength = cannons(state.players[seat if pirate is None else pirate])
    roller = left_of(state, seat) if pirate is None else pirate
    combat.update(pirate=pirate, roller=roller, strength=strength)
    event(events, "pirate_named", roller, pirate=pirate, as_strong=pirate is None, strength=strength)
    if state.players[seat].gold >= _PAY_OFF:
        ask(state, seat, "sea_battle", "pirate_attack", ("pay", "fight"))
        return
    fight(state, events)


def pirate_attack_answer(state: State, option, events: list[Event]) -> None:
    seat = state.part.combat["seat"]
    if option == "pay":
        state.players[seat].gold -= _PAY_OFF
        event(events, "gold_paid", seat, amount=_PAY_OFF, reason="pirate_card")
        finish_pirate_card(state, events)
    else:
        fight(state, events)


def finish_pirate_card(state: State, events: list[Event]) -> None:
    card = PIRATE_CARDS[state.part.combat["card"]]
    state.part.pirate_discard.append(card["id"])
    if card.get("reshuffle"):
        piles = state.part
        piles.pirate_deck = piles.pirate_deck + piles.pirate_discard
        piles.pirate_discard = []
        state.rng.shuffle(piles.pirate_deck)
        event(events, "pirate_deck_reshuffled", None, size=len(piles.pirate_deck))
    done(state)


# --- the battle -------------------------------------------------------------


def fight(state: State, events: list[Event]):
    """Roll until decided; a tie asks the attacker about a Sea Hero."""
    combat = state.part.combat
    seat = combat["seat"]
    player = state.players[seat]
    while True:
        mine, theirs = combat_roll(state), combat_roll(state)
        total, against = mine + cannons(player), theirs + combat["strength"]
        event(
            events,
            "combat_rolled",
            seat,
            roller=combat["roller"],
            attacker_roll=mine,
            defender_roll=theirs,
            attacker_total=total,
            defender_total=against,
        )
        if total != against:
            return resolve(state, total > against, events)
        if "sea_hero" in player.part.cards:
            ask(state, seat, "sea_battle", "sea_hero", ("sea_hero", "reroll"))
            return None


def sea_hero_answer(state: State, option, events: list[Event]):
    if option == "reroll":
        return fight(state, events)
    seat = state.part.combat["seat"]
    cards = state.players[seat].part.cards
    cards.remove("sea_hero")
    state.part.aristocrat_discard.append("sea_hero")
    event(events, "aristocrat_card_played", seat, card="sea_hero")
    return resolve(state, True, events)


def resolve(state: State, won, events: list[Event]) -> None:
    combat = state.part.combat
    event(events, "battle_won" if won else "battle_lost", combat["seat"], kind=combat["kind"])
    if combat["kind"] == "lair":
        _lair_result(state, won, events)
    elif won:
        _pirate_reward(state, events)
    else:
        _pirate_penalty(state, events)


# --- pirate card effects ----------------------------------------------------------


def _pirate_reward(state: State, events: list[Event]) -> None:
    seat = state.part.combat["seat"]
    player = state.players[seat]
    for what, n in PIRATE_CARDS[state.part.combat["card"]]["win"].items():
        if what == "gold":
            player.gold += n
            event(events, "gold_received", seat, amount=n, reason="pirate_card")
        elif state.stacks[what] > 0:
            take(state, player, what)
            event(events, "commodity_taken", seat, commodity=what, source="pirate_card")
    finish_pirate_card(state, events)


def _pirate_penalty(state: State, events: list[Event]):
    combat = state.part.combat
    seat, player = combat["seat"], state.players[combat["seat"]]
    loss = PIRATE_CARDS[combat["card"]]["loss"]
    if loss == "half_gold":
        lost = player.gold // 2
        player.gold -= lost
        event(events, "gold_paid", seat, amount=lost, reason="pirate_card")
    elif loss == "damage":
        damage_beside_port(state, seat, combat["ship"], events)
    else:
        options = [c for c in HAND_KEYS if player.hand[c]]
        if player.gold >= _GIVE_GOLD:
            options.append("gold")
        if len(options) >= 2:
            ask(state, seat, "sea_battle", "pirate_penalty", options)
            return
        if options:
            return give_penalty(state, options[0], events)
        event(events, "penalty_missed", seat)  # nothing to give: no penalty
    finish_pirate_card(state, events)


def give_penalty(state: State, option, events: list[Event]) -> None:
    """S3 "Perte 1 marchandise ou 1 marchandise de luxe ou payer 5 Or": the
    card goes back to its stack, the gold to the bank (no player gains)."""
    seat = state.part.combat["seat"]
    player = state.players[seat]
    if option == "gold":
        player.gold -= _GIVE_GOLD
        event(events, "penalty_given", seat, gold=_GIVE_GOLD)
    else:
        pay(state, player, ((option, 1),))
        event(events, "penalty_given", seat, commodity=option)
    finish_pirate_card(state, events)


def damage_beside_port(state: State, seat: int, ship, events: list[Event]) -> None:
    """Ruling §2.14 #7: the first port-adjacent sea square in data order."""
    player = state.players[seat]
    player.ship_at[ship] = PORT_SEA[0]
    player.ship_ap[ship] = 0
    player.part.damaged[ship] = True
    event(events, "ship_damaged", seat, ship=ship, at=list(PORT_SEA[0]))


def _offer(state: State, seat: int, card, events: list[Event]) -> None:
    player = state.players[seat]
    options = [c for c in card["offer"] if state.stacks[c] > 0 and player.gold >= card["price"]]
    if options:
        ask(state, seat, "sea_battle", "pirate_offer", options + ["decline"])
        return
    finish_pirate_card(state, events)


def offer_answer(state: State, option, events: list[Event]) -> None:
    combat = state.part.combat
    seat = combat["seat"]
    if option != "decline":
        price = PIRATE_CARDS[combat["card"]]["price"]
        player = state.players[seat]
        player.gold -= price
        take(state, player, option)
        event(events, "bought", seat, commodity=option, gold=price, source="pirate_card")
    else:  # every accepted move leaves an event (the stream shows the choice was made)
        event(events, "pirate_offer_declined", seat, card=combat["card"])
    finish_pirate_card(state, events)


# --- lairs --------------------------------------------------------------------------


def attack_lair(state: State, seat: int, ship, space, events: list[Event]) -> None:
    tile = state.spaces[space]
    roller = left_of(state, seat)
    r, c = GEOMETRY.spaces[space]
    state.seen[space] = tuple(range(state.num_players))  # the attack shows the lair to all
    state.part.combat = {
        "kind": "lair",
        "seat": seat,
        "ship": ship,
        "space": space,
        "tile": tile,
        "pirate": None,
        "roller": roller,
        "strength": TILE_STRENGTH[tile],
    }
    event(events, "lair_attacked", seat, ship=ship, space=[r, c], tile=tile_public(tile), roller=roller)
    fight(state, events)


def _lair_result(state: State, won, events: list[Event]) -> None:
    combat = state.part.combat
    seat, ship, space = combat["seat"], combat["ship"], combat["space"]
    player = state.players[seat]
    if won:
        state.spaces[space] = None
        state.seen[space] = ()
        player.part.lairs.append(combat["tile"])
        player.ship_at[ship] = None
        player.ship_ap[ship] = 0
        event(events, "lair_defeated", seat, tile=tile_public(combat["tile"]))
    else:
        player.ship_ap[ship] = 0
        player.part.damaged[ship] = True
        event(events, "ship_damaged", seat, ship=ship, at=list(player.ship_at[ship]))
    state.discovery = None
    done(state)
