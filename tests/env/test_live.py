"""An environment agent on a live match (examples/env/live_agent.py): a real
gunicorn, a real RQ worker for the AI seat, a private redis-server, and the
client library. The agent's decoded actions are accepted unchanged, the
match ends, and the server's replay re-runs through the engine; the
server's board.svg is the environment's render for that seat's view."""

import numpy as np
import pytest

import engine
from engine.render import board_svg
from engine.runner import replay
from examples.env.live_agent import live_observation, play, random_policy
from tabula_client import Client
from tabula_env.match import Match
from tests.service.live import served_with_a_worker

# Left out by `make test-fast` (-m "not slow"): starts a whole stack.
pytestmark = pytest.mark.slow

VARIANT = "anno1452-basic-ottokar_a-2p"


@pytest.fixture(scope="module")
def server_url(redis_url, tmp_path_factory):
    with served_with_a_worker(redis_url, tmp_path_factory.mktemp("env-live")) as url:
        yield url


def test_an_env_agent_plays_a_live_match_through_the_client(server_url):
    with Client(server_url, timeout=30.0) as api:
        created = api.create_match(
            "anno1452",
            [{"kind": "human", "name": "agent"}, {"kind": "ai", "level": "easy"}],
            options={"scenario": "ottokar_a", "end_year": 1314},
        )
        me = api.with_token(created["tokens"]["0"])
        match_id = created["match"]["id"]
        match, posted = play(me, match_id, VARIANT, random_policy(np.random.default_rng(1)))

        assert match["status"] == "finished" and match["result"]["winners"]
        record = me.get_replay(match_id)
        ours = [r["action"] for r in record["actions"] if r["seat"] == 0]
        assert posted and ours == posted  # every decoded action was taken, unchanged
        game = engine.get_game("anno1452")
        state, _ = replay(
            game, 2, record["options"], record["seed"], [(r["seat"], r["action"]) for r in record["actions"]]
        )
        assert game.outcome(state)["winners"] == match["result"]["winners"]
        assert me.get_board(match_id)["svg"] == board_svg(match["view"], 0)
        # The observation built from the API's view is the environment's own.
        offline = Match(VARIANT, {"end_year": 1314})
        offline.load(state, [])
        assert np.array_equal(live_observation(VARIANT, match, [])["observation"], offline.observation(0))
