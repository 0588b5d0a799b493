"""A starter bot for Tabula: copy this file, change ``score``, play.

    python examples/bots/starter.py --game anno1503 --vs easy          # against the AI
    python examples/bots/starter.py --match MATCH --join               # an open seat
    tabula play MATCH --token TOKEN --bot examples.bots.starter:choose

On its turns it looks one move ahead on its OWN VIEW: it plays each legal action on a few
states sampled from it (``engine.ai.sample_state``), keeping the best (``engine.ai.evaluate``).
"""

import argparse
import contextlib
import itertools
import json
import os

import engine
from tabula_client import Client, Conflict

WORLDS = 3  # sampled states per decision: more is steadier and slower
compact = json.JSONEncoder(separators=(",", ":")).encode  # one short line of JSON


def score(game, worlds, seat, action):
    """The action's mean value over the sampled worlds: edit this to change the bot."""
    values = []
    for world in worlds:
        with contextlib.suppress(engine.EngineError):  # illegal here: a hidden part guessed wrong
            values.append(engine.ai.evaluate(game, game.apply(world, seat, action)[0], seat))
    return sum(values) / len(values) if values else float("-inf")


def choose(match, actions):
    """Our move: one of ``actions`` for ``match`` as our seat sees it (as ``tabula play --bot``)."""
    game, seat, view = engine.get_game(match["game"]), match["you"], match["view"]
    seeds = range(match["version"] * WORLDS, (match["version"] + 1) * WORLDS)  # reproducible
    worlds = [w for w in (engine.ai.sample_state(game, view, seat, s) for s in seeds) if w is not None]
    if len(actions) == 1 or not worlds:
        return actions[0]  # nothing to compare, or a view the sampler cannot complete
    return max(actions, key=lambda action: score(game, worlds, seat, action))  # ties: the first


def play(me, match_id):
    """Play our seat until the match ends; returns the final Match and our move count."""
    moves, seen = 0, -1  # seen: the version of the last list of our legal actions
    # Look once now (a new match may have no event yet), then after each event:
    # events() yields each one once, in order, until the match ends.
    for event in itertools.chain([None], me.events(match_id)):
        if event is not None and event["version"] <= seen:
            continue  # that list already took this event into account
        legal = me.list_actions(match_id)  # empty unless we are to act
        if legal["status"] == "finished":
            break  # the stream would still wait a while for a rematch
        seen = legal["version"]
        match = me.get_match(match_id) if legal["actions"] else None
        if match is None or match["version"] != seen:
            continue  # not our turn, or the match moved on: the next event tells
        action = choose(match, legal["actions"])
        with contextlib.suppress(Conflict):  # refused: the match moved on, the next event tells
            match = me.post_action(match_id, action, version=seen)["match"]
            moves += 1
            print(f"v{match['version']} seat {match['you']}: {compact(action)}", flush=True)
    return me.get_match(match_id), moves


def main():
    parser = argparse.ArgumentParser(description="A one-ply lookahead bot for Tabula.")
    parser.add_argument("--url", default=os.environ.get("TABULA_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("TABULA_TOKEN"), help="our seat's token")
    parser.add_argument("--match", help="play this match: with --token, or --join an open seat")
    parser.add_argument("--join", action="store_true", help="take an open seat of --match")
    parser.add_argument("--game", default="anno1503", help="without --match: create a match")
    parser.add_argument("--vs", nargs="+", default=["easy"], help="the AI seats' levels")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    options = {k: int(v) if v.isdigit() else v for k, _, v in (o.partition("=") for o in args.option)}
    with Client(args.url) as api:
        match_id, token = args.match, args.token
        if match_id and args.join:
            token = api.join_match(match_id, name="starter")["token"]
        elif not match_id:
            seats = [{"kind": "human", "name": "starter"}] + [{"kind": "ai", "level": v} for v in args.vs]
            created = api.create_match(args.game, seats, options=options)
            match_id, token = created["match"]["id"], created["tokens"]["0"]
        elif not token:
            parser.error("--match needs --token (or TABULA_TOKEN) or --join")
        print(f"playing match {match_id} at {args.url}", flush=True)
        match, moves = play(api.with_token(token), match_id)
    print(f"{moves} moves; we are seat {match['you']}; result: {compact(match['result'])}")


if __name__ == "__main__":
    main()
