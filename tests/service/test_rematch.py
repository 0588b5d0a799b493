"""Rematch: every seat of a finished match gets into one new match."""

import threading

import orjson
import pytest

from .helpers import bearer, create, humans


def _finished_match(client, services, seats):
    """A new match marked finished in storage: a rematch reads only the old
    match's status, seats, options and timer, and the seats keep their
    tokens (playing it out would need them to resign, which revokes them)."""
    created = create(client, seats=seats, turn_timeout_s=120)
    match_id = created["match"]["id"]
    key = f"match:{{{match_id}}}"
    doc = orjson.loads(services.redis.hget(key, "doc"))
    doc.update(
        status="finished", to_act=[], deadlines={}, result={"winners": [0], "reason": "test", "scores": {}}
    )
    services.redis.hset(key, "doc", orjson.dumps(doc))
    return created


SEATS = [
    {"kind": "human", "name": "Ada"},
    {"kind": "ai", "level": "easy", "name": "Bot"},
    {"kind": "human", "name": "Bo"},
]


def test_a_rematch_before_the_end_is_refused(client):
    created = create(client, seats=humans(2))
    response = client.post(
        f"/v1/matches/{created['match']['id']}/rematch", headers=bearer(created["tokens"]["0"])
    )
    assert response.status_code == 409
    assert response.get_json()["details"]["reason"] == "match_not_finished"
    assert client.get(f"/v1/matches/{created['match']['id']}").get_json()["rematch"] is None


def test_the_first_call_creates_and_the_next_joins(client, services):
    old = _finished_match(client, services, SEATS)
    old_id = old["match"]["id"]
    first = client.post(f"/v1/matches/{old_id}/rematch", headers=bearer(old["tokens"]["2"]))
    assert first.status_code == 201, first.get_json()
    body = first.get_json()
    new = body["match"]
    assert body["seat"] == 2 and new["you"] == 2
    assert new["id"] != old_id and new["game"] == old["match"]["game"]
    assert new["options"] == old["match"]["options"] and new["turn_timeout_s"] == 120
    assert [(s["kind"], s["level"], s["name"]) for s in new["seats"]] == [
        ("human", None, "Ada"),
        ("ai", "easy", "Bot"),
        ("human", None, "Bo"),
    ]
    assert new["dice"] == "fair" and new["seed_commitment"] != old["match"]["seed_commitment"]
    # The old match names it, for everyone, and its event log says so.
    shown = client.get(f"/v1/matches/{old_id}").get_json()
    assert shown["rematch"] == new["id"]
    events = client.get(f"/v1/matches/{old_id}/events").get_json()["events"]
    assert events[-1]["type"] == "rematch_created" and events[-1]["data"] == {"match_id": new["id"]}
    # Seat 0 gets the same match, with its own token.
    second = client.post(f"/v1/matches/{old_id}/rematch", headers=bearer(old["tokens"]["0"]))
    assert second.status_code == 200 and second.get_json()["match"]["id"] == new["id"]
    token0 = second.get_json()["token"]
    mine = client.get(f"/v1/matches/{new['id']}", headers=bearer(token0)).get_json()
    assert mine["you"] == 0
    assert client.get(f"/v1/matches/{new['id']}", headers=bearer(body["token"])).get_json()["you"] == 2


def test_sixteen_racing_calls_create_exactly_one_match(app, services):
    old = _finished_match(app.test_client(), services, humans(4))
    old_id = old["match"]["id"]
    results = []

    def call(seat):
        response = app.test_client().post(
            f"/v1/matches/{old_id}/rematch", headers=bearer(old["tokens"][str(seat)])
        )
        results.append((seat, response.status_code, response.get_json()))

    threads = [threading.Thread(target=call, args=(i % 4,)) for i in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(code for _, code, _ in results) == [200] * 15 + [201]
    ids = {body["match"]["id"] for _, _, body in results}
    assert len(ids) == 1
    (new_id,) = ids
    assert all(body["seat"] == seat and body["match"]["you"] == seat for seat, _, body in results)
    lobby = app.test_client().get("/v1/matches").get_json()
    assert len(lobby) == 2  # the old match and one new one
    events = app.test_client().get(f"/v1/matches/{old_id}/events").get_json()["events"]
    assert [e["type"] for e in events].count("rematch_created") == 1
    assert services.store.load_doc(new_id)["rematch_of"] == old_id


@pytest.mark.parametrize("token", ["made-up", None])
def test_a_rematch_needs_a_token_of_the_match(client, services, token):
    old = _finished_match(client, services, humans(2))
    headers = bearer(token) if token else {}
    response = client.post(f"/v1/matches/{old['match']['id']}/rematch", headers=headers)
    assert response.status_code == 401
