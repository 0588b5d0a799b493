"""``Store.hot_history`` with ``event_types``: what a record is built from,
with only the service's events parsed (storage/archived.py). It must keep
every event of those types, however its JSON is written, and drop no other
part of the history."""

import orjson

from service.model.documents import SERVICE_EVENTS
from service.storage.records import parse_events

from .test_archive import finished_match


def entry(seq, version, event, raw=None):
    return [f"0-{seq}".encode(), [b"v", str(version).encode(), b"e", raw or orjson.dumps(event)]]


def test_only_the_asked_types_are_kept_however_their_json_reads():
    joined = {"type": "player_joined", "seat": 1, "data": {"name": "Bo"}}
    built = {"type": "build", "seat": 0, "data": {"what": "player_joined"}}  # names it, not as its type
    resigned = {"seat": 0, "data": {}, "type": "player_resigned"}  # its type is not its first key
    claimed = {"type": "rematch_created", "seat": None, "data": {}}
    entries = [
        entry(1, 1, joined),
        entry(2, 2, built),
        entry(3, 3, resigned),
        # a RESP3 map of fields, in another order
        [b"0-4", {b"e": orjson.dumps(claimed), b"v": b"4"}],
        entry(
            5,
            5,
            {"type": "player_joined", "seat": 2, "data": {}},
            raw=b'{ "type" : "player_joined", "seat": 2, "data": {}}',
        ),
    ]
    kept = parse_events(entries, SERVICE_EVENTS)
    assert [(seq, version, event["type"]) for seq, version, event in kept] == [
        (1, 1, "player_joined"),
        (3, 3, "player_resigned"),
        (4, 4, "rematch_created"),
        (5, 5, "player_joined"),
    ]
    assert kept[0][2] == joined


def test_a_finished_matchs_history_with_service_events_only(client, services):
    match_id, _ = finished_match(client, services, "anno1452", {"scenario": "ottokar_a"}, "random")
    events = services.store.read_events(match_id, 0, 100_000)
    actions, only, tokens, rev = services.store.hot_history(match_id, SERVICE_EVENTS)
    assert only == [e for e in events if e[2]["type"] in SERVICE_EVENTS]
    assert [event["type"] for _, _, event in only] == ["player_joined", "player_resigned", "rematch_created"]
    assert len(events) > len(only)
    replay = client.get(f"/v1/matches/{match_id}/replay").get_json()
    assert actions == replay["actions"]
    assert tokens and rev


def test_without_types_every_event_is_parsed_in_either_shape():
    built = {"type": "build", "seat": 0, "data": {}}
    joined = {"type": "player_joined", "seat": 1, "data": {}}
    entries = [entry(1, 1, built), [b"0-2", {b"v": b"2", b"e": orjson.dumps(joined)}]]
    assert parse_events(entries) == [(1, 1, built), (2, 2, joined)]
