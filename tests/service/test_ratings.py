"""Ratings (docs/ratings.md): a finished rated match rates every seat once,
in its finishing order; the AI levels are rated accounts; leaderboards,
profiles and histories show it; the update is exactly once under retries,
concurrent runs and a step that fails midway."""

import json
import threading

import pytest
import redis

from service.play import finishing
from service.play.commits import Committed
from service.play.follow import after_commit
from service.ratings import skill
from service.ratings.order import finishing_places
from service.ratings.update import apply_ratings
from service.storage import ratings as stored

from .conftest import run_ai_jobs
from .helpers import bearer, new_rng, play_random, redis_contents
from .test_accounts import account_token

SHORT = {"end_year": 1314, "scenario": "ottokar_a"}
POOL = "anno1452-basic"


def finished_rated_match(client, services):
    """Ada (creator) and Bo (joined) with the random AI, both resigning (Ada
    first): the AI plays to the end. Returns the finished match."""
    ada, bo = account_token(client, "Ada"), account_token(client, "Bo")
    seats = [{"kind": "human"}, {"kind": "open"}, {"kind": "ai", "level": "random"}]
    body = {"game": "anno1452", "seats": seats, "rated": True, "options": SHORT, "turn_timeout_s": 0}
    match_id = client.post("/v1/matches", json=body, headers=bearer(ada)).json["match"]["id"]
    assert client.post(f"/v1/matches/{match_id}/join", json={}, headers=bearer(bo)).status_code == 201
    for token in (ada, bo):
        assert client.post(f"/v1/matches/{match_id}/resign", headers=bearer(token)).status_code == 200
    for _ in range(50):
        run_ai_jobs(services)
        match = client.get(f"/v1/matches/{match_id}").json
        if match["status"] == "finished":
            return match
    raise AssertionError("the AI did not finish the match")


def board(client, pool=POOL, **query):
    response = client.get(f"/v1/leaderboards/{pool}", query_string=query)
    assert response.status_code == 200, response.json
    return response.json


def test_a_finished_rated_match_rates_every_seat_in_finishing_order(client, services):
    match = finished_rated_match(client, services)
    entries = board(client)
    assert [e["name"] for e in entries] == ["ai-random", "Bo", "Ada"]  # Ada left first: lowest
    assert [e["rank"] for e in entries] == [1, 2, 3]
    assert all(e["matches"] == 1 and e["provisional"] for e in entries)
    assert [e["ai"] for e in entries] == [True, False, False]
    assert entries[0]["kind"] == "bot" and entries[1]["kind"] == "human"
    assert entries[0]["rating"] == pytest.approx(entries[0]["mu"] - 3 * entries[0]["sigma"], abs=1e-3)
    history = client.get(f"/v1/accounts/Ada/ratings/{POOL}").json
    assert history["total"] == 1 and history["rating"]["matches"] == 1
    (change,) = history["history"]
    assert change["match_id"] == match["id"] and change["place"] == 3 and change["players"] == 3
    assert change["delta"] == pytest.approx(change["rating"] - skill.conservative(25, 25 / 3), abs=1e-3)
    profile = client.get("/v1/accounts/Ada").json
    assert set(profile["ratings"]) == {POOL}
    assert profile["ratings"][POOL]["rating"] == change["rating"]
    assert client.get("/v1/accounts/ai-random").json["ratings"][POOL]["matches"] == 1


def test_the_after_commit_path_run_again_changes_nothing(client, services):
    match = finished_rated_match(client, services)
    doc = services.store.load_doc(match["id"])
    before = _snapshot(services)
    for _ in range(3):
        after_commit(services, Committed(None, doc, finished_now=True), schedule_ai=False)
        assert finishing.finish(services, doc)  # the sweep's path: every finish step again
        apply_ratings(services, doc)
    assert _snapshot(services) == before


def _snapshot(services):
    return redis_contents(services.redis, "ratings:*")


def test_concurrent_runs_apply_a_match_once(client, services):
    match = finished_rated_match(client, services)
    doc = services.store.load_doc(match["id"])
    services.redis.delete(*services.redis.scan_iter(match="ratings:*"))  # as if never rated
    threads = [threading.Thread(target=apply_ratings, args=(services, doc)) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [e["matches"] for e in board(client)] == [1, 1, 1]
    assert client.get(f"/v1/accounts/Bo/ratings/{POOL}").json["total"] == 1


# --- finished documents made by hand: the update alone ----------------------


def signed_up(client, name, kind="human"):
    response = client.post("/v1/accounts", json={"name": name, "kind": kind})
    assert response.status_code == 201, response.json
    return response.json["account"]


def finished_doc(match_id, accounts, winners=(0,), scores=None, left=None, pool=POOL):
    """A finished rated match document of ``accounts`` (``[account]`` or an AI
    level string per seat); ``left``: ``{seat: version}`` of seats handed to the AI."""
    seats = []
    for index, account in enumerate(accounts):
        if isinstance(account, str):
            seats.append({"seat": index, "kind": "ai", "level": account, "resigned": False})
        else:
            seats.append(
                {
                    "seat": index,
                    "kind": "human",
                    "level": None,
                    "account_id": account["id"],
                    "account": {"name": account["name"], "kind": account["kind"]},
                    "resigned": False,
                }
            )
    for seat in left or {}:
        seats[seat].update(kind="ai", level="medium", resigned=True)
    return {
        "id": match_id,
        "game": "anno1452",
        "options": {},
        "status": "finished",
        "version": 40,
        "to_act": [],
        "rated": True,
        "pool": pool,
        "seats": seats,
        "result": {"winners": list(winners), "scores": scores or {}},
        "left_at": {str(seat): version for seat, version in (left or {}).items()},
        "updated_at": "2026-11-29T04:00:00.000Z",
        "updated_ms": 1,
    }


@pytest.mark.parametrize(
    ("winners", "scores", "left", "places"),
    [
        ((0,), {"0": 9, "1": 7, "2": 8, "3": 1}, {}, [1, 3, 2, 4]),
        ((1,), {"0": 9, "1": 9, "2": 9, "3": 1}, {}, [2, 1, 2, 4]),  # equal scores share a place
        ((0, 2), {"0": 5, "1": 4, "2": 5, "3": 4}, {}, [1, 3, 1, 3]),  # two winners
        ((0,), {"0": 1, "1": 9, "2": 8, "3": 7}, {1: 10, 3: 4}, [1, 3, 2, 4]),  # leavers last, first lowest
        ((), {}, {0: 5, 1: 5}, [3, 3, 1, 1]),  # left at one version: one place
    ],
)
def test_finishing_places(winners, scores, left, places):
    doc = finished_doc("m", ["easy"] * 4, winners, scores, left)
    assert finishing_places(doc) == places


def test_the_leaderboard_orders_by_conservative_rating_and_filters_kinds(client, services):
    people = [signed_up(client, f"P{i}") for i in range(3)]
    bots = [signed_up(client, f"B{i}", "bot") for i in range(2)]
    players = [*people, *bots]
    for n in range(12):  # P0 always first, then P1, B0, P2, B1: the order of the table
        order = players[n % 2 :] + players[: n % 2] if n % 3 == 2 else players
        doc = finished_doc(f"m{n}", order[:4], scores={str(i): 10 - i for i in range(4)})
        apply_ratings(services, doc)
    entries = board(client, page_size=100)
    ratings = [e["rating"] for e in entries]
    assert ratings == sorted(ratings, reverse=True) and len(entries) == 5
    assert entries[0]["name"] == "P0" and [e["rank"] for e in entries] == [1, 2, 3, 4, 5]
    assert {e["name"] for e in board(client, kind="bot")} == {"B0", "B1"}
    assert {e["name"] for e in board(client, kind="human")} == {"P0", "P1", "P2"}
    established = board(client, provisional="exclude", page_size=100)
    assert established and all(not e["provisional"] and e["matches"] >= 10 for e in established)
    assert {e["name"] for e in established} < {e["name"] for e in entries}
    second = client.get(f"/v1/leaderboards/{POOL}?page=2&page_size=2")
    assert [e["rank"] for e in second.json] == [3, 4] and second.json == entries[2:4]
    assert json.loads(second.headers["X-Pagination"])["total"] == 5


def test_an_ai_level_in_several_seats_is_rated_once_per_match(client, services):
    ada = signed_up(client, "Ada")
    apply_ratings(services, finished_doc("m1", [ada, "easy", "easy"], winners=(1,)))
    (easy,) = [e for e in board(client) if e["name"] == "ai-easy"]
    assert easy["matches"] == 1
    assert client.get(f"/v1/accounts/ai-easy/ratings/{POOL}").json["history"][0]["place"] == 1


def test_two_matches_racing_on_one_account_both_apply(client, services):
    ada, bo, cy = (signed_up(client, name) for name in ("Ada", "Bo", "Cy"))
    docs = [finished_doc(f"m{i}", [ada, other]) for i, other in enumerate([bo, cy] * 5)]
    threads = [threading.Thread(target=apply_ratings, args=(services, doc)) for doc in docs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    history = client.get(f"/v1/accounts/Ada/ratings/{POOL}").json
    assert history["rating"]["matches"] == 10 and history["total"] == 10
    assert sorted(c["match_id"] for c in history["history"]) == sorted(d["id"] for d in docs)
    # Each change starts where the one before it ended: none computed from a stale read.
    ratings = [c["rating"] for c in history["history"]]
    starts = [r - c["delta"] for r, c in zip(ratings[1:], history["history"][1:])]
    assert starts == pytest.approx(ratings[:-1], abs=1e-3)


def test_a_stale_read_is_refused_without_writing(client, services):
    ada, bo = signed_up(client, "Ada"), signed_up(client, "Bo")
    first = finished_doc("m1", [ada, bo])
    from service.ratings.update import new_ratings, seat_accounts

    accounts = seat_accounts(services.redis, first)
    stale = stored.read_raw(services.redis, POOL, [ada["id"], bo["id"]])
    apply_ratings(services, finished_doc("m0", [ada, bo]))  # moves both on
    before = _snapshot(services)
    writes = new_ratings(first, accounts, finishing_places(first), stale)
    assert stored.apply(services.redis, POOL, "m1", writes) == -1
    assert _snapshot(services) == before
    apply_ratings(services, first)  # reads again: applies
    assert client.get(f"/v1/accounts/Ada/ratings/{POOL}").json["total"] == 2


def test_a_step_that_dies_before_its_write_leaves_nothing_and_runs_again(client, services, monkeypatch):
    ada, bo = signed_up(client, "Ada"), signed_up(client, "Bo")
    doc = finished_doc("m1", [ada, bo])
    real_apply = stored.apply

    def crash(*args, **kwargs):
        raise redis.ConnectionError("the process died between its read and its write")

    monkeypatch.setattr(stored, "apply", crash)
    assert not finishing.finish(services, doc)  # logged and counted, not raised: the sweep retries
    assert _snapshot(services) == {}
    monkeypatch.setattr(stored, "apply", real_apply)
    assert finishing.finish(services, doc)
    assert [e["matches"] for e in board(client)] == [1, 1]


def test_a_step_whose_answer_is_lost_after_the_write_does_not_apply_twice(client, services, monkeypatch):
    ada, bo = signed_up(client, "Ada"), signed_up(client, "Bo")
    doc = finished_doc("m1", [ada, bo])
    real_apply = stored.apply

    def lost_reply(*args, **kwargs):
        real_apply(*args, **kwargs)
        raise redis.TimeoutError("the reply was lost")

    monkeypatch.setattr(stored, "apply", lost_reply)
    with pytest.raises(redis.TimeoutError):
        apply_ratings(services, doc)
    written = _snapshot(services)
    monkeypatch.setattr(stored, "apply", real_apply)
    apply_ratings(services, doc)
    assert _snapshot(services) == written
    assert client.get(f"/v1/accounts/Bo/ratings/{POOL}").json["total"] == 1


def test_the_sweep_rates_a_match_whose_finish_was_cut_short(client, services, monkeypatch):
    ada, bo = signed_up(client, "Ada"), signed_up(client, "Bo")
    doc = finished_doc("m1", [ada, bo])
    finishing.intend(services, doc["id"])  # the process died after the commit, before the steps
    monkeypatch.setattr(services.store, "load_doc", lambda match_id: doc if match_id == doc["id"] else None)
    assert finishing.recover(services, now_ms=10**15) == 1
    assert finishing.recover(services, now_ms=10**15) == 0  # the intent is gone
    assert [e["matches"] for e in board(client)] == [1, 1]
    assert "ratings.update" in finishing.steps()


def test_unrated_unfinished_and_seat_token_matches_are_left_alone(client, services):
    ada = signed_up(client, "Ada")
    apply_ratings(services, {**finished_doc("m1", [ada, "easy"]), "rated": False})
    apply_ratings(services, {**finished_doc("m2", [ada, "easy"]), "status": "active"})
    anonymous = finished_doc("m3", [ada, "easy"])
    anonymous["seats"][1] = {"seat": 1, "kind": "human", "level": None, "resigned": False}
    apply_ratings(services, anonymous)
    assert _snapshot(services) == {}


# --- the routes -------------------------------------------------------------


def test_unknown_pools_and_names_are_404_and_bad_queries_422(client):
    signed_up(client, "Ada")
    assert client.get("/v1/leaderboards/chess").status_code == 404
    assert client.get("/v1/accounts/Ada/ratings/chess").status_code == 404
    assert client.get(f"/v1/accounts/Nobody/ratings/{POOL}").status_code == 404
    assert client.get(f"/v1/leaderboards/{POOL}?kind=robot").status_code == 422
    assert client.get(f"/v1/leaderboards/{POOL}?provisional=maybe").status_code == 422
    assert client.get(f"/v1/accounts/Ada/ratings/{POOL}?limit=0").status_code == 422
    assert client.get(f"/v1/accounts/Ada/ratings/{POOL}?limit=999").status_code == 200
    never = client.get(f"/v1/accounts/Ada/ratings/{POOL}").json
    assert never["total"] == 0 and never["history"] == [] and never["rating"]["mu"] == 25


def test_an_ai_level_s_profile_exists_before_its_first_match(client):
    for level in ("random", "easy", "medium", "hard"):
        profile = client.get(f"/v1/accounts/ai-{level}")
        assert profile.status_code == 200 and profile.json["kind"] == "bot"
        assert profile.json["ratings"] == {}
    assert client.post("/v1/accounts", json={"name": "ai-hard", "kind": "bot"}).status_code == 422


@pytest.mark.parametrize("scope", [None, "match:read", "account:write"])
def test_the_rating_reads_are_public_whatever_the_token(client, scope):
    signed_up(client, "Ada")
    headers = {} if scope is None else bearer(account_token(client, "Bo", scopes=[scope]))
    for path in (f"/v1/leaderboards/{POOL}", f"/v1/accounts/Ada/ratings/{POOL}", "/v1/accounts/Ada"):
        assert client.get(path, headers=headers).status_code == 200


@pytest.mark.parametrize("scope", ["match:create", "match:read"])
def test_a_rated_match_needs_match_create_to_make_and_match_play_to_join(client, scope):
    creator = account_token(client, "Ada", scopes=[scope])
    seats = [{"kind": "human"}, {"kind": "open"}]
    body = {"game": "anno1452", "seats": seats, "rated": True}
    created = client.post("/v1/matches", json=body, headers=bearer(creator))
    if scope != "match:create":
        assert created.status_code == 403 and created.json["details"]["missing_scope"] == "match:create"
        return
    match_id = created.json["match"]["id"]
    reader = account_token(client, "Bo", scopes=["match:read"])
    refused = client.post(f"/v1/matches/{match_id}/join", json={}, headers=bearer(reader))
    assert refused.status_code == 403 and refused.json["details"]["missing_scope"] == "match:play"
    player = account_token(client, "Cy", scopes=["match:play"])
    assert client.post(f"/v1/matches/{match_id}/join", json={}, headers=bearer(player)).status_code == 201


def test_a_match_played_to_its_end_is_rated_and_its_rematch_is_rated_too(client, services):
    ada = account_token(client, "Ada")
    seats = [{"kind": "human"}, {"kind": "ai", "level": "random"}]
    body = {"game": "anno1452", "seats": seats, "rated": True, "options": SHORT, "turn_timeout_s": 0}
    match_id = client.post("/v1/matches", json=body, headers=bearer(ada)).json["match"]["id"]
    rng = new_rng(3)
    for _ in range(500):
        run_ai_jobs(services)
        match = client.get(f"/v1/matches/{match_id}").json
        if match["status"] == "finished":
            break
        if 0 in match["to_act"]:
            assert play_random(client, match_id, ada, rng).status_code == 200
    assert match["status"] == "finished"
    winner = match["result"]["winners"] == [0]
    (change,) = client.get(f"/v1/accounts/Ada/ratings/{POOL}").json["history"]
    assert change["place"] == (1 if winner else 2) and (change["delta"] > 0) == winner
    rematch = client.post(f"/v1/matches/{match_id}/rematch", headers=bearer(ada))
    assert rematch.status_code == 201, rematch.json
    assert rematch.json["match"]["rated"] is True and rematch.json["match"]["pool"] == POOL
