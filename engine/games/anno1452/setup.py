"""Setting up an Anno 1452 match: the options, the turn order drawn by lot,
Ottokar's pieces (2-3 players), each seat's hand and the first decision."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import Event
from ...errors import InvalidOptionsError
from ...kit import event
from . import evaluation
from .board import change_estate, place_estate, settle_holdings
from .data import (
    END_YEARS,
    HAND_SIZE,
    MAX_ESTATES,
    NUM_CARDS,
    OTTOKAR,
    OTTOKAR_ID,
    PLAYERS,
    REGION_INDEX,
    START_GOLD,
    START_PRESTIGE,
    YEARS,
)
from .deck import draw_cards
from .flow import advance
from .state import State, shuffle

if TYPE_CHECKING:
    from ...core import Event
    from .state import Data


SCENARIO_PLAYERS = {"standard": (3, 4), "ottokar_a": (2, 3), "ottokar_b": (2, 3)}
OPTIONS = {
    "rules": {
        "type": "enum",
        "default": "basic",
        "choices": ["basic", "expert"],
        "description": "basic, or expert (pre-evaluation, Trade & Agreements, one-card discard)",
    },
    "scenario": {
        "type": "enum",
        "default": "standard",
        "choices": ["standard", "ottokar_a", "ottokar_b"],
        "description": "standard (3-4 players) or the passive Ottokar with set-up A or B (2-3 players); "
        "left out with 2 players, ottokar_a",
    },
    "end_year": {
        "type": "enum",
        "default": YEARS[-1],
        "choices": list(END_YEARS),
        "description": "year of the final evaluation (never fewer than 6 epochs)",
    },
    "marriage_end": {
        "type": "enum",
        "default": "prestige_phase",
        "choices": ["prestige_phase", "last_action_round"],
        "description": "marriages end after the ER prestige phase (rules) or after the last action round (player aid)",
    },
    "discard_limit": {
        "type": "enum",
        "default": "one_card",
        "choices": ["one_card", "free"],
        "description": "expert: discard only one card in the cards phase, or freely",
    },
}


def check_options(num_players, options):
    """The options with their defaults; with 2 players the scenario defaults
    to ``ottokar_a`` (the 2-player game is Ottokar's, ruling 13). Raises
    ``InvalidOptionsError`` unless the player count and options are offered."""
    if type(num_players) is not int or not PLAYERS[0] <= num_players <= PLAYERS[1]:
        raise InvalidOptionsError(f"Anno 1452 is for {PLAYERS[0]}-{PLAYERS[1]} players", field="num_players")
    opts = {k: v["default"] for k, v in OPTIONS.items()}
    if num_players == 2:
        opts["scenario"] = "ottokar_a"  # the 2-player game is the Ottokar scenario (ruling 13)
    if type(options) is not dict and options is not None:
        raise InvalidOptionsError("options must be an object", field="options")
    for key, value in (options or {}).items():
        if key not in OPTIONS:
            raise InvalidOptionsError(f"unknown option {key!r}", field=key)
        if value not in OPTIONS[key]["choices"]:
            raise InvalidOptionsError(f"option {key} must be one of {OPTIONS[key]['choices']}", field=key)
        opts[key] = value
    lo, hi = SCENARIO_PLAYERS[opts["scenario"]]
    if not lo <= num_players <= hi:
        raise InvalidOptionsError(f"scenario {opts['scenario']} is for {lo}-{hi} players", field="scenario")
    return opts


def _new_player():
    return {
        "gold": START_GOLD,
        "prestige": START_PRESTIGE,
        "hand": [],
        "titles": [],
        "marriage": None,
        "married_this_epoch": False,
    }


def _place_ottokar(d: Data, scenario, events: list[Event]) -> None:
    for entry in OTTOKAR[scenario]:
        region = REGION_INDEX[entry["region"]]
        slots = [place_estate(d, OTTOKAR_ID, region, events, "ottokar") for _ in range(entry["estates"])]
        for index in range(entry["citizens"]):
            slot = slots[index % len(slots)]
            change_estate(d, region, slot, citizens=d["regions"][region]["slots"][slot]["citizens"] + 1)
        for index in range(entry["cities"]):
            change_estate(d, region, slots[index], city=True)


def new_state(num_players, options, seed):
    """A new match and the events of its set-up: ``(State, events)``."""
    opts = check_options(num_players, options)
    d = _initial_data(num_players, opts, seed)
    events: list[Event] = []
    shuffle(d, d["order"])
    event(events, "turn_order", order=list(d["order"]))  # drawn by lot: the table sees it
    shuffle(d, d["deck"])
    if opts["scenario"] != "standard":
        _place_ottokar(d, opts["scenario"], events)
        settle_holdings(d, events)
    for seat in d["order"]:
        draw_cards(d, seat, HAND_SIZE, events, events_act=False)
    # Initial Estates are placed in reverse turn order.
    d["queue"] = [["setup_place", seat] for seat in reversed(d["order"])]
    d["queue"].append(["pre_evaluation"] if opts["rules"] == "expert" else ["epoch"])
    advance(d, events)
    return State(d), events


def _initial_data(num_players, opts, seed):
    """The match data before anything is drawn (DESIGN.md "Dump format")."""
    return {
        "game": "anno1452",
        "rules_version": 1,
        "options": opts,
        "num_players": num_players,
        "seed": seed,
        "rng": seed,
        "row": 0,
        "ar": 0,
        "phase": "setup",
        "final_row": YEARS.index(opts["end_year"]),
        "order": list(range(num_players)),
        "turn": None,
        "queue": [],
        "decision": None,
        "result": None,
        "players": [_new_player() for _ in range(num_players)],
        "regions": [{"slots": [None] * n, "principality": None} for n in MAX_ESTATES],
        "deck": list(range(NUM_CARDS)),
        "discard": [],
        "open_cards": [],
        "initial_regions": [],
        "event_acted": False,
        "interregnum": False,
        "crowned": False,
        "king": None,
        "anti_king": None,
        "anti_king_row": None,
        "soldiers": {"king": 0, "anti_king": 0},
        "battle": None,
        "landfrieden": [],
        "pacts": [],
        "offer": None,
        "trade": None,
        "swap": None,
        "er_used": [],
        "er_effects": evaluation.empty_effects(),
        "new_order": None,
    }
