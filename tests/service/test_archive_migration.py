"""Migration of matches finished before archive records existed: the
revision before them (its code, taken from git, run in a subprocess) plays
matches to the end and records what it serves; then this revision's
``python -m service.worker.archive migrate`` gives each its record, the hot
keys expire, and every read is the same bytes the old code served."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from service.storage.keys import record_key
from service.worker import archive as archive_cli

from .conftest import make_app
from .test_archive import archive_now, every_read, hot_keys

# Left out by `make test-fast`: runs the old revision in a subprocess.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
# The last revision without archive records (main when they were added).
OLD_REVISION = "4b959dfa4f0710c442fbf064ba4f07c86b3d01f2"

OLD_SCRIPT = r"""
import json, random, sys
import service
assert service.__file__.startswith(sys.argv[1]), service.__file__  # the old code, not this tree's
from service import create_app
from service.worker import ai_jobs

sys.path.insert(0, sys.argv[1])
from tests.service.test_archive_reads import every_read  # noqa: the helper below, copied in

app = create_app({"REDIS_URL": sys.argv[2], "RATE_LIMIT": 0, "CREATE_RATE_LIMIT": 0})
client, services = app.test_client(), app.extensions["tabula"]
ai_jobs.bind(services)
out = {}
for seed, options in ((3, {"scenario": "ottokar_a", "end_year": 1314}), (4, {"rules": "basic"})):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "open"}, {"kind": "ai", "level": "random"}]
    if "scenario" not in options:
        seats.append({"kind": "ai", "level": "random"})
    body = {"game": "anno1452", "options": options, "seats": seats, "seed": seed, "dice": "reproducible"}
    created = client.post("/v1/matches", json=body).get_json()
    match_id = created["match"]["id"]
    bo = client.post(f"/v1/matches/{match_id}/join", json={"name": "Bo"}).get_json()["token"]
    tokens = {0: created["tokens"]["0"], 1: bo}
    assert client.post(f"/v1/matches/{match_id}/resign", headers={"Authorization": "Bearer " + tokens[0]}).status_code == 200
    rng = random.Random(seed)
    for _ in range(20000):
        match = client.get(f"/v1/matches/{match_id}").get_json()
        if match["status"] == "finished":
            break
        if match["to_act"][0] == 1:
            auth = {"Authorization": "Bearer " + bo}
            listed = client.get(f"/v1/matches/{match_id}/actions", headers=auth).get_json()
            client.post(f"/v1/matches/{match_id}/actions", headers=auth, json={"action": rng.choice(listed["actions"]), "version": listed["version"]})
        else:
            ai_jobs.play_ai_turn(match_id, match["version"])
    out[match_id] = {"tokens": tokens, "reads": {k: [v[0], v[1], v[2].hex()] for k, v in every_read(client, match_id, tokens).items()}}
json.dump(out, open(sys.argv[3], "w"))
"""


def old_tree(tmp_path):
    """The old revision's files, from git (no worktree: nothing registered)."""
    tree = tmp_path / "old"
    tree.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", OLD_REVISION], check=True, capture_output=True
    )
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    # every_read, copied in for the old code to call (its tests have no such helper)
    (tree / "tests" / "service" / "test_archive_reads.py").write_text(reads_helper_source())
    return tree


def reads_helper_source():
    """``every_read`` and what it needs, as source the old tree can import."""
    import inspect

    from . import test_archive

    return "from tests.service.helpers import bearer\n\n\n" + inspect.getsource(test_archive.every_read)


# Fields the match documents gained after OLD_REVISION (issue 43's ratings
# foundation): the old code never served them; all else must be the same.
NEW_FIELDS = ("rated", "pool")


def _as_of_old(read):
    """``(status, etag, body)`` without NEW_FIELDS in the JSON of a body (a
    document, each NDJSON line, each SSE ``data:`` line), to compare with
    what OLD_REVISION served."""
    status, etag, body = read
    return status, etag, b"\n".join(_line_as_of_old(line) for line in body.split(b"\n"))


def _line_as_of_old(line):
    prefix = b"data: " if line.startswith(b"data: ") else b""
    text = line[len(prefix) :]
    try:
        value = json.loads(text)
    except ValueError:
        return line  # not JSON (an SVG line, an SSE comment...): compared as it is
    return prefix + json.dumps(_drop_new_fields(value), sort_keys=True).encode()


def _drop_new_fields(value):
    if isinstance(value, dict):
        return {k: _drop_new_fields(v) for k, v in value.items() if k not in NEW_FIELDS}
    if isinstance(value, list):
        return [_drop_new_fields(v) for v in value]
    return value


def test_matches_finished_by_the_old_revision_are_migrated_and_read_the_same(
    redis_server, tmp_path, monkeypatch
):
    redis.Redis.from_url(redis_server.url).flushdb()
    tree = old_tree(tmp_path)
    result = tmp_path / "old-reads.json"
    env = {**os.environ, "PYTHONPATH": str(tree)}
    subprocess.run(
        [sys.executable, "-c", OLD_SCRIPT, str(tree), redis_server.url, str(result)],
        cwd=tree,
        env=env,
        check=True,
        timeout=600,
    )
    old = json.loads(result.read_text())
    assert len(old) == 2

    app = make_app(redis_server.url)
    try:
        client, services = app.test_client(), app.extensions["tabula"]
        for match_id in old:
            assert services.redis.get(record_key(match_id)) is None  # the old code wrote none
            assert services.redis.ttl(f"match:{{{match_id}}}") > 24 * 3600  # its 30 days
        monkeypatch.setenv("REDIS_URL", redis_server.url)
        assert archive_cli.main(["migrate"]) == 0
        for match_id, seen in old.items():
            assert services.redis.get(record_key(match_id)) is not None
            hot_ttl = services.config["FINISHED_MATCH_TTL_S"]
            assert all(
                0 < services.redis.ttl(key) <= hot_ttl
                for key in hot_keys(services, match_id)
                if b":idem" not in key
            )
            tokens = {int(seat): token for seat, token in seen["tokens"].items()}
            expected = {k: (v[0], v[1], bytes.fromhex(v[2])) for k, v in seen["reads"].items()}
            expected = {k: _as_of_old(v) for k, v in expected.items()}
            hot = every_read(client, match_id, tokens)
            # (the lobby's read is compared last: the old code read it before the next match)
            assert {k: v for k, v in hot.items() if _as_of_old(v) != expected[k] and k != "lobby"} == {}
            archive_now(services, match_id)
            archived = every_read(client, match_id, tokens)
            assert archived == hot  # the record serves the very bytes the hot keys did
        assert _as_of_old(archived["lobby"]) == expected["lobby"]  # the last match's: both finished
        assert archive_cli.main(["migrate"]) == 0  # again: nothing to do
    finally:
        app.extensions["tabula"].close()
