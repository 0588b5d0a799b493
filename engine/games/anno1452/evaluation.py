"""The evaluation round: cards, income, prestige, coronation, turn order.

Each phase is a step of ``flow``'s queue; the phases run in the printed
order and every player finishes a phase before the next one starts. The
final evaluation plays only income and prestige, then scores.
"""

from .board import iter_estates, principalities_of, settle_holdings, totals
from .data import CARDS, HAND_SIZE, ROWS
from .deck import draw_cards, elect_king, end_crowns
from .state import change_prestige, event, gain_gold, pay_gold, players_of, roll
from .steps import decide, push_front

# Special Action cards usable in each ER window (their "ER:" text).
WINDOW_CARDS = {
    "income": ("sondersteuer", "messe", "pest", "steuerpacht"),
    "prestige": ("reichstag", "ablass", "turnier"),
    "coronation": ("bestechung",),
    "order": ("landfrieden",),
}


def empty_effects():
    return {"sondersteuer": [], "messe": [], "steuerpacht": [], "reichstag": [],
            "bestechung": None, "landfrieden": []}


def er_steps(d):
    """The queue of an ordinary evaluation round."""
    opts = d["options"]
    steps = []
    if opts["marriage_end"] == "last_action_round":
        steps.append(["marriages_end"])
    steps += [["discard_turn", s] for s in d["order"]]
    steps += [["window", "income"], ["income"]]
    if opts["rules"] == "expert":
        steps.append(["trade"])
    steps += [["window", "prestige"], ["prestige"]]
    if opts["marriage_end"] == "prestige_phase":
        steps.append(["marriages_end"])
    if ROWS[d["row"]]["coronation"]:
        steps += [["window", "coronation"], ["coronation"]]
    steps += [["window", "order"], ["order"], ["epoch"]]
    return steps


# --- phase 1: cards --------------------------------------------------------

def discard_limits(d, seat):
    """``(must, may)``: cards ``seat`` must / may still discard this phase.

    Expert rule: only one card, beyond the cards over 5 (keep at least 4).
    """
    hand = len(d["players"][seat]["hand"])
    must = max(0, hand - HAND_SIZE)
    if d["options"]["rules"] == "expert" and d["options"]["discard_limit"] == "one_card":
        start = d["decision"]["hand_start"]
        allowed = min(start, max(1, start - (HAND_SIZE - 1)))
        return must, max(0, allowed - d["decision"]["discarded"])
    return must, hand


def _discard_turn(d, events, seat):
    push_front(d, ["refill", seat])
    if d["players"][seat]["hand"]:
        decide(d, "discard", [seat], discarded=0, hand_start=len(d["players"][seat]["hand"]))


def _refill(d, events, seat):
    need = HAND_SIZE - len(d["players"][seat]["hand"])
    if need > 0:
        draw_cards(d, seat, need, events)


# --- special action windows --------------------------------------------------

def window_cards(d, seat, window):
    """Cards in ``seat``'s hand usable in this ER window now."""
    if seat in d["er_used"]:
        return []
    p = d["players"][seat]
    out = []
    for card in p["hand"]:
        effect = CARDS[card].get("effect")
        if CARDS[card]["kind"] != "special" or effect not in WINDOW_CARDS[window]:
            continue
        if effect == "ablass" and p["gold"] < 5:
            continue
        if effect == "bestechung" and (p["gold"] < 10 or d["interregnum"] or d["er_effects"]["bestechung"] is not None):
            continue
        out.append(card)
    return out


def _window(d, events, window):
    push_front(d, *[["ask_special", window, s] for s in d["order"] if window_cards(d, s, window)])


def _ask_special(d, events, window, seat):
    if window_cards(d, seat, window):
        decide(d, "er_special", [seat], window=window)


# --- phase 2: income -----------------------------------------------------------

def income_of(d, seat):
    """Estate value (3 or its reduction) + Citizens + Cities + Principalities."""
    fx = d["er_effects"]
    total = 0
    for _, _, e in iter_estates(d, seat):
        total += e["strength"]
        total += e["citizens"] * (2 if seat in fx["sondersteuer"] else 1)
        if e["city"]:
            total += 2 if seat in fx["messe"] else 1
    return total + len(principalities_of(d, seat))


def _income(d, events):
    for seat in d["order"]:
        gain_gold(d, seat, income_of(d, seat), events, "income")
    for seat in d["er_effects"]["steuerpacht"]:
        for other in d["order"]:
            if other != seat and d["players"][other]["gold"] >= 1:
                pay_gold(d, other, 1, events, "steuerpacht")
                gain_gold(d, seat, 1, events, "steuerpacht")
    # Estates heal: reduction tokens go back after the payout (ruling 8).
    for _, _, e in iter_estates(d):
        e["strength"] = 3


# --- phase 4: prestige -------------------------------------------------------

def category_counts(d, seat):
    estates, citizens, cities = totals(d, seat)
    return {"estates": estates, "citizens": citizens, "cities": cities,
            "principalities": len(principalities_of(d, seat))}


def _prestige(d, events):
    counts = {s: category_counts(d, s) for s in players_of(d)}
    spared = set(d["er_effects"]["reichstag"])
    for cat in ("estates", "citizens", "cities", "principalities"):
        values = {s: c[cat] for s, c in counts.items()}
        hi, lo = max(values.values()), min(values.values())
        if hi == lo:
            continue
        for seat in d["order"]:
            if values[seat] == hi:
                change_prestige(d, seat, 1, events, "most_" + cat)
            elif values[seat] == lo:
                if seat in spared:
                    spared.discard(seat)
                    event(events, "penalty_ignored", seat, category=cat, reason="reichstag")
                    continue
                change_prestige(d, seat, -1, events, "fewest_" + cat)


def _marriages_end(d, events):
    for seat in players_of(d):
        p = d["players"][seat]
        p["married_this_epoch"] = False
        if p["marriage"] is not None:
            d["discard"].append(p["marriage"]["card"])
            event(events, "marriage_ended", seat, card=p["marriage"]["card"], reason="epoch_end")
            p["marriage"] = None
    settle_holdings(d, events)


# --- phase 5: coronation -------------------------------------------------------

def _coronation(d, events):
    if d["king"] is not None:
        event(events, "crown_lost", d["king"], role="king", reason="reign_over")
        d["king"] = None
        d["soldiers"]["king"] = 0
    if d["anti_king"] is not None and d.get("anti_king_row") != d["row"]:
        event(events, "crown_lost", d["anti_king"], role="anti_king", reason="reign_over")
        d["anti_king"] = None
        d["soldiers"]["anti_king"] = 0
    if d["interregnum"]:
        event(events, "coronation_skipped", reason="interregnum")
        end_crowns(d, events, "interregnum")
    else:
        briber = d["er_effects"]["bestechung"]
        if briber is not None:
            pay_gold(d, briber, 10, events, "bestechung")
        elect_king(d, events, bribed_by=briber)
        if d["anti_king"] == d["king"]:
            d["anti_king"] = None
            d["soldiers"]["anti_king"] = 0
    d["crowned"] = True


# --- phase 6: turn order -------------------------------------------------------

def _order(d, events):
    d["new_order"] = [None] * d["num_players"]
    choosers = [s for s in (d["king"], d["anti_king"]) if s is not None]
    choosers += [s for s in d["order"] if s in d["er_effects"]["landfrieden"] and s not in choosers]
    push_front(d, *[["position", s] for s in choosers], ["order_rest"])


def _position(d, events, seat):
    decide(d, "position", [seat])


def _order_rest(d, events):
    placed = set(s for s in d["new_order"] if s is not None)
    rest = [s for s in d["order"] if s not in placed]
    rest.sort(key=lambda s: -d["players"][s]["prestige"])
    ranked = []
    i = 0
    while i < len(rest):
        group = [s for s in rest if d["players"][s]["prestige"] == d["players"][rest[i]]["prestige"]]
        ranked += _order_ties(d, group, events)
        i += len(group)
    free = [i for i, s in enumerate(d["new_order"]) if s is None]
    for pos, seat in zip(free, ranked):
        d["new_order"][pos] = seat
    d["order"] = d["new_order"]
    d["new_order"] = None
    event(events, "turn_order", order=list(d["order"]))


def _order_ties(d, group, events):
    """Dice decide the order of players tied on prestige (highest first)."""
    if len(group) == 1:
        return group
    dice = roll(d, len(group), events, "turn_order_tie")
    best = max(dice)
    top = [s for s, v in zip(group, dice) if v == best]
    if len(top) > 1:
        top = _order_ties(d, top, events)
    return top + _order_ties(d, [s for s in group if s not in top], events) if len(top) < len(group) else top


# --- the end -----------------------------------------------------------------------

def victory_points(d, seat):
    estates, citizens, cities = totals(d, seat)
    p = d["players"][seat]
    return (estates + citizens // 2 + cities + len(principalities_of(d, seat))
            + p["gold"] // 10 + p["prestige"])


def _final(d, events):
    scores = {s: victory_points(d, s) for s in players_of(d)}
    # Tie-break (ruling 12): more Prestige, then more gold.
    key = {s: (scores[s], d["players"][s]["prestige"], d["players"][s]["gold"]) for s in scores}
    best = max(key.values())
    winners = [s for s in scores if key[s] == best]
    d["result"] = {"winners": winners, "reason": "final_evaluation",
                   "scores": {str(s): v for s, v in scores.items()}}
    d["phase"] = "over"
    d["decision"] = None
    event(events, "game_over", winners=winners, scores=d["result"]["scores"])


STEPS = {
    "discard_turn": _discard_turn,
    "refill": _refill,
    "window": _window,
    "ask_special": _ask_special,
    "income": _income,
    "prestige": _prestige,
    "marriages_end": _marriages_end,
    "coronation": _coronation,
    "order": _order,
    "position": _position,
    "order_rest": _order_rest,
    "final": _final,
}
