"""Special Action cards: the "AR:" text as a turn's action, the "ER:" text
once per player per evaluation round in the window of its phase.
"""

from ...params import IntRange, Optional
from .actionkit import CARD, ESTATE, REGION, discard_from_hand, end_decision, make_spec
from .actions_cards import add_city
from .actions_round import attack_candidates, attack_problem
from .battle import start_battle
from .board import can_build_city, iter_estates, remove_citizens_auto, settle_holdings, totals
from .data import CARDS, REGION_INDEX, REGION_NAMES
from .evaluation import window_cards
from .state import change_prestige, event, gain_gold, pay_gold, players_of
from .steps import decide

MERCENARIES = 3
STADTRECHT_COST = 2
PARAMS = ("target", "from", "region", "amount")
# AR effect -> the parameters it takes (the others must be left out).
AR_PARAMS = {
    "sondersteuer": (), "messe": (), "reichstag": (), "landfrieden": (), "turnier": (), "steuerpacht": (),
    "soeldner": ("target", "from"), "fehde": ("target", "from"), "ablass": ("amount",),
    "pest": ("region",), "stadtrecht": ("target",),
}
ER_PARAMS = {"ablass": ("amount",)}


def _effect(card):
    return CARDS[card].get("effect")


def _params_problem(a, allowed):
    for name in PARAMS:
        if name not in allowed and a.get(name) is not None:
            return "unexpected_" + name
    return None


def _check_special(d, seat, a):
    card = a["card"]
    if card not in d["players"][seat]["hand"] or CARDS[card]["kind"] != "special":
        return "no_special_card"
    effect = _effect(card)
    if d["decision"]["kind"] == "er_special":
        if card not in window_cards(d, seat, d["decision"]["window"]):
            return "not_usable_in_this_phase"
        return _params_problem(a, ER_PARAMS.get(effect, ())) or _amount_problem(d, seat, a, effect)
    if effect not in AR_PARAMS:
        return "no_action_round_effect"
    return _params_problem(a, AR_PARAMS[effect]) or _ar_problem(d, seat, a, effect)


def _amount_problem(d, seat, a, effect):
    if effect != "ablass":
        return None
    if a.get("amount") is None:
        return "amount_required"
    return None if d["players"][seat]["gold"] >= 5 * a["amount"] else "not_enough_gold"


def _ar_problem(d, seat, a, effect):
    if effect in ("soeldner", "fehde"):
        if a.get("target") is None:
            return "target_required"
        return attack_problem(d, seat, a.get("from"), a["target"], MERCENARIES if effect == "soeldner" else 0)
    if effect == "pest" and a.get("region") is None:
        return "region_required"
    if effect == "stadtrecht":
        if a.get("target") is None or not can_build_city(d, seat, *a["target"]):
            return "no_room_for_city"
        if d["players"][seat]["gold"] < STADTRECHT_COST:
            return "not_enough_gold"
    return _amount_problem(d, seat, a, effect)


def _cand_special(d, seat):
    out = []
    er = d["decision"]["kind"] == "er_special"
    for card in d["players"][seat]["hand"]:
        if CARDS[card]["kind"] != "special":
            continue
        base = {"type": "play_special", "card": card}
        effect = _effect(card)
        if effect == "ablass":
            out += [{**base, "amount": n} for n in (1, 2)]
        elif er:
            out.append(base)
        elif effect in ("soeldner", "fehde"):
            out += attack_candidates(d, seat, base)
        elif effect == "pest":
            out += [{**base, "region": n} for n in REGION_NAMES]
        elif effect == "stadtrecht":
            out += [{**base, "target": [r, s]} for r, s, _ in iter_estates(d, seat)]
        else:
            out.append(base)
    return out


def _do_special(d, seat, a, events):
    card = a["card"]
    discard_from_hand(d, seat, card)
    effect = _effect(card)
    event(events, "special_played", seat, card=card, effect=effect)
    if d["decision"]["kind"] == "er_special":
        d["er_used"].append(seat)
        end_decision(d)
        ER_EFFECTS[effect](d, seat, a, events)
    else:
        end_decision(d)
        AR_EFFECTS[effect](d, seat, a, events)


# --- AR texts --------------------------------------------------------------------------------

def _ar_sondersteuer(d, seat, a, events):
    gain_gold(d, seat, totals(d, seat)[1], events, "sondersteuer")


def _ar_messe(d, seat, a, events):
    gain_gold(d, seat, 2 * totals(d, seat)[2], events, "messe")


def _ar_attack(mercenaries, fehde):
    def run(d, seat, a, events):
        start_battle(d, seat, a.get("from"), a["target"], events, mercenaries=mercenaries, fehde=fehde)
    return run


def _ablass(d, seat, a, events):
    pay_gold(d, seat, 5 * a["amount"], events, "ablass")
    change_prestige(d, seat, a["amount"], events, "ablass")


def _ar_pest(d, seat, a, events):
    r = REGION_INDEX[a["region"]]
    for s, est in enumerate(d["regions"][r]["slots"]):
        if est is not None and est["citizens"]:
            event(events, "plague", region=a["region"], slot=s, owner=est["owner"], citizens=est["citizens"])
            est["citizens"] = 0
    settle_holdings(d, events)


def _ar_landfrieden(d, seat, a, events):
    d["landfrieden"].append(seat)


def _ar_stadtrecht(d, seat, a, events):
    pay_gold(d, seat, STADTRECHT_COST, events, "stadtrecht")
    add_city(d, seat, *a["target"], events, "stadtrecht")
    settle_holdings(d, events)


def _ar_turnier(d, seat, a, events):
    change_prestige(d, seat, 1, events, "turnier")
    others = [s for s in d["order"] if s != seat and d["players"][s]["gold"] >= 3]
    if others:
        decide(d, "tournament", others)


def _steuerpacht(amount):
    def run(d, seat, a, events):
        for other in players_of(d):
            paid = min(amount, d["players"][other]["gold"]) if other != seat else 0
            pay_gold(d, other, paid, events, "steuerpacht")
            gain_gold(d, seat, paid, events, "steuerpacht")
    return run


AR_EFFECTS = {
    "sondersteuer": _ar_sondersteuer, "messe": _ar_messe,
    "soeldner": _ar_attack(MERCENARIES, False), "fehde": _ar_attack(0, True),
    "reichstag": lambda d, seat, a, events: change_prestige(d, seat, 2, events, "reichstag"),
    "ablass": _ablass, "pest": _ar_pest, "landfrieden": _ar_landfrieden,
    "stadtrecht": _ar_stadtrecht, "turnier": _ar_turnier, "steuerpacht": _steuerpacht(2),
}


# --- ER texts --------------------------------------------------------------------------------

def _er_mark(name):
    def run(d, seat, a, events):
        d["er_effects"][name].append(seat)
    return run


def _er_pest(d, seat, a, events):
    for s in players_of(d):
        remove_citizens_auto(d, s, 1, events, "pest")
    settle_holdings(d, events)


def _er_bestechung(d, seat, a, events):
    d["er_effects"]["bestechung"] = seat


ER_EFFECTS = {
    "sondersteuer": _er_mark("sondersteuer"), "messe": _er_mark("messe"),
    "steuerpacht": _er_mark("steuerpacht"), "reichstag": _er_mark("reichstag"),
    "landfrieden": _er_mark("landfrieden"), "pest": _er_pest, "ablass": _ablass,
    "turnier": lambda d, seat, a, events: change_prestige(d, seat, 1, events, "turnier"),
    "bestechung": _er_bestechung,
}


SPECS = [
    make_spec("play_special",
              {"card": CARD, "target": Optional(ESTATE), "from": Optional(ESTATE),
               "region": Optional(REGION), "amount": Optional(IntRange(1, 2))},
              _cand_special, _check_special, _do_special,
              "Play a Special Action card: its AR text as the turn's action, or its ER text "
              "in the evaluation round (target/from: Söldner, Fehde, Stadtrecht; region: Pest; "
              "amount: Ablass prestige points at 5 gold each)."),
]
