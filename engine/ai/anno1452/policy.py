"""The strategic policy of ``easy`` and ``medium``: one-step greedy on the value.

Turn actions with a known result (build, settle, City, marriage, title,
inheritance, most Special Actions, Kindbett, initial Estates) are applied to
a copy of the (sampled) state and the position scored with
``relative_value``; the copy's step queue is emptied first so only the
action's own effect counts. Attacks are scored from the battle odds
(``battle_odds``), ER Special Actions whose effect comes later get the gold
it is expected to bring, and the other decisions (battle, cards, trade)
have rules of thumb in ``decisions``.
"""

from ...errors import EngineError
from ...games.anno1452.board import totals
from ...games.anno1452.data import BORDERS, CARDS, MAX_ESTATES, REGION_INDEX
from ..levels import greedy
from .battle_odds import stake, win_chance
from .decisions import RULES
from .evaluate import GOLD, relative_value

_ATTACK_EFFECTS = ("soeldner", "fehde")
_MERCENARIES = 3
_PASS_EDGE = 0.01       # passing beats actions that change nothing
_RISK = 0.8             # the odds are rough: an attack must promise clearly more


def _effect(action):
    card = action.get("card")
    return CARDS[card].get("effect") if card is not None else None


def _attack_score(d, seat, action, base):
    effect = _effect(action) if action["type"] == "play_special" else None
    extra = _MERCENARIES if effect == "soeldner" else 0
    target, origin = action["target"], action.get("from")
    if origin is None and d["king"] == seat:
        extra += d["soldiers"]["king"]
    elif origin is None and d["anti_king"] == seat:
        extra += d["soldiers"]["anti_king"]
    p = win_chance(d, origin, target, extra)
    defender_stake = stake(d, target)
    gain = 1.0 + defender_stake + 1.0        # the Estate, what the loser loses, +1 prestige
    loss = stake(d, origin) + 1.0
    declaration = 0.0 if effect == "fehde" else 1.0
    card = 0.9 if effect else 0.0
    return base + p * gain - (1 - p) * loss - declaration - card - _RISK


def _deferred_bonus(d, seat, action):
    """ER effects applied later in the ER: the gold they should bring."""
    effect = _effect(action)
    if d["decision"]["kind"] != "er_special" and effect not in ("steuerpacht", "sondersteuer", "messe"):
        return 0.0
    _, citizens, cities = totals(d, seat)
    others = d["num_players"] - 1
    return {"sondersteuer": citizens * GOLD, "messe": cities * GOLD, "steuerpacht": others * 2 * GOLD * 1.5,
            "reichstag": 0.6, "landfrieden": 0.4,
            # the crown it buys is in the value; the 10 gold are paid at the coronation
            "bestechung": -10 * GOLD}.get(effect, 0.0)


def _setup_bonus(action):
    r = REGION_INDEX[action["region"]]
    return 0.08 * MAX_ESTATES[r] + 0.03 * len(BORDERS[r])


def _applied_score(game, quiet, seat, action):
    try:
        after, _ = game.apply(quiet, seat, action)
    except EngineError:  # a sampled world may refuse what the real one allows (hidden counters)
        return None
    return relative_value(after.data, seat)


def _exposure(d, seat):
    """Per region: opponents' Estates there or next door (Citizens defend)."""
    foreign = [0] * len(BORDERS)
    for r, region in enumerate(d["regions"]):
        for e in region["slots"]:
            if e is not None and e["owner"] != seat:
                foreign[r] += 1
    return [foreign[r] + sum(foreign[b] for b in BORDERS[r]) for r in range(len(BORDERS))]


def settle_representatives(d, seat, actions):
    """For each Citizen count, the index of the settle that best guards exposed Estates.

    Where Citizens stand changes no score term but defence (majorities count
    Estates only), so one placement per count is applied and the others
    follow it; this keeps the medium player fast (settles run into hundreds).
    """
    exposure = _exposure(d, seat)
    best = {}
    for i, a in enumerate(actions):
        if a["type"] != "settle":
            continue
        spots = settle_spots(a)
        key = sum(exposure[r] for r, _ in spots)
        if len(spots) not in best or key > best[len(spots)][0]:
            best[len(spots)] = (key, i)
    return {i: n for n, (_, i) in best.items()}


def score_actions(game, state, seat, actions):
    """``[(score, index)]`` for every action, higher is better."""
    scored, rep_scores = _score_distinct(game, state, seat, actions)
    return [(rep_scores[len(settle_spots(actions[i]))] - 0.01 if s is None else s, i) for s, i in scored]


def distinct_scores(game, state, seat, actions):
    """``score_actions`` without the settles that only differ from their
    Citizen count's representative in where the Citizens stand: the search's
    candidates, which would otherwise be one settle in several places."""
    scored, _ = _score_distinct(game, state, seat, actions)
    return [(s, i) for s, i in scored if s is not None]


def _score_distinct(game, state, seat, actions):
    """``([(score or None, index)], {citizen count: representative's score})``:
    None for a settle that follows its count's representative."""
    quiet = state.clone()
    quiet.data["queue"] = []
    d = quiet.data
    base = relative_value(d, seat)
    kind = d["decision"]["kind"]
    if kind in RULES:
        return RULES[kind](d, seat, actions, base), {}
    reps = settle_representatives(d, seat, actions)
    rep_scores = {}
    out = []
    for i, action in enumerate(actions):
        kind = action["type"]
        if kind == "settle" and i not in reps:
            out.append((None, i))
            continue
        if kind == "pass":
            score = base + _PASS_EDGE
        elif kind == "attack" or _effect(action) in _ATTACK_EFFECTS:
            score = _attack_score(d, seat, action, base)
        else:
            score = _applied_score(game, quiet, seat, action)
            score = base - 1.0 if score is None else score + _deferred_bonus(d, seat, action)
            if kind == "place_estate":
                score += _setup_bonus(action)
            if i in reps:
                rep_scores[reps[i]] = score
        out.append((score, i))
    return out, rep_scores


def settle_spots(settle):
    """Where a settle's Citizens go, one spot per Citizen."""
    return [settle[k] for k in ("at", "at2", "at3") if settle.get(k) is not None]


# The best-scoring action; easy adds noise (``levels.greedy``).
greedy_choice = greedy(score_actions)


__all__ = ["greedy_choice", "score_actions"]
