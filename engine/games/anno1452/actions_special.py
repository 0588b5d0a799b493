"""Special Action cards: the "AR:" text as a turn's action, the "ER:" text
once per player per evaluation round in the window of its phase.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ...kit import event
from ...params import IntRange, Optional
from .actionkit import CARD, ESTATE, REGION, discard_from_hand, end_decision, make_spec
from .actions_battle import TOURNAMENT_FEE
from .actions_cards import add_city
from .actions_round import attack_actions, attack_legal, attack_problem
from .battle import start_battle
from .board import can_build_city, change_estate, iter_estates, remove_citizens_auto, settle_holdings, totals
from .data import AR_TEXTS, CARDS, CARDS_OF_KIND, ER_TEXTS, REGION_INDEX, REGION_NAMES
from .evaluation import window_cards
from .holdings import Holdings
from .state import change_prestige, gain_gold, pay_gold, players_of
from .steps import decide

if TYPE_CHECKING:
    from ...core import Action, ActionSpec, Event
    from .state import Data


# The amounts printed on the cards (data/special_actions.json).
MERCENARIES = AR_TEXTS["soeldner"]["mercenaries"]
STADTRECHT_COST = AR_TEXTS["stadtrecht"]["cost"]
ABLASS_PRICE = AR_TEXTS["ablass"]["gold_per_point"]  # gold per prestige point, AR and ER alike
ABLASS_POINTS = tuple(AR_TEXTS["ablass"]["points"])  # the "amount" choices
# Special Action card ids (data.CARDS_OF_KIND), for the action turn's generator.
_SPECIALS: Final = CARDS_OF_KIND["special"]

PARAMS = ("target", "from", "region", "amount")
# AR effect -> the parameters it takes (the others must be left out).
AR_PARAMS = {
    "sondersteuer": (),
    "messe": (),
    "reichstag": (),
    "landfrieden": (),
    "turnier": (),
    "steuerpacht": (),
    "soeldner": ("target", "from"),
    "fehde": ("target", "from"),
    "ablass": ("amount",),
    "pest": ("region",),
    "stadtrecht": ("target",),
}
ER_PARAMS = {"ablass": ("amount",)}


def _effect(card):
    return CARDS[card].get("effect")


def _params_problem(action: Action, allowed):
    for name in PARAMS:
        if name not in allowed and action.get(name) is not None:
            return "unexpected_" + name
    return None


def _play_special_check(d: Data, seat, action: Action) -> str | None:
    card = action["card"]
    if card not in d["players"][seat]["hand"] or CARDS[card]["kind"] != "special":
        return "no_special_card"
    effect = _effect(card)
    if d["decision"]["kind"] == "er_special":
        if card not in window_cards(d, seat, d["decision"]["window"]):
            return "not_usable_in_this_phase"
        return _params_problem(action, ER_PARAMS.get(effect, ())) or _amount_problem(d, seat, action, effect)
    if effect not in AR_PARAMS:
        return "no_action_round_effect"
    return _params_problem(action, AR_PARAMS[effect]) or _ar_problem(d, seat, action, effect)


def _amount_problem(d: Data, seat, action: Action, effect):
    if effect != "ablass":
        return None
    if action.get("amount") is None:
        return "amount_required"
    return None if d["players"][seat]["gold"] >= ABLASS_PRICE * action["amount"] else "not_enough_gold"


def _ar_problem(d: Data, seat, action: Action, effect):
    if effect in ("soeldner", "fehde"):
        if action.get("target") is None:
            return "target_required"
        mercenaries = MERCENARIES if effect == "soeldner" else 0
        return attack_problem(d, seat, action.get("from"), action["target"], mercenaries)
    if effect == "pest" and action.get("region") is None:
        return "region_required"
    if effect == "stadtrecht":
        if action.get("target") is None or not can_build_city(d, seat, *action["target"]):
            return "no_room_for_city"
        if d["players"][seat]["gold"] < STADTRECHT_COST:
            return "not_enough_gold"
    return _amount_problem(d, seat, action, effect)


def _play_special_candidates(d: Data, seat) -> list[Action]:
    in_evaluation = d["decision"]["kind"] == "er_special"
    actions = []
    for card in d["players"][seat]["hand"]:
        if CARDS[card]["kind"] == "special":
            actions += _card_candidates(d, seat, card, in_evaluation)
    return actions


def _card_candidates(d: Data, seat, card, in_evaluation) -> list[Action]:
    base = {"type": "play_special", "card": card}
    effect = _effect(card)
    if effect == "ablass":
        return [{**base, "amount": points} for points in ABLASS_POINTS]
    if in_evaluation:
        return [base]
    if effect in ("soeldner", "fehde"):
        return attack_actions(d, seat, base)
    if effect == "pest":
        return [{**base, "region": name} for name in REGION_NAMES]
    if effect == "stadtrecht":
        return [{**base, "target": [region, slot]} for region, slot, _ in iter_estates(d, seat)]
    return [base]


def _play_special_legal(d: Data, seat) -> list[Action]:
    return play_special_actions(d, seat, None)


def play_special_actions(d: Data, seat, holdings: Holdings | None) -> list[Action]:
    """``_play_special_candidates`` that pass ``_play_special_check``; the
    attacks of Söldner and Fehde are generated legal (``attack_legal``, from
    ``holdings`` when given)."""
    if d["decision"]["kind"] == "er_special":
        return [a for a in _play_special_candidates(d, seat) if _play_special_check(d, seat, a) is None]
    actions = []
    for card in d["players"][seat]["hand"]:
        if card in _SPECIALS:
            actions += _ar_card_legal(d, seat, card, holdings)
    return actions


def _ar_card_legal(d: Data, seat, card, holdings: Holdings | None) -> list[Action]:
    """``_card_candidates`` of a card played in an action round that pass
    ``_play_special_check``, effect by effect (``_ar_problem``)."""
    base = {"type": "play_special", "card": card}
    effect = _effect(card)
    if effect in ("soeldner", "fehde"):
        return attack_legal(d, seat, base, MERCENARIES if effect == "soeldner" else 0, holdings)
    if effect not in AR_PARAMS:
        return []
    gold = d["players"][seat]["gold"]
    if effect == "ablass":
        return [{**base, "amount": points} for points in ABLASS_POINTS if gold >= ABLASS_PRICE * points]
    if effect == "pest":
        return [{**base, "region": name} for name in REGION_NAMES]
    if effect == "stadtrecht":
        if gold < STADTRECHT_COST:
            return []
        return [
            {**base, "target": [region, slot]}
            for region, slot, _ in iter_estates(d, seat)
            if can_build_city(d, seat, region, slot)
        ]
    return [base]


def _play_special_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    card = action["card"]
    discard_from_hand(d, seat, card)
    effect = _effect(card)
    event(events, "special_played", seat, card=card, effect=effect)
    if d["decision"]["kind"] == "er_special":
        d["er_used"] = [*d["er_used"], seat]  # replaced: a clone shares it
        end_decision(d)
        ER_EFFECTS[effect](d, seat, action, events)
    else:
        end_decision(d)
        AR_EFFECTS[effect](d, seat, action, events)


# --- AR texts --------------------------------------------------------------------------------


def _ar_sondersteuer(d: Data, seat, action: Action, events: list[Event]) -> None:
    citizens = totals(d, seat)[1]
    gain_gold(d, seat, AR_TEXTS["sondersteuer"]["gold_per_citizen"] * citizens, events, "sondersteuer")


def _ar_messe(d: Data, seat, action: Action, events: list[Event]) -> None:
    cities = totals(d, seat)[2]
    gain_gold(d, seat, AR_TEXTS["messe"]["gold_per_city"] * cities, events, "messe")


def _ar_attack(mercenaries, fehde):
    def run(d: Data, seat, action: Action, events: list[Event]) -> None:
        start_battle(
            d, seat, action.get("from"), action["target"], events, mercenaries=mercenaries, fehde=fehde
        )

    return run


def _ablass(d: Data, seat, action: Action, events: list[Event]) -> None:
    pay_gold(d, seat, ABLASS_PRICE * action["amount"], events, "ablass")
    change_prestige(d, seat, action["amount"], events, "ablass")


def _ar_pest(d: Data, seat, action: Action, events: list[Event]) -> None:
    region = REGION_INDEX[action["region"]]
    for slot, estate in enumerate(d["regions"][region]["slots"]):
        if estate is not None and estate["citizens"]:
            event(
                events,
                "plague",
                region=action["region"],
                slot=slot,
                owner=estate["owner"],
                citizens=estate["citizens"],
            )
            change_estate(d, region, slot, citizens=0)
    settle_holdings(d, events)


def _ar_landfrieden(d: Data, seat, action: Action, events: list[Event]) -> None:
    d["landfrieden"] = [*d["landfrieden"], seat]  # replaced: a clone shares it


def _ar_stadtrecht(d: Data, seat, action: Action, events: list[Event]) -> None:
    pay_gold(d, seat, STADTRECHT_COST, events, "stadtrecht")
    add_city(d, seat, action["target"][0], action["target"][1], events, "stadtrecht")
    settle_holdings(d, events)


def _ar_turnier(d: Data, seat, action: Action, events: list[Event]) -> None:
    change_prestige(d, seat, AR_TEXTS["turnier"]["prestige"], events, "turnier")
    others = [
        other for other in d["order"] if other != seat and d["players"][other]["gold"] >= TOURNAMENT_FEE
    ]
    if others:
        decide(d, "tournament", others)


def _ar_steuerpacht(d: Data, seat, action: Action, events: list[Event]) -> None:
    """Each other player pays the card's amount, as far as he can."""
    for other in players_of(d):
        paid = min(AR_TEXTS["steuerpacht"]["gold"], d["players"][other]["gold"]) if other != seat else 0
        pay_gold(d, other, paid, events, "steuerpacht")
        gain_gold(d, seat, paid, events, "steuerpacht")


def _prestige_text(name, texts):
    def run(d: Data, seat, action: Action, events: list[Event]) -> None:
        change_prestige(d, seat, texts[name]["prestige"], events, name)

    return run


AR_EFFECTS = {
    "sondersteuer": _ar_sondersteuer,
    "messe": _ar_messe,
    "soeldner": _ar_attack(MERCENARIES, False),
    "fehde": _ar_attack(0, True),
    "reichstag": _prestige_text("reichstag", AR_TEXTS),
    "ablass": _ablass,
    "pest": _ar_pest,
    "landfrieden": _ar_landfrieden,
    "stadtrecht": _ar_stadtrecht,
    "turnier": _ar_turnier,
    "steuerpacht": _ar_steuerpacht,
}


# --- ER texts --------------------------------------------------------------------------------


def _er_mark(name):
    """Note ``seat`` under ``name`` in the round's effects: replaced, not
    changed in place (a clone shares them: ``state.clone_data``)."""

    def run(d: Data, seat, action: Action, events: list[Event]) -> None:
        effects = d["er_effects"]
        d["er_effects"] = {**effects, name: [*effects[name], seat]}

    return run


def _er_pest(d: Data, seat, action: Action, events: list[Event]) -> None:
    for player in players_of(d):
        remove_citizens_auto(d, player, ER_TEXTS["pest"]["citizens"], events, "pest")
    settle_holdings(d, events)


def _er_bestechung(d: Data, seat, action: Action, events: list[Event]) -> None:
    d["er_effects"] = {**d["er_effects"], "bestechung": seat}


ER_EFFECTS = {
    "sondersteuer": _er_mark("sondersteuer"),
    "messe": _er_mark("messe"),
    "steuerpacht": _er_mark("steuerpacht"),
    "reichstag": _er_mark("reichstag"),
    "landfrieden": _er_mark("landfrieden"),
    "pest": _er_pest,
    "ablass": _ablass,
    "turnier": _prestige_text("turnier", ER_TEXTS),
    "bestechung": _er_bestechung,
}


# Annotated: mypyc (engine.native) cannot infer a type across the package's import cycle.
SPECS: list[ActionSpec[Any]] = [
    make_spec(
        "play_special",
        {
            "card": CARD,
            "target": Optional(ESTATE),
            "from": Optional(ESTATE),
            "region": Optional(REGION),
            "amount": Optional(IntRange(min(ABLASS_POINTS), max(ABLASS_POINTS))),
        },
        _play_special_candidates,
        _play_special_check,
        _play_special_perform,
        "Play a Special Action card: its AR text as the turn's action, or its ER text "
        "in the evaluation round (target/from: Söldner, Fehde, Stadtrecht; region: Pest; "
        f"amount: Ablass prestige points at {ABLASS_PRICE} gold each).",
        _play_special_legal,
    ),
]
