"""The archive (docs/archive.md): a finished match's record, written by the
commit that finishes it, serves every read byte for byte once the hot keys
are gone, for matches of every variant, every viewer; an unreadable record
is a 410, never another match; writes to an archived match are refused."""

import time

import pytest
import redis

from service.storage import archive as codec
from service.storage.keys import record_key
from service.worker import ai_jobs

from .conftest import METRICS_BASE_URL
from .helpers import bearer, create, new_rng

VARIANTS = [
    pytest.param("anno1503", {}, "easy", id="anno1503-base"),
    pytest.param("anno1503", {"expansion": "pirates_aristocrats"}, "easy", id="anno1503-expansion"),
    pytest.param("anno1452", {"rules": "basic"}, "random", id="anno1452-basic"),
    pytest.param("anno1452", {"rules": "expert"}, "random", id="anno1452-expert"),
    pytest.param("anno1452", {"scenario": "ottokar_a"}, "random", id="anno1452-ottokar"),
]


def hot_keys(services, match_id):
    return [k for k in services.redis.scan_iter(match=f"match:{{{match_id}}}*") if not k.endswith(b":record")]


def archive_now(services, match_id):
    """What the hot keys' expiry does, at once: only the record stays."""
    keys = hot_keys(services, match_id)
    assert keys
    services.redis.delete(*keys)
    assert services.redis.exists(record_key(match_id))


def play_out(client, services, match_id, tokens, rng, limit=20000):
    """Humans (``tokens``: seat -> token) play random moves, the AI its own, to the end."""
    for _ in range(limit):
        match = client.get(f"/v1/matches/{match_id}").get_json()
        if match["status"] == "finished":
            return match
        seat = match["to_act"][0]
        if seat not in tokens:
            run_ai(services, match_id, match["version"])
            continue
        listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat])).get_json()
        response = client.post(
            f"/v1/matches/{match_id}/actions",
            headers={**bearer(tokens[seat]), "Idempotency-Key": f"k{listed['version']}"},
            json={"action": rng.choice(listed["actions"]), "version": listed["version"]},
        )
        assert response.status_code == 200, response.get_json()
    raise AssertionError("the match did not finish")


def run_ai(services, match_id, version):
    """The AI job of ``match_id`` at ``version``, run here (the job an RQ
    worker would run; a burst worker per turn costs more than the match)."""
    ai_jobs.bind(services)
    ai_jobs.play_ai_turn(match_id, version)


def finished_match(client, services, game, options, level, seed=3):
    """A finished match with a service event of each kind: a join, a
    resignation, a rematch claim. Returns ``(match id, {seat: token})``."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "open"}]
    seats += [{"kind": "ai", "level": level}] * (1 if options.get("scenario") else 2)
    created = create(client, seats=seats, seed=seed, game=game, options=options)
    match_id = created["match"]["id"]
    joined = client.post(f"/v1/matches/{match_id}/join", json={"name": "Bo"}).get_json()
    tokens = {0: created["tokens"]["0"], 1: joined["token"]}
    rng = new_rng(seed)
    for _ in range(3):  # a few moves of Ada's, then she leaves it to the AI
        match = client.get(f"/v1/matches/{match_id}").get_json()
        if match["to_act"] == [0]:
            play_random(client, match_id, tokens[0], rng)
        elif match["to_act"][0] not in tokens:
            run_ai(services, match_id, match["version"])
    resigned = client.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[0]))
    assert resigned.status_code == 200
    play_out(client, services, match_id, {1: tokens[1]}, rng)
    claimed = client.post(f"/v1/matches/{match_id}/rematch", headers=bearer(tokens[1]))
    assert claimed.status_code in (200, 201), claimed.get_json()
    return match_id, tokens


def play_random(client, match_id, token, rng):
    listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
    client.post(
        f"/v1/matches/{match_id}/actions",
        headers=bearer(token),
        json={"action": rng.choice(listed["actions"]), "version": listed["version"]},
    )


def every_read(client, match_id, tokens):
    """Every read of a finished match, as ``{what: (status, bytes)}``."""
    viewers = {"spectator": {}, **{f"seat{seat}": bearer(token) for seat, token in tokens.items()}}
    paths = {
        "replay": f"/v1/matches/{match_id}/replay",
        "svg-step-5": f"/v1/matches/{match_id}/board.svg?step=5",
    }
    for name, headers in viewers.items():
        paths[f"match-{name}"] = (f"/v1/matches/{match_id}", headers)
        paths[f"events-{name}"] = (f"/v1/matches/{match_id}/events?limit=1000", headers)
        paths[f"events-after-{name}"] = (f"/v1/matches/{match_id}/events?after=7&limit=5", headers)
        paths[f"svg-{name}"] = (f"/v1/matches/{match_id}/board.svg", headers)
        paths[f"actions-{name}"] = (f"/v1/matches/{match_id}/actions", headers)
        paths[f"stream-{name}"] = (f"/v1/matches/{match_id}/stream?after=0", headers)
    paths["lobby"] = "/v1/matches?status=finished"
    reads = {}
    for name, target in paths.items():
        path, headers = target if isinstance(target, tuple) else (target, {})
        response = client.get(path, headers=headers)
        reads[name] = (response.status_code, response.headers.get("ETag"), response.get_data())
    # Every page of the events, as a client pages through them.
    after, pages = 0, []
    while True:
        page = client.get(f"/v1/matches/{match_id}/events?after={after}&limit=100").get_json()
        pages.append(page)
        if not page["more"]:
            break
        after = page["last_seq"]
    reads["event-pages"] = (200, None, repr(pages).encode())
    return reads


@pytest.mark.parametrize(("game", "options", "level"), VARIANTS)
def test_every_read_is_the_same_from_the_record(client, services, game, options, level):
    match_id, tokens = finished_match(client, services, game, options, level)
    before = every_read(client, match_id, tokens)
    assert before["match-seat1"][0] == 200 and before["replay"][0] == 200
    assert b"rematch_created" in before["event-pages"][2]
    assert before["stream-seat1"][0] == 200 and before["stream-seat1"][2].count(b"\n") > 100
    archive_now(services, match_id)
    after = every_read(client, match_id, tokens)
    assert {name: read for name, read in after.items() if read != before[name]} == {}
    # and the cache of rebuilt matches answers the same
    assert every_read(client, match_id, tokens) == before


def test_the_finishing_commit_writes_the_record(client, services):
    match_id, _ = finished_match(client, services, "anno1452", {"scenario": "ottokar_a"}, "random")
    raw = services.redis.get(record_key(match_id))
    record = codec.decode(match_id, raw)
    replay = client.get(f"/v1/matches/{match_id}/replay").get_json()
    assert record.action_entries() == replay["actions"]
    assert record.doc["rematch"] and record.doc["status"] == "finished"
    assert [event["type"] for _, _, event in record.extra] == [
        "player_joined",
        "player_resigned",
        "rematch_created",
    ]
    assert len(raw) < 2048, len(raw)
    # the hot keys expire FINISHED_MATCH_TTL_S after; the record is kept
    assert all(
        0 < services.redis.ttl(key) <= services.config["FINISHED_MATCH_TTL_S"]
        for key in hot_keys(services, match_id)
    )
    assert services.redis.ttl(record_key(match_id)) == -1


def test_writes_to_an_archived_match_are_refused(client, services):
    match_id, tokens = finished_match(client, services, "anno1452", {"scenario": "ottokar_a"}, "random")
    archive_now(services, match_id)
    moved = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[1]), json={"action": {}})
    assert moved.status_code in (409, 422)
    resigned = client.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[1]))
    assert resigned.status_code == 409 and resigned.get_json()["error"] == "game_over"
    # the rematch was claimed before: a call still gets its seat in it
    again = client.post(f"/v1/matches/{match_id}/rematch", headers=bearer(tokens[1]))
    assert again.status_code == 200, again.get_json()
    assert (
        codec.decode(match_id, services.redis.get(record_key(match_id))).doc["rematch"]
        == again.get_json()["match"]["id"]
    )


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda raw: b"XX" + raw[2:], id="magic"),
        pytest.param(lambda raw: raw[:2] + bytes([99]) + raw[3:], id="format-version"),
        pytest.param(lambda raw: raw[:3] + bytes([77]) + raw[4:], id="dictionary"),
        pytest.param(lambda raw: raw[:-9] + b"\x00" * 9, id="frame"),
        pytest.param(lambda raw: raw[: len(raw) // 2], id="truncated"),
    ],
)
def test_an_unreadable_record_is_a_410_and_counted(client, services, damage):
    match_id, _ = finished_match(client, services, "anno1452", {"scenario": "ottokar_a"}, "random")
    archive_now(services, match_id)
    services.redis.set(record_key(match_id), damage(services.redis.get(record_key(match_id))))
    for path in ("", "/events", "/replay", "/board.svg"):
        response = client.get(f"/v1/matches/{match_id}{path}")
        assert response.status_code == 410, (path, response.status_code)
        body = response.get_json()
        assert body["error"] == "archive_unreadable" and body["details"]["match_id"] == match_id
    # left out of the lobby (never listed as something else), and counted
    listed = client.get("/v1/matches?status=finished").get_json()
    assert match_id not in [item["id"] for item in listed]
    assert (
        b'tabula_archive_total{what="unreadable"}'
        in client.get("/metrics", base_url=METRICS_BASE_URL).get_data()
    )


def test_another_matchs_record_is_never_served(client, services):
    first, _ = finished_match(client, services, "anno1452", {"scenario": "ottokar_a"}, "random", seed=3)
    second, _ = finished_match(client, services, "anno1452", {"scenario": "ottokar_a"}, "random", seed=4)
    archive_now(services, first)
    services.redis.set(record_key(first), services.redis.get(record_key(second)))
    response = client.get(f"/v1/matches/{first}")
    assert response.status_code == 410 and "another match" in response.get_json()["details"]["reason"]


def test_the_hot_keys_expire_and_the_record_serves(redis_server):
    from .conftest import make_app

    redis.Redis.from_url(redis_server.url).flushdb()
    app = make_app(redis_server.url, FINISHED_MATCH_TTL_S=1)
    try:
        client, services = app.test_client(), app.extensions["tabula"]
        match_id, tokens = finished_match(client, services, "anno1452", {"scenario": "ottokar_a"}, "random")
        before = every_read(client, match_id, tokens)
        time.sleep(2.2)
        assert hot_keys(services, match_id) == []
        assert every_read(client, match_id, tokens) == before
    finally:
        app.extensions["tabula"].close()


def test_the_cache_of_rebuilt_matches_is_bounded_by_their_events(client, services):
    from service.runtime.archive import Archive

    match_id, _ = finished_match(client, services, "anno1452", {"scenario": "ottokar_a"}, "random")
    record = codec.decode(match_id, services.redis.get(record_key(match_id)))
    raws = {}
    for other in ("a1", "a2", "a3"):
        record.doc["id"] = other
        raws[other] = codec.encode(record)
    events = record.doc["seq"]
    cache = Archive(capacity=10, max_events=2 * events)
    first = cache.rebuild("a1", raws["a1"])
    assert cache.rebuild("a1", raws["a1"]) is first  # cached
    cache.rebuild("a2", raws["a2"])
    cache.rebuild("a3", raws["a3"])  # over 2 x events: a1 goes
    assert cache.rebuild("a1", raws["a1"]) is not first
    assert len(cache._entries) == 2 and cache._events == 2 * events
