"""Turn timers: a human decision past its deadline is made by the medium AI.

Before, ``turn_timeout_s`` was stored and nothing ever happened: a player
who walked away froze the match for everyone.
"""

import threading
import time

from service.model.documents import refresh_deadlines
from service.worker import sweeper, timers

from .helpers import bearer, create, humans

TIMEOUT_S = 60


def _timed_match(client, timeout_s=TIMEOUT_S, seats=None):
    created = create(client, seats=seats or humans(2), turn_timeout_s=timeout_s)
    return created["match"], created["tokens"]


def _later(seconds):
    return int(time.time() * 1000) + seconds * 1000


def _post_status(client, path, headers, body, codes):
    """POST ``body`` and append the status code to ``codes`` (a thread's target)."""
    codes.append(client.post(path, headers=headers, json=body).status_code)


def _events(client, match_id, after=0):
    return client.get(f"/v1/matches/{match_id}/events?after={after}&limit=1000").get_json()["events"]


def test_the_match_shows_each_pending_seats_deadline(client):
    match, _ = _timed_match(client)
    (seat,) = match["to_act"]
    deadline = match["deadlines"][str(seat)]
    assert deadline.endswith("Z") and list(match["deadlines"]) == [str(seat)]
    untimed, _ = _timed_match(client, timeout_s=0)
    assert untimed["deadlines"] == {} and untimed["turn_timeout_s"] == 0


def test_no_timer_fires_before_the_deadline(client, services):
    match, _ = _timed_match(client)
    assert sweeper.sweep(services, _later(TIMEOUT_S - 5)) == (0, 0)
    assert client.get(f"/v1/matches/{match['id']}").get_json()["version"] == match["version"]


def test_a_timer_fires_and_the_ai_decides_for_the_seat(client, services):
    match, tokens = _timed_match(client)
    (seat,) = match["to_act"]
    assert sweeper.sweep(services, _later(TIMEOUT_S + 1)) == (0, 1)
    after = client.get(f"/v1/matches/{match['id']}", headers=bearer(tokens[str(seat)])).get_json()
    assert after["version"] == match["version"] + 1
    events = _events(client, match["id"])
    timed_out = [e for e in events if e["type"] == "turn_timed_out"]
    assert timed_out == [
        {
            "seq": timed_out[0]["seq"],
            "version": after["version"],
            "type": "turn_timed_out",
            "seat": seat,
            "data": {"consecutive": 1, "level": "medium"},
        }
    ]
    # Its decision is in the replay log as the seat's action, after the notice.
    assert events[-1]["seq"] > timed_out[0]["seq"]
    if seat in after["to_act"]:  # the seat's next decision has a fresh deadline
        assert after["deadlines"][str(seat)] > match["deadlines"][str(seat)]


def test_the_persons_move_first_means_the_timer_does_nothing(client, services):
    match, tokens = _timed_match(client)
    (seat,) = match["to_act"]
    token = bearer(tokens[str(seat)])
    path = f"/v1/matches/{match['id']}/actions"
    doc = services.store.load_doc(match["id"])
    action = client.get(path, headers=token).get_json()["actions"][0]
    assert client.post(path, headers=token, json={"action": action}).status_code == 200
    fired, latest = timers.fire_due(services, doc, _later(TIMEOUT_S + 1))  # it read the old doc
    assert fired == 0 and latest["version"] == match["version"]
    assert client.get(f"/v1/matches/{match['id']}").get_json()["version"] == match["version"] + 1
    assert not any(e["type"] == "turn_timed_out" for e in _events(client, match["id"]))


def test_the_timer_first_means_the_persons_move_is_refused(client, services, monkeypatch):
    """The person's request read the match, then the timer committed: its
    commit loses the race and it is refused, never applied to the next decision."""
    match, tokens = _timed_match(client)
    (seat,) = match["to_act"]
    token = bearer(tokens[str(seat)])
    path = f"/v1/matches/{match['id']}/actions"
    action = client.get(path, headers=token).get_json()["actions"][0]
    commit = services.store.commit
    raced = []

    def timer_commits_first(match_id, rev, change, *more):
        if not raced:
            raced.append(True)
            doc = services.store.load_doc(match_id)
            assert timers.fire_due(services, doc, _later(TIMEOUT_S + 1))[0] == 1
        return commit(match_id, rev, change, *more)

    monkeypatch.setattr(services.store, "commit", timer_commits_first)
    response = client.post(path, headers=token, json={"action": action})  # no version: the risky case
    assert response.status_code == 409, response.get_json()
    assert response.get_json()["details"]["reason"] == "turn_timed_out"
    assert client.get(f"/v1/matches/{match['id']}").get_json()["version"] == match["version"] + 1


def test_racing_a_timer_applies_exactly_one(client, services):
    """With the version it chose at (what a client should send), a person's
    move and the timer never both apply. (Without one, a move that arrives
    after the timer's commit is a move on the next decision; one in flight
    when the timer commits is refused: the test above.)"""
    for _ in range(8):
        match, tokens = _timed_match(client)
        (seat,) = match["to_act"]
        token = bearer(tokens[str(seat)])
        path = f"/v1/matches/{match['id']}/actions"
        listed = client.get(path, headers=token).get_json()
        action, version = listed["actions"][0], listed["version"]
        doc = services.store.load_doc(match["id"])
        codes = []
        body = {"action": action, "version": version}
        person = threading.Thread(target=_post_status, args=(client, path, token, body, codes))
        timer = threading.Thread(target=timers.fire_due, args=(services, doc, _later(TIMEOUT_S + 1)))
        person.start(), timer.start(), person.join(), timer.join()
        after = client.get(f"/v1/matches/{match['id']}").get_json()
        timed_out = any(e["type"] == "turn_timed_out" for e in _events(client, match["id"]))
        assert after["version"] == match["version"] + 1
        assert (codes == [200]) != timed_out  # exactly one of them applied


def test_three_time_outs_in_a_row_hand_the_seat_to_the_ai(client, services, ai_runner):
    match, tokens = _timed_match(
        client, seats=[{"kind": "human", "name": "Away"}, {"kind": "ai", "level": "random"}]
    )
    token = bearer(tokens["0"])
    now = _later(0)
    for _ in range(200):
        current = client.get(f"/v1/matches/{match['id']}").get_json()
        if current["seats"][0]["kind"] == "ai" or current["status"] == "finished":
            break
        if 0 in current["to_act"]:
            now += (TIMEOUT_S + 1) * 1000
            sweeper.sweep(services, now)
        else:
            ai_runner()
    events = _events(client, match["id"])
    counts = [e["data"]["consecutive"] for e in events if e["type"] == "turn_timed_out"]
    assert counts == [1, 2, 3]
    handed = [e for e in events if e["type"] == "seat_handed_to_ai"]
    assert len(handed) == 1 and handed[0]["seat"] == 0 and handed[0]["data"]["timeouts"] == 3
    seat = current["seats"][0]
    assert seat["kind"] == "ai" and seat["level"] == "medium" and seat["resigned"]
    assert current["deadlines"].get("0") is None
    assert client.get(f"/v1/matches/{match['id']}", headers=token).status_code == 401  # revoked


def test_a_persons_own_move_resets_the_count(client, services):
    match, tokens = _timed_match(client)
    (seat,) = match["to_act"]
    token = bearer(tokens[str(seat)])
    assert sweeper.sweep(services, _later(TIMEOUT_S + 1))[1] == 1
    current = client.get(f"/v1/matches/{match['id']}").get_json()
    assert seat in current["to_act"]  # seed 7: the AI's decision left the turn open
    path = f"/v1/matches/{match['id']}/actions"
    action = client.get(path, headers=token).get_json()["actions"][0]
    assert client.post(path, headers=token, json={"action": action}).status_code == 200
    assert services.store.load_doc(match["id"])["timeouts"] == {}


def test_seats_deciding_at_once_each_keep_their_own_deadline():
    doc = {
        "turn_timeout_s": 10,
        "to_act": [0, 1],
        "deadlines": {"0": 5_000, "1": 7_000},
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "ai"}],
    }
    refresh_deadlines(doc, before=[0, 1], actor=0, now_ms=9_000)
    assert doc["deadlines"] == {"0": 19_000, "1": 7_000}  # only the seat that acted starts again
    doc["to_act"] = [1, 2]
    refresh_deadlines(doc, before=[0, 1], actor=0, now_ms=9_500)
    assert doc["deadlines"] == {"1": 7_000}  # an AI seat has no timer
    doc["to_act"] = [0]
    refresh_deadlines(doc, before=[1], actor=1, now_ms=9_600)
    assert doc["deadlines"] == {"0": 19_600}  # a seat newly pending starts a fresh one
