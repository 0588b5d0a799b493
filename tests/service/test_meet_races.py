"""Races against a real gunicorn (two processes, threads each) and two
workers (whose wave threads compete for each pool's lock), on one
redis-server: racing accepts and cancels start at most one match per
challenge; many concurrent seekers, some cancelling as the waves run, land
each in one match at most, and a seek whose cancel was answered 200 in
none."""

import json
import random
import threading
import time

import pytest
import redis

from launcher.redis_process import RedisProcess

from .live import LiveServer, RqWorker

POOL = "anno1452-basic"


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    logs = tmp_path_factory.mktemp("meet-races")
    env = {"SIGNUP_RATE_LIMIT": "0", "CHALLENGE_RATE_LIMIT": "0"}
    with (
        RedisProcess() as redis_server,
        RqWorker(redis_server.url, log=logs / "worker1.log"),
        RqWorker(redis_server.url, log=logs / "worker2.log"),
        LiveServer(redis_server.url, env=env, workers=2, threads=8, log=logs / "gunicorn.log") as live,
    ):
        yield live, redis.Redis.from_url(redis_server.url)


def call(live, method, path, token=None, body=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    status, _, raw = live.request(method, path, body, headers)
    return status, json.loads(raw) if raw else None


def accounts(live, prefix, n):
    tokens = {}
    for i in range(n):
        status, body = call(live, "POST", "/v1/accounts", body={"name": f"{prefix}{i}", "kind": "bot"})
        assert status == 201, body
        tokens[f"{prefix}{i}"] = body["token"]
    return tokens


def match_ids(client):
    """Every match stored (its hash ``match:{<id>}``)."""
    return {key.decode()[7:-1] for key in client.scan_iter("match:{*}") if key.decode().endswith("}")}


def race(calls):
    barrier, answers = threading.Barrier(len(calls)), [None] * len(calls)

    def run(i):
        barrier.wait()
        answers[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def test_racing_accepts_and_cancels_start_at_most_one_match(stack):
    live, client = stack
    tokens = accounts(live, "ch", 4)
    host, invitees = tokens["ch0"], ["ch1", "ch2", "ch3"]
    before = match_ids(client)
    started = set()
    for _ in range(8):
        seats = [{"kind": "account", "name": n} for n in invitees]
        status, made = call(live, "POST", "/v1/challenges", host, {"game": "anno1452", "seats": seats})
        assert status == 201, made
        cid = made["id"]
        calls = [
            (lambda t=tokens[n], cid=cid: ("accept", *call(live, "POST", f"/v1/challenges/{cid}/accept", t)))
            for n in invitees
            for _ in range(3)
        ]
        calls += [
            (lambda cid=cid: ("cancel", *call(live, "DELETE", f"/v1/challenges/{cid}", host)))
            for _ in range(3)
        ]
        random.shuffle(calls)
        tagged = race(calls)
        answers = [(status, body) for _, status, body in tagged]
        cancels = [body for what, status, body in tagged if what == "cancel" and status == 200]
        assert all(status in (200, 409) for status, _ in answers), answers
        _, final = call(live, "GET", f"/v1/challenges/{cid}", host)
        assert final["status"] in ("started", "cancelled"), final
        if final["status"] == "started":
            assert not cancels
            started.add(cid)
        else:
            assert len(cancels) == 1 and final["match_id"] is None
    assert match_ids(client) - before == started
    print(f"{len(started)} of 8 challenges started, {8 - len(started)} cancelled")


def _could_sit(waiting, counts):
    """Whether some table fits among ``waiting`` (equal ratings: only the counts matter)."""
    return any(sum(n in counts[w] for w in waiting) >= n for n in (2, 3, 4))


def test_many_concurrent_seekers_land_in_one_match_each_and_cancelled_never(stack):
    live, _ = stack
    tokens = accounts(live, "sk", 48)
    names = list(tokens)
    rng = random.Random(5)
    counts = {n: rng.choice([[2], [2, 3], [3, 4], [2, 3, 4]]) for n in names}
    seeks = dict(
        zip(
            names,
            race(
                [
                    (
                        lambda n=n: call(
                            live, "POST", "/v1/seeks", tokens[n], {"pool": POOL, "counts": counts[n]}
                        )
                    )
                    for n in names
                ]
            ),
        )
    )
    assert all(status == 201 for status, _ in seeks.values())
    quitters = names[::4]
    cancels = dict(
        zip(
            quitters,
            race(
                [
                    (lambda n=n: call(live, "DELETE", f"/v1/seeks/{seeks[n][1]['id']}", tokens[n]))
                    for n in quitters
                ]
            ),
        )
    )
    cancelled = {n for n, (status, _) in cancels.items() if status == 200}
    deadline = time.monotonic() + 30
    while True:
        states = {n: call(live, "GET", "/v1/seeks", tokens[n])[1][0] for n in names}
        waiting = [n for n, s in states.items() if s["status"] == "waiting"]
        if not _could_sit(waiting, counts) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert not _could_sit(waiting, counts), waiting  # those left wait for players they accept
    tables = {}
    for n, state in states.items():
        if n in cancelled:
            assert state["status"] == "cancelled" and state["match_id"] is None, (n, state)
        elif state["status"] == "matched":
            tables.setdefault(state["match_id"], []).append((n, state["seat"]))
    seated = []
    for match_id, members in tables.items():
        _, match = call(live, "GET", f"/v1/matches/{match_id}")
        holders = {s["account"]["name"]: s["seat"] for s in match["seats"] if s.get("account")}
        assert holders == dict(members), (match_id, holders, members)
        assert all(len(match["seats"]) in counts[n] for n, _ in members)
        seated += [n for n, _ in members]
    assert len(seated) == len(set(seated))
    assert not set(seated) & cancelled
    assert len(seated) == len(names) - len(cancelled) - len(waiting)
