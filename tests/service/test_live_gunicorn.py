"""What only a real gunicorn (deploy/gunicorn.conf.py) shows.

- A chunked body (``Transfer-Encoding: chunked``, no Content-Length) over
  MAX_CONTENT_LENGTH is 413 ``payload_too_large`` and changes nothing, on
  the move lane's route and on Flask's; werkzeug used to cut it silently at
  64 KiB, so a move followed by 80 KB of spaces was applied.
- The errors gunicorn answers before the app (414, 431, 400 on malformed
  HTTP) carry the contract's JSON body (service/gunicorn_worker.py).
"""

import json

import pytest

from launcher.redis_process import RedisProcess

from .live import LiveServer, chunked_request

# Left out by `make test-fast` (-m "not slow"): starts a whole stack.
pytestmark = pytest.mark.slow

ERROR_KEYS = {"error", "message", "details"}
LIMIT = 64 * 1024  # MAX_CONTENT_LENGTH's default


@pytest.fixture(scope="module")
def server():
    with RedisProcess() as redis_server, LiveServer(redis_server.url, workers=1, threads=4) as live:
        yield live


def _json_error(answer, status, code):
    got, headers, body = answer
    assert got == status, (got, body[:300])
    assert headers["Content-Type"].startswith("application/json"), headers
    document = json.loads(body)
    assert set(document) == ERROR_KEYS, document
    assert document["error"] == code, document
    return document


def _new_match(server):
    status, _, body = server.request(
        "POST", "/v1/matches", {"game": "anno1503", "seats": [{"kind": "human"}, {"kind": "human"}]}
    )
    assert status == 201, body
    created = json.loads(body)
    match = created["match"]
    token = created["tokens"][str(match["to_act"][0])]
    auth = {"Authorization": f"Bearer {token}"}
    status, _, body = server.request("GET", f"/v1/matches/{match['id']}/actions", headers=auth)
    listed = json.loads(body)
    move = {"action": listed["actions"][0], "version": listed["version"]}
    return match["id"], auth, move


def _version(server, match_id):
    return json.loads(server.request("GET", f"/v1/matches/{match_id}")[2])["version"]


def _lobby_total(server):
    return json.loads(server.request("GET", "/v1/matches")[1]["X-Pagination"])["total"]


def test_a_valid_move_padded_past_the_limit_is_413_and_not_applied(server):
    match_id, auth, move = _new_match(server)
    padded = json.dumps(move).encode() + b" " * 80_000  # valid JSON, 80 KB of it spaces
    answer = server.raw(chunked_request(f"/v1/matches/{match_id}/actions", padded, auth))
    _json_error(answer, 413, "payload_too_large")
    assert _version(server, match_id) == 0


def test_a_70_kb_chunked_action_is_413(server):
    match_id, auth, move = _new_match(server)
    big = json.dumps({"action": {**move["action"], "pad": "x" * 70_000}}).encode()
    answer = server.raw(chunked_request(f"/v1/matches/{match_id}/actions", big, auth))
    _json_error(answer, 413, "payload_too_large")
    assert _version(server, match_id) == 0


def test_a_chunked_create_over_the_limit_is_413_and_creates_nothing(server):
    before = _lobby_total(server)
    body = json.dumps(
        {"game": "anno1503", "seats": [{"kind": "human"}] * 2, "options": {"pad": "x" * (LIMIT + 10)}}
    ).encode()
    _json_error(server.raw(chunked_request("/v1/matches", body)), 413, "payload_too_large")
    assert _lobby_total(server) == before


def test_chunked_bodies_within_the_limit_are_read_whole(server):
    match_id, auth, move = _new_match(server)
    padded = json.dumps(move).encode() + b" " * (LIMIT - 2000)
    status, _, body = server.raw(
        chunked_request(f"/v1/matches/{match_id}/actions", padded, auth, chunk_size=1000)
    )
    assert status == 200, body[:300]
    assert json.loads(body)["version"] == 1
    status, _, body = server.raw(
        chunked_request(
            "/v1/matches",
            json.dumps({"game": "anno1503", "seats": [{"kind": "human"}, {"kind": "ai"}]}).encode(),
        )
    )
    assert status == 201, body[:300]


def test_a_9_kb_header_is_431_in_json(server):
    request = b"GET /v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n"
    document = _json_error(server.raw(request), 431, "headers_too_large")
    assert document["details"]["max_header_size"] == 8190


def test_a_10000_character_path_is_414_in_json(server):
    request = b"GET /v1/" + b"a" * 10_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    document = _json_error(server.raw(request), 414, "uri_too_long")
    assert document["details"]["max_request_line"] == 4094


def test_a_negative_content_length_is_400_in_json(server):
    request = (
        b"POST /v1/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
        b"\r\nContent-Length: -1\r\n\r\n"
    )
    _json_error(server.raw(request), 400, "bad_request")


def test_the_server_still_serves_after_refusing(server):
    assert server.request("GET", "/healthz")[0] == 200


def test_an_unknown_transfer_coding_is_501_in_json(server):
    request = b"POST /v1/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: br\r\n\r\n"
    _json_error(server.raw(request), 501, "not_implemented")
