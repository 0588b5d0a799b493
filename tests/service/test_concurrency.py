"""Racing writers: the compare-and-set lets exactly one win."""

import threading

from .helpers import bearer, create


def _race(app, n, request):
    """Run ``request(client)`` in ``n`` threads released together; returns responses."""
    barrier = threading.Barrier(n)
    responses = [None] * n

    def run(i):
        client = app.test_client()
        barrier.wait()
        responses[i] = request(client)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return responses


def test_sixteen_identical_posts_one_wins(app, client):
    created = create(client)
    match = created["match"]
    seat = match["to_act"][0]
    token = created["tokens"][str(seat)]
    listed = client.get(f"/v1/matches/{match['id']}/actions", headers=bearer(token)).get_json()
    body = {"action": listed["actions"][0], "version": listed["version"]}
    responses = _race(
        app, 16, lambda c: c.post(f"/v1/matches/{match['id']}/actions", headers=bearer(token), json=body)
    )
    codes = sorted(r.status_code for r in responses)
    assert codes == [200] + [409] * 15
    assert {r.get_json()["error"] for r in responses if r.status_code == 409} == {"version_conflict"}
    winner = next(r.get_json() for r in responses if r.status_code == 200)
    log = client.get(f"/v1/matches/{match['id']}/events").get_json()["events"]
    assert len([e for e in log if e["version"] == 1]) == len(winner["events"])  # after the set-up's
    assert client.get(f"/v1/matches/{match['id']}").get_json()["version"] == 1


def test_two_joins_race_for_one_seat(app, client):
    for _ in range(5):
        match_id = create(client, seats=[{"kind": "human"}, {"kind": "open"}])["match"]["id"]
        url = f"/v1/matches/{match_id}/join"
        responses = _race(app, 2, lambda c, url=url: c.post(url, json={"name": "X"}))
        codes = sorted(r.status_code for r in responses)
        assert codes == [201, 409]
        assert next(r for r in responses if r.status_code == 409).get_json()["error"] == "seat_taken"
        events = client.get(f"/v1/matches/{match_id}/events").get_json()["events"]
        assert [e["type"] for e in events if e["version"] > 0] == ["player_joined"]  # after the set-up's


def test_concurrent_retries_with_one_idempotency_key_apply_once(app, client):
    created = create(client)
    match = created["match"]
    token = created["tokens"][str(match["to_act"][0])]
    listed = client.get(f"/v1/matches/{match['id']}/actions", headers=bearer(token)).get_json()
    body = {"action": listed["actions"][0]}
    headers = {**bearer(token), "Idempotency-Key": "same-key"}
    responses = _race(
        app, 8, lambda c: c.post(f"/v1/matches/{match['id']}/actions", headers=headers, json=body)
    )
    assert {r.status_code for r in responses} == {200}
    assert len({r.get_data() for r in responses}) == 1
    assert client.get(f"/v1/matches/{match['id']}").get_json()["version"] == 1
