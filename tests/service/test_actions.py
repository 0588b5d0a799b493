"""Posting actions: success, each refusal, idempotency, the event log."""

from .helpers import bearer, create


def _start(client):
    created = create(client)
    match = created["match"]
    seat = match["to_act"][0]
    return match["id"], seat, created["tokens"][str(seat)], created["tokens"][str(1 - seat)]


def _listed(client, match_id, token):
    response = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token))
    assert response.status_code == 200
    return response.get_json()


def _post(client, match_id, token, body, **headers):
    return client.post(f"/v1/matches/{match_id}/actions", headers={**bearer(token), **headers}, json=body)


def _error(response):
    return response.status_code, response.get_json()["error"]


def test_legal_action_is_applied_and_logged(client):
    match_id, seat, token, _ = _start(client)
    listed = _listed(client, match_id, token)
    assert listed["seat"] == seat and listed["version"] == 0 and listed["actions"]
    response = _post(client, match_id, token, {"action": listed["actions"][0], "version": 0})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["version"] == 1 and body["match"]["version"] == 1 and body["match"]["you"] == seat
    assert body["events"], "an action logs at least one event"
    log = client.get(f"/v1/matches/{match_id}/events").get_json()
    setup = [e for e in log["events"] if e["version"] == 0]  # the set-up's events come first
    assert [e["seq"] for e in log["events"]] == list(range(1, len(setup) + len(body["events"]) + 1))
    assert [e["version"] for e in log["events"]] == [0] * len(setup) + [1] * len(body["events"])
    assert log["last_seq"] == len(setup) + len(body["events"])
    assert client.get(f"/v1/matches/{match_id}/events?after={log['last_seq']}").get_json()["events"] == []


def test_other_seat_gets_not_your_turn_and_empty_list(client):
    match_id, _, _, other = _start(client)
    assert _listed(client, match_id, other)["actions"] == []
    response = _post(client, match_id, other, {"action": {"type": "end_turn"}})
    assert _error(response) == (409, "not_your_turn")


def test_well_formed_but_illegal_action_names_the_rule(client):
    match_id, _, token, _ = _start(client)
    legal = _listed(client, match_id, token)["actions"]
    candidates = [{"type": "develop", "slot": s} for s in range(1, 8)] + [
        {"type": "buy", "commodity": c} for c in ("stone", "wood", "tool", "cloth", "spice", "tobacco")
    ]
    illegal = next(a for a in candidates if a not in legal)
    response = _post(client, match_id, token, {"action": illegal})
    assert _error(response) == (409, "illegal_action")
    assert response.get_json()["details"]["reason"]
    assert client.get(f"/v1/matches/{match_id}").get_json()["version"] == 0


def test_malformed_actions_are_422(client):
    match_id, _, token, _ = _start(client)
    for action in (
        {"type": "teleport"},
        {"type": "develop", "slot": 99},
        {"type": "develop", "slot": "3"},
        {"type": "end_turn", "extra": 1},
        {"type": "move_ship", "ship": 0, "to": [9, 0]},
        {"type": "move_ship", "ship": 0, "to": [1]},
        {"no_type": True},
    ):
        response = _post(client, match_id, token, {"action": action})
        assert _error(response) == (422, "validation_error"), action
        assert response.get_json()["details"]["fields"]
    assert _error(_post(client, match_id, token, {"version": 0})) == (422, "validation_error")


def test_stale_version_and_if_match(client):
    match_id, _, token, _ = _start(client)
    action = _listed(client, match_id, token)["actions"][0]
    stale = _post(client, match_id, token, {"action": action, "version": 5})
    assert _error(stale) == (409, "version_conflict")
    assert stale.get_json()["details"]["current_version"] == 0
    mismatch = _post(client, match_id, token, {"action": action}, **{"If-Match": '"3"'})
    assert _error(mismatch) == (412, "precondition_failed")
    assert mismatch.get_json()["details"]["current_version"] == 0
    ok = _post(client, match_id, token, {"action": action}, **{"If-Match": '"0"'})
    assert ok.status_code == 200


def test_idempotent_retry_returns_first_response_and_applies_once(client):
    match_id, _, token, _ = _start(client)
    action = _listed(client, match_id, token)["actions"][0]
    body = {"action": action, "version": 0}
    key = {"Idempotency-Key": "move-0001"}
    first = _post(client, match_id, token, body, **key)
    assert first.status_code == 200
    retry = _post(client, match_id, token, body, **key)
    assert retry.status_code == 200
    assert retry.get_json() == first.get_json()
    match = client.get(f"/v1/matches/{match_id}").get_json()
    assert match["version"] == 1
    events = client.get(f"/v1/matches/{match_id}/events").get_json()["events"]
    assert len([e for e in events if e["version"] == 1]) == len(first.get_json()["events"])
    other_body = _post(client, match_id, token, {"action": {"type": "end_turn"}}, **key)
    assert _error(other_body) == (422, "validation_error")
