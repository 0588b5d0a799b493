"""schemathesis fuzzes the served /openapi.yaml against the real stack.

A private redis-server, an RQ worker (``python -m service.worker``) and
gunicorn with deploy/gunicorn.conf.py on a free loopback port (rate limits
off, so the fuzzer is not throttled). Real matches are created first so the
fuzzer reaches past 404 and 401:

- an active Anno 1503 match whose seat to act holds the bearer token sent on
  every request (``Authorization: Bearer``), the match most path ids point at;
- a waiting match with open seats for ``joinMatch``;
- the rating reads (``getLeaderboard``, ``getRatingHistory``) of the
  fuzzer's account;
- a finished Anno 1452 match (played to its end here) for ``getReplay``;
- a match of its own, with its own token, for ``resign`` (which revokes it);
- an account whose token (all scopes) the account operations send, another
  for ``closeAccount`` (which revokes it), and an app key for ``putAppAccount``.

``schemathesis run`` (the CLI) then runs every phase (examples, coverage,
fuzzing, stateful with links inferred from ``Location`` headers) with
``--checks all`` over every operation, bounded in examples
(``--max-examples``), time (``--max-time``) and response time
(``--max-response-time``). No check and no operation is left out, and every
check runs with schemathesis' stock expectations, no status added by
configuration: a schema-valid request is answered 2xx, 3xx, 401, 403, 404,
409, 429 or 5xx, and a 422 means the request breaks its schema. So every
rule of a body is in its schema (a rated match's fair dice and one human
seat, a rated challenge's named seats, a webhook URL's shape), and what
depends on the credential or on the server's state or policy has a status
of its own (a rated match created with a seat token: 403
``account_token_required``; a challenged name nobody holds: 404; a webhook
target the server refuses: 403 ``webhook_target_forbidden``).

Two rules no schema can state stay 422, and the fuzzer is made to send what
a real client sends (the hooks of ``schemathesis_hooks.py``, loaded through
``SCHEMATHESIS_HOOKS``): a fresh ``Idempotency-Key`` for each request (the
same key with another body is 422, as the IETF idempotency-key draft says:
a client reuses a key only to retry the same request, and generated keys
would collide), and a seek's ``rating_min`` at most its ``rating_max`` (one
field against another). `If-Match` is sent as `*`, the one version the
fuzzer can know. The test asserts that schemathesis reports no failure at
all (no 5xx, no response outside the schema, no refused schema-valid
request, no accepted schema-invalid one) and prints its summary either way.

    .venv/bin/pytest -p no:xdist -s tests/service/test_schemathesis.py
"""

import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from launcher.redis_process import RedisProcess

from .live import LiveServer, RqWorker

# Left out by `make test-fast` (-m "not slow"): a fuzzer.
pytestmark = pytest.mark.slow

SCHEMATHESIS = [sys.executable, "-m", "schemathesis.cli"]
MAX_EXAMPLES = 30
STREAM_EVENTS = 5
# The fuzzing phase's 30 examples per operation take about 65 s here; the
# stateful phase then runs until MAX_TIME_S (a few hundred scenarios). The
# suite's ten-minute budget sets it: at 150 s the stateful phase ran 1,166
# scenarios, all passing, and was the suite's longest test.
MAX_TIME_S = 90
RUN_TIMEOUT_S = 400
HOOKS = Path(__file__).with_name("schemathesis_hooks.py")
APP_KEY = "schemathesis-app-key"
# Sign-ups and challenges unthrottled too, so their logic is fuzzed past 429.
ACCOUNT_ENV = {"TABULA_APP_KEYS": f"fuzz={APP_KEY}", "SIGNUP_RATE_LIMIT": "0", "CHALLENGE_RATE_LIMIT": "0"}
ACCOUNT_OPERATIONS = (
    "getOwnAccount",
    "listTokens",
    "createToken",
    "revokeToken",
    "listOwnMatches",
    "createAccountStreamTicket",
)
# With an account of their own: revokeToken may revoke the fuzzer's token.
WEBHOOK_OPERATIONS = ("getWebhook", "deleteWebhook", "pingWebhook", "listWebhookDeliveries")


def _json(answer, status):
    code, _, body = answer
    assert code == status, (code, body[:500])
    return json.loads(body)


def _bearer(token):
    return {"Authorization": f"Bearer {token}"}


def _create(server, body):
    return _json(server.request("POST", "/v1/matches", body), 201)


def _finished_match(server):
    """An Anno 1452 match of two humans played to its end with random legal moves."""
    created = _create(
        server,
        {
            "game": "anno1452",
            "seed": 5,
            "dice": "reproducible",
            "options": {"scenario": "ottokar_a"},
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        },
    )
    match = created["match"]
    rng = random.Random(5)
    for _ in range(2000):
        if match["status"] == "finished":
            return match["id"], created["tokens"]
        token = created["tokens"][str(match["to_act"][0])]
        listed = _json(
            server.request("GET", f"/v1/matches/{match['id']}/actions", headers=_bearer(token)), 200
        )
        body = {"action": rng.choice(listed["actions"]), "version": listed["version"]}
        match = _json(
            server.request("POST", f"/v1/matches/{match['id']}/actions", body, headers=_bearer(token)), 200
        )["match"]
    raise AssertionError("the Anno 1452 match did not finish")


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    logs = tmp_path_factory.mktemp("schemathesis-logs")
    with (
        RedisProcess() as redis_server,
        RqWorker(redis_server.url, log=logs / "worker.log"),
        LiveServer(
            redis_server.url, env=ACCOUNT_ENV, workers=1, threads=8, log=logs / "gunicorn.log"
        ) as server,
    ):
        yield server, logs


def _account_token(server, name):
    return _json(server.request("POST", "/v1/accounts", {"name": name, "kind": "bot"}), 201)["token"]


def _to_act_in(server, token, count):
    """``count`` matches of the account against the AI where it is to act now."""
    body = {"game": "anno1503", "seats": [{"kind": "human"}, {"kind": "ai", "level": "random"}]}
    ids = [
        _json(server.request("POST", "/v1/matches", body, _bearer(token)), 201)["match"]["id"]
        for _ in range(count)
    ]
    for match_id in ids:
        for _ in range(400):
            listed = _json(
                server.request("GET", f"/v1/matches/{match_id}/actions", headers=_bearer(token)), 200
            )
            if listed["actions"]:
                break
            time.sleep(0.05)


def _account_operations(server):
    """The account operations' part of the config: their tokens and names."""
    token = _account_token(server, "fuzzer")
    closing = _account_token(server, "closing")
    hooks = _account_token(server, "hooker")
    # A webhook to start from (a public address literal: no DNS; this stack
    # runs no webhook worker, so nothing is ever delivered).
    hook = {"url": "https://93.184.216.34/tabula-hook", "events": ["your_turn"]}
    _json(server.request("PUT", "/v1/account/webhook", hook, headers=_bearer(hooks)), 200)
    _to_act_in(server, token, STREAM_EVENTS)
    blocks = [
        f"""
[[operations]]
include-operation-id = "{operation}"
headers = {{ Authorization = "Bearer {hooks if operation in WEBHOOK_OPERATIONS else token}" }}
"""
        for operation in ACCOUNT_OPERATIONS + WEBHOOK_OPERATIONS
    ]
    blocks.append(f"""
# The account stream never ends by itself: the account is to act in
# max-stream-events matches, so its first your_turn messages are enough
# events for schemathesis to stop reading (SSE) at once.
[[operations]]
include-operation-id = "streamAccount"
headers = {{ Authorization = "Bearer {token}", Accept = "text/event-stream" }}

[[operations]]
include-operation-id = "closeAccount"
headers = {{ Authorization = "Bearer {closing}" }}

[[operations]]
include-operation-id = "getProfile"
parameters = {{ "path.name" = "fuzzer" }}

# The rating history of the fuzzer's account (public); `pool` is the spec's
# enum (getLeaderboard needs nothing more).
[[operations]]
include-operation-id = "getRatingHistory"
parameters = {{ "path.name" = "fuzzer" }}

# A URL of the schema's shape whose host resolves to no public address (or
# that is http://) is the server's policy: 403 webhook_target_forbidden.
[[operations]]
include-operation-id = "putWebhook"
headers = {{ Authorization = "Bearer {hooks}" }}

[[operations]]
include-operation-id = "putAppAccount"
headers = {{ Authorization = "Bearer {APP_KEY}" }}
""")
    return "".join(blocks)


def _meet_operations(server):
    """The challenge and seek operations: a challenger, an invitee with a
    pending challenge, a seeker with a waiting seek."""
    host = _account_token(server, "challenger")
    guest = _account_token(server, "invitee")
    seeker = _account_token(server, "seeker")
    body = {"game": "anno1452", "seats": [{"kind": "account", "name": "invitee"}]}
    challenge = _json(server.request("POST", "/v1/challenges", body, headers=_bearer(host)), 201)["id"]
    seek = _json(
        server.request("POST", "/v1/seeks", {"pool": "anno1503-base"}, headers=_bearer(seeker)), 201
    )["id"]
    blocks = [
        f"""
[[operations]]
include-operation-id = "{operation}"
headers = {{ Authorization = "Bearer {who}" }}
parameters = {{ "path.challenge_id" = "{challenge}", "path.seek_id" = "{seek}" }}
"""
        for operation, who in (
            ("listChallenges", host),
            ("getChallenge", guest),
            ("cancelChallenge", host),
            ("acceptChallenge", guest),
            ("declineChallenge", guest),
            ("listSeeks", seeker),
            ("cancelSeek", seeker),
        )
    ]
    blocks.append(f"""
# A challenged name nobody holds is 404; a seek's rating range the wrong way
# round (422) is put right by the hooks (schemathesis_hooks.py).
[[operations]]
include-operation-id = "createChallenge"
headers = {{ Authorization = "Bearer {host}" }}

[[operations]]
include-operation-id = "createSeek"
headers = {{ Authorization = "Bearer {seeker}" }}
""")
    return "".join(blocks)


def _config(server):
    """schemathesis.toml: where, with which token, and which real ids."""
    active = _create(
        server,
        {"game": "anno1503", "seats": [{"kind": "human", "name": "Ada"}, {"kind": "ai", "level": "random"}]},
    )
    active_id = active["match"]["id"]
    token = next(iter(active["tokens"].values()))
    waiting_id = _create(
        server,
        {
            "game": "anno1503",
            "seats": [{"kind": "human", "name": "Cy"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}],
        },
    )["match"]["id"]
    resigning = _create(
        server,
        {"game": "anno1503", "seats": [{"kind": "human", "name": "Di"}, {"kind": "human", "name": "Ed"}]},
    )
    finished_id, finished_tokens = _finished_match(server)
    # One worker thread: CPython 3.11.7 (this machine's) can raise a spurious
    # "SystemError: AST constructor recursion depth mismatch" when threads
    # ast.parse at once (gh-106905, fixed in 3.11.8), which hypothesis does
    # while schemathesis builds coverage cases: it failed a run that way.
    return (
        f"""\
base-url = "{server.url}"
workers = 1
request-timeout = 10.0
max-stream-events = {STREAM_EVENTS}
headers = {{ Authorization = "Bearer {token}" }}

[generation]
max-examples = {MAX_EXAMPLES}
database = "none"

[parameters]
"path.match_id" = "{active_id}"

# A waiting match of four seats (the most any game has): every seat number
# the schema allows exists (another match's missing seat is its declared 422).
[[operations]]
include-operation-id = "joinMatch"
parameters = {{ "path.match_id" = "{waiting_id}" }}

# The version a conditional move names lives in the match, which moves on
# (the AI plays): `If-Match: *` (any version, RFC 9110) keeps the fuzzer's
# moves unconditional, as the real path id keeps them on a real match; a
# stale one is 412 (declared), and `version` in the body still gets fuzzed.
# Each request's Idempotency-Key is a fresh one (schemathesis_hooks.py).
[[operations]]
include-operation-id = "postAction"
parameters = {{ "header.If-Match" = "*" }}

[[operations]]
include-operation-id = "getReplay"
parameters = {{ "path.match_id" = "{finished_id}" }}

# The live stream of a finished match ends by itself (its Match, the events
# asked for, the final Match), so every request to it returns; the one of the
# active match would stay open until a timeout. SSE, which schemathesis reads
# event by event (at most max-stream-events), with that match's own token.
[[operations]]
include-operation-id = "streamMatch"
headers = {{ Authorization = "Bearer {finished_tokens["0"]}", Accept = "text/event-stream" }}
parameters = {{ "path.match_id" = "{finished_id}" }}

[[operations]]
include-operation-id = "resign"
headers = {{ Authorization = "Bearer {resigning["tokens"]["0"]}" }}
parameters = {{ "path.match_id" = "{resigning["match"]["id"]}" }}
"""
        + _account_operations(server)
        + _meet_operations(server)
    )


def test_schemathesis_finds_nothing(stack, tmp_path):
    server, logs = stack
    config = tmp_path / "schemathesis.toml"
    config.write_text(_config(server))
    assert "expected-statuses" not in config.read_text()  # stock expectations only
    command = [
        *SCHEMATHESIS,
        "--config-file",
        str(config),
        "--no-color",
        "run",
        f"{server.url}/openapi.yaml",
        "--checks",
        "all",
        "--phases",
        "examples,coverage,fuzzing,stateful",
        "--max-examples",
        str(MAX_EXAMPLES),
        "--max-response-time",
        "5",
        "--generation-deterministic",
        "--max-time",
        str(MAX_TIME_S),
        "--report",
        "junit",
        "--report-dir",
        str(tmp_path / "report"),
    ]
    started = time.monotonic()
    env = {**os.environ, "SCHEMATHESIS_HOOKS": str(HOOKS)}
    run = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S
    )
    elapsed = time.monotonic() - started
    output = run.stdout + run.stderr
    print(f"schemathesis ran {elapsed:.0f} s, exit status {run.returncode}")
    print(output[-20000:])
    if run.returncode != 0:
        for name in ("gunicorn.log", "worker.log"):
            path = logs / name
            if path.exists():
                print(f"--- {name} (tail) ---\n{path.read_text(errors='replace')[-5000:]}")
    assert run.returncode == 0, "schemathesis found problems (its summary is above)"
    tested = re.search(r"Selected: (\d+)/(\d+)\s+Tested: (\d+)", output)
    assert tested and len(set(tested.groups())) == 1, "not every operation was tested"
