"""An environment agent on a live match: the same observation and action
index space offline and online, through the client library (tabula_client).

    .venv/bin/python -m examples.env.live_agent --url http://127.0.0.1:8000 \
        --variant anno1452-basic-ottokar_a-2p --option end_year=1314 --level easy

It creates a match (seat 0 for the agent, the built-in AI on the others),
then on every event: when seat 0 has a decision, it builds the observation
from the match's ``view`` (what ``GET /v1/matches/{id}`` shows that seat)
and the action mask from ``GET /v1/matches/{id}/actions``, asks the policy
for an index, and posts ``codec.decode(index)``: the action JSON, unchanged.
A trained agent replaces ``random_policy`` (any ``obs -> index``).
"""

import argparse

import numpy as np

import tabula_env
from tabula_client import Client, Conflict
from tabula_env.observations import encoder_for


def random_policy(rng):
    """A stand-in for a trained agent: uniform among the unmasked indices."""
    return lambda obs: int(rng.choice(np.flatnonzero(obs["action_mask"])))


def live_observation(variant, match, legal_actions):
    """The environment's observation, built from the API's answers."""
    encoder = encoder_for(tabula_env.get_variant(variant))
    seat = match["you"]
    return {
        "observation": encoder.flatten(encoder.encode_view(match["view"], seat)),
        "action_mask": tabula_env.codec_for(variant).mask(legal_actions),
    }


def play(me, match_id, variant, policy):
    """Play the token's seat of ``match_id`` with ``policy`` to the end;
    returns the finished match and the actions posted."""
    codec = tabula_env.codec_for(variant)
    posted = []
    # The Match first (the agent may be first to play), then every event once.
    for item in me.events(match_id, matches=True):
        if item["body"].get("type") == "game_over" or item["body"].get("status") == "finished":
            break
        match = me.get_match(match_id)
        if match["status"] == "finished":
            break
        if match["you"] not in match["to_act"]:
            continue
        legal = me.list_actions(match_id)
        if legal["version"] != match["version"] or not legal["actions"]:
            continue  # it moved on meanwhile: the next event tells
        action = codec.decode(policy(live_observation(variant, match, legal["actions"])))
        try:
            me.post_action(match_id, action, version=legal["version"])
            posted.append(action)
        except Conflict:  # stale: the next event tells what happened
            pass
    return me.get_match(match_id), posted


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument(
        "--variant", default="anno1452-basic-ottokar_a-2p", choices=sorted(tabula_env.VARIANTS)
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an extra game option, e.g. end_year=1314 (integers as integers)",
    )
    parser.add_argument("--level", default="easy", help="the AI level of the other seats")
    parser.add_argument("--seed", type=int, default=0, help="the agent's own random generator")
    parser.add_argument("--svg", help="write the final board (seat 0's board.svg) here")
    args = parser.parse_args(argv)
    variant = tabula_env.get_variant(args.variant)
    options = dict(variant.options)
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = int(value) if value.lstrip("-").isdigit() else value
    seats = [{"kind": "human", "name": "env-agent"}] + [{"kind": "ai", "level": args.level}] * (
        variant.num_players - 1
    )
    with Client(args.url) as api:
        created = api.create_match(variant.game, seats, options=options)
        me = api.with_token(created["tokens"]["0"])
        match, posted = play(
            me, created["match"]["id"], variant.name, random_policy(np.random.default_rng(args.seed))
        )
        print(
            f"match {match['id']}: {match['status']}, {len(posted)} actions posted by the agent, "
            f"result {match['result']}"
        )
        if args.svg:
            with open(args.svg, "w", encoding="utf-8") as out:
                out.write(me.get_board(match["id"])["svg"])


if __name__ == "__main__":
    main()
