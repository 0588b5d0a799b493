"""tabula_client against a real gunicorn, RQ worker and redis-server (see
conftest.py): every operation, every error class in its real case, the
retry and idempotency guarantees, and the live event follower."""

import random
import threading
import time

import httpx
import pytest
import yaml

from launcher.redis_process import free_port
from tabula_client import (
    OPERATIONS,
    BadRequest,
    Client,
    Forbidden,
    GameOver,
    IllegalAction,
    NotFound,
    NotYourTurn,
    PayloadTooLarge,
    PreconditionFailed,
    SeatTaken,
    Unauthorized,
    Unavailable,
    ValidationError,
    VersionConflict,
)
from tests.service.live import LiveServer

from .conftest import ROOT, SERVER_ENV

# Left out by `make test-fast` (-m "not slow"): seconds each: the client against a served stack.
pytestmark = pytest.mark.slow

ANNO1503 = {"expansion": "none"}
TWO_HUMANS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]


def two_human_match(api):
    """A started anno1503 match of two humans: ``(match_id, client of the
    seat to act, client of the other seat, the match)``."""
    created = api.create_match("anno1503", TWO_HUMANS, options=ANNO1503, seed=3, dice="reproducible")
    match = created["match"]
    acting = match["to_act"][0]
    tokens = created["tokens"]
    return (match["id"], api.with_token(tokens[str(acting)]), api.with_token(tokens[str(1 - acting)]), match)


def record_requests(client):
    """The requests ``client``'s connections send from now on, and their statuses."""
    sent = []
    hooks = client._transport.http.event_hooks
    hooks["request"].append(lambda request: sent.append(["request", request]))
    hooks["response"].append(lambda response: sent.append(["response", response.status_code]))
    return sent


# -- every operation has a method --


def test_every_operation_of_the_committed_spec_has_a_client_method():
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    operation_ids = {
        op["operationId"]
        for path in spec["paths"].values()
        for op in path.values()
        if isinstance(op, dict) and "operationId" in op
    }
    assert operation_ids, "no operationId in openapi.yaml"
    missing = sorted(
        op for op in operation_ids if not callable(getattr(Client, OPERATIONS.get(op, "-"), None))
    )
    assert not missing, f"operations without a Client method: {missing}"
    assert set(OPERATIONS) == operation_ids, "OPERATIONS names an operation the spec no longer has"


# -- the operations --


def test_catalogue_health_and_metrics(api, metrics_port):
    games = api.list_games()
    assert {"anno1503", "anno1452"} <= {game["id"] for game in games}
    assert api.get_game("anno1503")["id"] == "anno1503"
    assert api.healthz()["status"] == "ok"
    assert api.readyz()["status"] in ("ok", "unavailable", "degraded", "not_ready")
    # The metrics answer on the internal port only.
    with Client(f"http://127.0.0.1:{metrics_port}", timeout=10.0) as inside:
        assert "# TYPE" in inside.metrics()
    with pytest.raises(NotFound):
        api.metrics()


def test_create_join_get_list_actions_post_and_resign(api):
    created = api.create_match(
        "anno1503", [{"kind": "human", "name": "Ada"}, {"kind": "open"}], options=ANNO1503, seed=5
    )
    match_id = created["match"]["id"]
    assert created["match"]["status"] == "waiting"
    assert match_id in {m["id"] for m in api.list_matches(status="waiting", page_size=100)}
    joined = api.join_match(match_id, name="Bo")
    assert joined["seat"] == 1
    players = {0: api.with_token(created["tokens"]["0"]), 1: api.with_token(joined["token"])}

    match = api.get_match(match_id)
    assert match is not None and match["status"] == "active" and match["you"] is None
    assert players[1].get_match(match_id)["you"] == 1
    assert api.get_match(match_id, if_none_match=match["version"]) is None  # 304

    seat = match["to_act"][0]
    listed = players[seat].list_actions(match_id)
    assert listed["seat"] == seat and listed["actions"]
    result = players[seat].post_action(match_id, listed["actions"][0], version=listed["version"])
    assert result["version"] == listed["version"] + 1 and result["events"]
    assert result["match"]["version"] == result["version"]

    board = players[seat].get_board(match_id)
    assert board["svg"].lstrip().startswith("<svg") and board["etag"]
    assert players[seat].get_board(match_id, if_none_match=board["etag"])["svg"] is None

    ticket = players[seat].create_stream_ticket(match_id)
    stream = api.stream_match(match_id, ticket=ticket["ticket"])
    first = next(stream)
    stream.close()
    assert first["id"] == match_id and first["you"] == seat

    resigned = players[0].resign(match_id)
    assert resigned["seats"][0]["resigned"] is True
    with pytest.raises(Unauthorized):  # the resigned seat's token is revoked
        players[0].list_actions(match_id)


# -- every error in its real case --


def test_not_found_unauthorized_forbidden_and_bad_request(api):
    with pytest.raises(NotFound) as caught:
        api.get_match("no-such-match")
    assert caught.value.status == 404 and caught.value.code == "not_found"
    with pytest.raises(NotFound):
        api.get_game("chess")
    match_id, acting, _, _ = two_human_match(api)
    with pytest.raises(Unauthorized) as caught:
        api.with_token("not-a-token").list_actions(match_id)
    assert caught.value.status == 401
    other_id, _, _, _ = two_human_match(api)
    with pytest.raises(Forbidden):
        acting.list_actions(other_id)
    with pytest.raises(BadRequest):  # a token in the query string is refused
        acting._call("GET", f"/v1/matches/{match_id}/stream", params={"token": "x"})


def test_conflicts_carry_their_details(api):
    match_id, acting, waiting, match = two_human_match(api)
    legal = acting.list_actions(match_id)["actions"]
    # Well-formed actions; the list is complete, so one not in it is illegal now.
    illegal = next(
        action
        for action in ({"type": "end_turn"}, {"type": "place_pioneer"}, {"type": "buy", "commodity": "spice"})
        if action not in legal
    )
    with pytest.raises(IllegalAction) as caught:
        acting.post_action(match_id, illegal)
    assert caught.value.status == 409 and caught.value.reason
    with pytest.raises(NotYourTurn):
        waiting.post_action(match_id, {"type": "end_turn"})
    action = acting.list_actions(match_id)["actions"][0]
    acting.post_action(match_id, action)
    with pytest.raises(VersionConflict) as caught:
        acting.post_action(match_id, action, version=match["version"])
    assert caught.value.current_version == match["version"] + 1
    with pytest.raises(PreconditionFailed) as caught:
        acting.post_action(match_id, action, if_match=match["version"])
    assert caught.value.current_version == match["version"] + 1
    with pytest.raises(SeatTaken):
        api.join_match(match_id, name="Cy")


def test_validation_error_names_the_fields_and_payload_too_large(api):
    with pytest.raises(ValidationError) as caught:
        api.create_match("anno1503", [{"kind": "robot"}], options=ANNO1503)
    assert caught.value.status == 422 and caught.value.fields
    with pytest.raises(PayloadTooLarge):
        api.create_match("anno1503", TWO_HUMANS, options=ANNO1503, padding="x" * 100_000)


def test_idempotency_key_plays_an_action_once(api):
    match_id, acting, _, match = two_human_match(api)
    action = acting.list_actions(match_id)["actions"][0]
    first = acting.post_action(match_id, action, idempotency_key="move-1")
    again = acting.post_action(match_id, action, idempotency_key="move-1")
    assert first["version"] == again["version"] == match["version"] + 1
    assert api.get_match(match_id)["version"] == match["version"] + 1


# -- retries --


def test_an_exhausted_window_is_waited_out_before_the_request(redis_url):
    """The RateLimit fields tell the client its window is empty: it waits for
    the refill and sends then, so the server never has to answer 429."""
    env = {**SERVER_ENV, "RATE_LIMIT": "5", "RATE_LIMIT_WINDOW_S": "2"}
    with LiveServer(redis_url, env=env) as server, Client(server.url, retries=0) as api:
        match_id, acting, _, match = two_human_match(api)
        sent = record_requests(acting)
        for _ in range(12):  # until the token's window is empty (it may refill meanwhile)
            actions = acting.list_actions(match_id)["actions"]
            if acting.rate_limits["requests"].remaining == 0:
                break
        window = acting.rate_limits["requests"]
        assert window.remaining == 0 and window.limit == 5 and window.window_s == 2
        started = time.monotonic()
        result = acting.post_action(match_id, actions[0])  # retries=0: a 429 would raise
        assert result["version"] == match["version"] + 1
        assert time.monotonic() - started >= window.reset_s - 0.05
        assert 429 not in [item[1] for item in sent if item[0] == "response"]
        assert acting.rate_limits["requests"].remaining == 4


def test_a_429_is_waited_out_and_the_retry_reuses_the_idempotency_key(redis_url):
    """A client that has not seen the window yet (a fresh one) learns it from
    the 429, waits its Retry-After and sends the same key again."""
    env = {**SERVER_ENV, "RATE_LIMIT": "5", "RATE_LIMIT_WINDOW_S": "2"}
    with LiveServer(redis_url, env=env) as server, Client(server.url, retries=3) as api:
        match_id, acting, _, match = two_human_match(api)
        actions = acting.list_actions(match_id)["actions"]
        # Empty the token's window with plain requests (no client to hold back),
        # from the start of a window: the windows are aligned to the clock, and
        # one that ends before the fresh client's first try lets it through
        # with no 429 to wait out (seen under load).
        time.sleep(2 - time.time() % 2 + 0.02)
        auth = {"Authorization": f"Bearer {acting.token}"}
        for _ in range(20):
            refused = httpx.get(f"{server.url}/v1/matches/{match_id}/actions", headers=auth, timeout=10)
            if refused.status_code == 429:
                break
        assert refused.status_code == 429 and 1 <= int(refused.headers["Retry-After"]) <= 2
        fresh = Client(server.url, token=acting.token, retries=3)
        sent = record_requests(fresh)
        result = fresh.post_action(match_id, actions[0])
        assert result["version"] == match["version"] + 1
        statuses = [item[1] for item in sent if item[0] == "response"]
        assert 429 in statuses and statuses[-1] == 200
        keys = [
            item[1].headers["Idempotency-Key"]
            for item in sent
            if item[0] == "request" and item[1].method == "POST"
        ]
        assert len(keys) >= 2 and len(set(keys)) == 1
        fresh.close()


def test_unavailable_storage_is_retried_with_backoff_then_raised(tmp_path):
    dead_redis = f"redis://127.0.0.1:{free_port()}/0"
    with (
        LiveServer(dead_redis, env=SERVER_ENV, log=tmp_path / "gunicorn.log") as server,
        Client(server.url, retries=2, backoff_s=0.1) as api,
    ):
        sent = record_requests(api)
        started = time.monotonic()
        with pytest.raises(Unavailable) as caught:
            api.list_matches()
        assert caught.value.status == 503
        assert [item[1] for item in sent if item[0] == "response"] == [503, 503, 503]
        assert time.monotonic() - started >= 0.1 + 0.2  # backoff 0.1 s, then 0.2 s


# -- following a match live --


def play_seat(player, match_id, stop, pause_after=5, pause_s=1.0):
    """Play random legal actions for ``player``'s seat until the match ends,
    pausing once (so a short stream read timeout fires)."""
    rng = random.Random(7)
    moves = 0
    while not stop.is_set():
        listed = player.list_actions(match_id)
        if not listed["actions"]:
            if player.get_match(match_id)["status"] == "finished":
                return
            time.sleep(0.02)
            continue
        try:
            player.post_action(match_id, rng.choice(listed["actions"]), version=listed["version"])
        except (VersionConflict, NotYourTurn, IllegalAction, GameOver):
            continue
        moves += 1
        if moves == pause_after:
            time.sleep(pause_s)


def all_events(client, match_id):
    events, after = [], 0
    while True:
        page = client.list_events(match_id, after=after)
        events += page["events"]
        if not page["more"] or not page["events"]:
            return events
        after = page["events"][-1]["seq"]


def test_events_follow_a_match_to_its_end_across_reconnects(api):
    seats = [
        {"kind": "human", "name": "Ada"},
        {"kind": "ai", "level": "random"},
        {"kind": "ai", "level": "random"},
    ]
    created = api.create_match("anno1452", seats, seed=11)
    match_id = created["match"]["id"]
    me = api.with_token(created["tokens"]["0"])
    stop = threading.Event()
    player = threading.Thread(target=play_seat, args=(me, match_id, stop), daemon=True)
    player.start()
    seen, snapshots = [], []
    try:
        # A read timeout below the player's pause: at least one reconnect by timeout.
        follower = me.events(match_id, matches=True, read_timeout=0.5)
        for item in follower:
            if item["kind"] == "event":
                seen.append(item["body"])
                if len(seen) == 10:
                    follower.drop()  # the connection breaks under the iterator
            else:
                snapshots.append(item["body"])
    finally:
        stop.set()
        player.join(30)

    assert follower.reconnects >= 2
    assert snapshots[-1]["status"] == "finished" and not follower.polling
    seqs = [event["seq"] for event in seen]
    assert seqs == list(range(1, len(seqs) + 1))  # no gap, no repeat
    assert seen == all_events(me, match_id)

    # The finished match: replay, board at a step, rematch, game over.
    replay = me.get_replay(match_id)
    assert replay["game"] == "anno1452" and replay["actions"]
    assert me.get_board(match_id, step=1)["svg"]
    with pytest.raises(GameOver):
        me.post_action(match_id, {"type": "pass"})
    rematch = me.rematch(match_id)
    assert rematch["seat"] == 0 and rematch["match"]["id"] != match_id
    after_end = list(me.events(match_id, after=seqs[-1]))  # a finished match's stream ends
    assert [event["type"] for event in after_end] == ["rematch_created"]
    assert after_end[0]["seq"] == seqs[-1] + 1


def test_events_of_an_unknown_match_raise_not_found(api):
    with pytest.raises(NotFound):
        next(api.events("no-such-match"))
