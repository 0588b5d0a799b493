"""What a card in hand is worth to its holder (discards, open-card swaps, offers)."""

from ...games.anno1452.board import can_build_city, iter_estates, meets
from ...games.anno1452.data import CARDS, REGION_INDEX

DRAW = 0.8  # expected worth of a fresh card from the deck
_SPECIAL = 0.9
_REACTION = 0.7
_PLAYABLE = 1.6  # a Marriage/Title/Inheritance whose requirement is met now
_UNPLAYABLE = 0.5
_CITY_USE = 0.5  # it can still become a City where the holder has an Estate


def _city_use(d, seat, region):
    r = REGION_INDEX[region]
    return any(rr == r and can_build_city(d, seat, rr, s) for rr, s, _ in iter_estates(d, seat))


def card_value(d, seat, card):
    info = CARDS[card]
    kind = info["kind"]
    if kind == "special":
        return _SPECIAL
    if kind == "reaction":
        return _REACTION
    if kind == "event":
        return 0.0
    req = info.get("requirement")
    worth = _PLAYABLE if req is None or meets(d, seat, req) else _UNPLAYABLE
    if kind == "title" and card in d["players"][seat]["titles"]:
        worth = 0.0
    if _city_use(d, seat, info["region"]):
        worth += _CITY_USE
    return worth
