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

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import EngineError
from ...games.anno1452.actions_special import MERCENARIES
from ...games.anno1452.board import totals
from ...games.anno1452.data import BORDERS, CARDS, MAX_ESTATES, REGION_INDEX
from ..levels import greedy
from .battle_odds import stake, win_chance
from .decisions import RULES
from .evaluate import GOLD, relative_value

if TYPE_CHECKING:
    from typing import Any

    from ...core import Action, Game


_ATTACK_EFFECTS = ("soeldner", "fehde")
_PASS_EDGE = 0.01  # passing beats actions that change nothing
_RISK = 0.8  # the odds are rough: an attack must promise clearly more


def _effect(action: Action):
    card = action.get("card")
    return CARDS[card].get("effect") if card is not None else None


def _attack_score(d, seat, action: Action, base):
    effect = _effect(action) if action["type"] == "play_special" else None
    extra = MERCENARIES if effect == "soeldner" else 0
    target, origin = action["target"], action.get("from")
    if origin is None and d["king"] == seat:
        extra += d["soldiers"]["king"]
    elif origin is None and d["anti_king"] == seat:
        extra += d["soldiers"]["anti_king"]
    p = win_chance(d, origin, target, extra)
    defender_stake = stake(d, target)
    gain = 1.0 + defender_stake + 1.0  # the Estate, what the loser loses, +1 prestige
    loss = stake(d, origin) + 1.0
    declaration = 0.0 if effect == "fehde" else 1.0
    card = 0.9 if effect else 0.0
    return base + p * gain - (1 - p) * loss - declaration - card - _RISK


def _deferred_bonus(d, seat, action: Action):
    """ER effects applied later in the ER: the gold they should bring."""
    effect = _effect(action)
    if d["decision"]["kind"] != "er_special" and effect not in ("steuerpacht", "sondersteuer", "messe"):
        return 0.0
    _, citizens, cities = totals(d, seat)
    others = d["num_players"] - 1
    return {
        "sondersteuer": citizens * GOLD,
        "messe": cities * GOLD,
        "steuerpacht": others * 2 * GOLD * 1.5,
        "reichstag": 0.6,
        "landfrieden": 0.4,
        # the crown it buys is in the value; the 10 gold are paid at the coronation
        "bestechung": -10 * GOLD,
    }.get(effect, 0.0)


def _setup_bonus(action: Action):
    r = REGION_INDEX[action["region"]]
    return 0.08 * MAX_ESTATES[r] + 0.03 * len(BORDERS[r])


def _applied_score(game: Game[Any], quiet, seat, action: Action):
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


def settle_groups(d, seat, actions: list[Action]):
    """``({index: Citizen count}, {index: Citizen count})``: for each count the
    settle that best guards exposed Estates (its representative), and every
    other settle (its followers).

    Where Citizens stand changes no score term but defence (majorities count
    Estates only), so one placement per count is applied and the others
    follow it; this keeps the medium player fast (settles run into hundreds).
    """
    exposure = _exposure(d, seat)
    best: dict[Any, tuple[Any, int]] = {}  # count -> (exposure guarded, index)
    count_of = {}  # index -> count, every settle
    for i, a in enumerate(actions):
        if a["type"] != "settle":
            continue
        # Spelled out rather than through ``settle_spots``: settles run into
        # hundreds, and this loop was a fifth of a decision's time.
        at2, at3 = a.get("at2"), a.get("at3")
        n, key = 1, exposure[a["at"][0]]
        if at2 is not None:
            n, key = 2, key + exposure[at2[0]]
        if at3 is not None:
            n, key = n + 1, key + exposure[at3[0]]
        count_of[i] = n
        if n not in best or key > best[n][0]:
            best[n] = (key, i)
    reps = {i: n for n, (_, i) in best.items()}
    return reps, {i: n for i, n in count_of.items() if i not in reps}


def score_actions(game: Game[Any], state, seat, actions: list[Action]):
    """``[(score, index)]`` for every action, higher is better."""
    scores, _ = _score_all(game, state, seat, actions)
    return list(zip(scores, range(len(actions))))


def distinct_scores(game: Game[Any], state, seat, actions: list[Action]):
    """``score_actions`` without the settles that only differ from their
    Citizen count's representative in where the Citizens stand: the search's
    candidates, which would otherwise be one settle in several places."""
    scores, followers = _score_all(game, state, seat, actions)
    return [(s, i) for i, s in enumerate(scores) if i not in followers]


def _score_all(game: Game[Any], state, seat, actions: list[Action]):
    """``(score of each action, {follower's index: Citizen count})``: a settle
    that follows its count's representative scores a little below it."""
    quiet = state.clone()
    quiet.data["queue"] = []
    quiet = quiet.frozen()  # every applied action clones it
    d = quiet.data
    base = relative_value(d, seat)
    kind = d["decision"]["kind"]
    if kind in RULES:
        return [s for s, _ in sorted(RULES[kind](d, seat, actions, base), key=lambda si: si[1])], {}
    reps, followers = settle_groups(d, seat, actions)
    rep_scores: dict[Any, Any] = {}
    scores = [None] * len(actions)
    for i, action in enumerate(actions):
        if i not in followers:
            scores[i] = _score_one(game, quiet, base, seat, action)
            if i in reps:
                rep_scores[reps[i]] = scores[i]
    for i, n in followers.items():
        scores[i] = rep_scores[n] - 0.01
    return scores, followers


def _score_one(game: Game[Any], quiet, base, seat, action: Action):
    """One action's score: from the odds (attacks), or applied to ``quiet``."""
    d, kind = quiet.data, action["type"]
    if kind == "pass":
        return base + _PASS_EDGE
    if kind == "attack" or _effect(action) in _ATTACK_EFFECTS:
        return _attack_score(d, seat, action, base)
    score = _applied_score(game, quiet, seat, action)
    score = base - 1.0 if score is None else score + _deferred_bonus(d, seat, action)
    if kind == "place_estate":
        score += _setup_bonus(action)
    return score


def settle_spots(settle):
    """Where a settle's Citizens go, one spot per Citizen."""
    return [settle[k] for k in ("at", "at2", "at3") if settle.get(k) is not None]


# The best-scoring action; easy adds noise (``levels.greedy``).
greedy_choice = greedy(score_actions)


__all__ = ["greedy_choice", "score_actions"]
