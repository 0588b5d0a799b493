"""No seat's view or events, and no spectator's, show what that viewer could not see."""

import random

from .helpers import bearer, create, humans

# Actions that lead to face-down tiles being looked at: preferred by the
# random client so discoveries happen within a few hundred actions.
SEAFARING = {"build_ship", "move_ship", "discover", "take_tile", "return_tile"}
VIEWERS = [0, 1, 2, 3, None]


def _choose(rng, actions):
    sea = [a for a in actions if a["type"] in SEAFARING]
    return rng.choice(sea if sea and rng.random() < 0.8 else actions)


def _check_view(view, viewer, raw_state):
    """Asserts the view hides what it must; returns how many tile ids it shows."""
    shown = 0
    for seat, player in enumerate(view["players"]):
        if seat == viewer:
            assert "hand" in player
        else:
            assert "hand" not in player and "hand_size" in player
    for space in view["spaces"]:
        tile = space["tile"]
        if tile and "id" in tile:
            key = f"{space['space'][0]},{space['space'][1]}"
            assert viewer in raw_state["seen"].get(key, []), (viewer, key)
            shown += 1
    # The generator and the face-down stacks are secret. (``queue``, the seats
    # still to resolve a roll or event, and ``seen_by`` are public at the
    # table and are shown.)
    for secret in ("rng", "reserve", "box", "seen"):
        assert secret not in view
    return shown


def _check_events(events, viewer, raw_by_seq):
    for event in events:
        raw = raw_by_seq[event["seq"]]
        private = raw.get("private") or {}
        expected = dict(raw.get("data", {}))
        if viewer is not None:
            expected.update(private.get(str(viewer), {}))
        assert event["data"] == expected, (viewer, raw)


def test_views_and_events_hide_what_the_viewer_could_not_see(client, services):
    created = create(client, seats=humans(4), seed=5)
    match_id, tokens = created["match"]["id"], created["tokens"]
    rng = random.Random(5)
    discovered = 0
    ids_shown = dict.fromkeys(VIEWERS, 0)
    for step in range(1500):
        match = client.get(f"/v1/matches/{match_id}").get_json()
        if match["status"] == "finished" or (discovered >= 3 and step >= 150):
            break
        seat = match["to_act"][0]
        token = tokens[str(seat)]
        listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
        response = client.post(
            f"/v1/matches/{match_id}/actions",
            headers=bearer(token),
            json={"action": _choose(rng, listed["actions"])},
        )
        assert response.status_code == 200
        posted = response.get_json()
        found = sum(e["type"] == "tile_discovered" for e in posted["events"])
        discovered += found
        if step % 10 == 0 or found:
            raw_state = services.store.load(match_id).state
            for viewer in VIEWERS:
                headers = bearer(tokens[str(viewer)]) if viewer is not None else {}
                view = client.get(f"/v1/matches/{match_id}", headers=headers).get_json()["view"]
                ids_shown[viewer] += _check_view(view, viewer, raw_state)
    assert discovered >= 1, "the test never exercised a face-down tile"
    assert sum(ids_shown.values()) > 0, "no viewer ever saw a tile it looked at"
    assert ids_shown[None] == 0

    raw_by_seq = {seq: event for seq, _, event in services.store.read_events(match_id, 0, 100000)}
    assert any(e.get("private") for e in raw_by_seq.values())
    for viewer in VIEWERS:
        headers = bearer(tokens[str(viewer)]) if viewer is not None else {}
        after, events = 0, []
        while True:
            page = client.get(
                f"/v1/matches/{match_id}/events?after={after}&limit=1000", headers=headers
            ).get_json()
            events += page["events"]
            after = page["last_seq"]
            if not page["more"]:
                break
        assert len(events) == len(raw_by_seq)
        _check_events(events, viewer, raw_by_seq)
