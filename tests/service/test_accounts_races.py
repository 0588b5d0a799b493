"""Racing account requests against a real gunicorn (two processes, threads
each) on one redis-server: one name, one winner; one app user, one account."""

import json
import threading

import pytest
import redis

from launcher.redis_process import RedisProcess

from .live import LiveServer

RACERS = 12


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    logs = tmp_path_factory.mktemp("accounts-races")
    env = {"TABULA_APP_KEYS": "app1=secret-one", "SIGNUP_RATE_LIMIT": "0"}
    with (
        RedisProcess() as redis_server,
        LiveServer(redis_server.url, env=env, workers=2, threads=8, log=logs / "gunicorn.log") as live,
    ):
        yield live, redis_server.url


def _race(call):
    """``call()`` from RACERS threads released at once; their answers."""
    barrier, answers = threading.Barrier(RACERS), []

    def run():
        barrier.wait()
        status, _, body = call()
        answers.append((status, json.loads(body)))

    threads = [threading.Thread(target=run) for _ in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(answers) == RACERS
    return answers


@pytest.mark.parametrize("spellings", [["Ada"], ["Ada", "ada", "ADA", "\uff21\uff44\uff41"]])
def test_racing_sign_ups_of_one_name_have_one_winner(server, spellings):
    live, url = server
    redis.Redis.from_url(url).flushdb()
    turn = iter(range(RACERS))

    def call():
        name = spellings[next(turn) % len(spellings)]
        return live.request("POST", "/v1/accounts", {"name": name, "kind": "human"})

    statuses = sorted(status for status, _ in _race(call))
    assert statuses == [201] + [409] * (RACERS - 1)


def test_racing_app_calls_for_one_user_make_one_account(server):
    live, url = server
    redis.Redis.from_url(url).flushdb()
    headers = {"Authorization": "Bearer secret-one"}
    answers = _race(
        lambda: live.request("PUT", "/v1/apps/accounts/u-1", {"name": "Cy", "kind": "bot"}, headers=headers)
    )
    assert sorted(status for status, _ in answers) == [200] * (RACERS - 1) + [201]
    assert len({body["account"]["id"] for _, body in answers}) == 1
    assert len({body["token"] for _, body in answers}) == RACERS
