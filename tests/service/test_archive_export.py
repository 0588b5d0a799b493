"""Export and import (``python -m service.worker.archive``, docs/archive.md):
export the finished matches as zstd-compressed NDJSON, wipe, import, and
every read is identical, the accounts' histories and figures included; the
account history's NDJSON carries each match's record in its public form."""

import orjson
import zstandard

from service.storage.keys import record_key
from service.worker import archive as archive_cli

from .helpers import bearer
from .test_accounts import account_token
from .test_archive import archive_now, every_read, finished_match, run_ai

NDJSON = {"Accept": "application/x-ndjson"}


def account_reads(client):
    return {
        "history": client.get("/v1/accounts/Ada/matches", headers=NDJSON).get_data(),
        "history-json": client.get("/v1/accounts/Ada/matches").get_data(),
        "profile": client.get("/v1/accounts/Ada").get_data(),
    }


def ada_match(client, services, ada):
    """A finished match whose seat 0 is Ada's account."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "ai", "level": "random"}]
    body = {"game": "anno1452", "options": {"end_year": 1314, "scenario": "ottokar_a"}, "seats": seats}
    created = client.post("/v1/matches", json=body, headers=bearer(ada)).get_json()
    match_id = created["match"]["id"]
    assert client.post(f"/v1/matches/{match_id}/resign", headers=bearer(ada)).status_code == 200
    for _ in range(2000):
        match = client.get(f"/v1/matches/{match_id}").get_json()
        if match["status"] == "finished":
            return match_id
        run_ai(services, match_id, match["version"])
    raise AssertionError("no finish")


def wipe_matches(services):
    """Every key of the matches and their indexes; the accounts themselves stay."""
    for key in services.redis.scan_iter():
        text = key.decode()
        account_index = text.startswith("account:") and text.rsplit(":", 1)[-1] in (
            "matches",
            "finished",
            "games",
            "counted",
        )
        keep = text.startswith("account:") and not account_index
        if not keep and not text.startswith(("pat:", "accountname:", "name:")):
            services.redis.delete(key)


def test_export_wipe_import_and_every_read_is_identical(
    client, services, redis_server, monkeypatch, tmp_path
):
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    ada = account_token(client, "Ada")
    ids = [ada_match(client, services, ada), ada_match(client, services, ada)]
    other, tokens = finished_match(client, services, "anno1452", {"rules": "basic"}, "random")
    archive_now(services, ids[0])  # one read from its record, the others still hot
    reads = {
        match_id: every_read(client, match_id, tokens if match_id == other else {})
        for match_id in [*ids, other]
    }
    accounts = account_reads(client)

    export = tmp_path / "all.ndjson.zst"
    assert archive_cli.main(["export", "--out", str(export)]) == 0
    lines = [
        orjson.loads(line)
        for line in zstandard.ZstdDecompressor()
        .decompress(export.read_bytes(), max_output_size=1 << 28)
        .splitlines()
    ]
    assert {*ids, other} <= {line["id"] for line in lines}  # (and the rematch, once it ends: not here)
    assert {line["format"] for line in lines} == {1}
    records = {match_id: services.redis.get(record_key(match_id)) for match_id in [*ids, other]}

    wipe_matches(services)
    assert client.get(f"/v1/matches/{other}").status_code == 404
    assert archive_cli.main(["import", str(export)]) == 0
    for match_id in [*ids, other]:
        assert services.redis.get(record_key(match_id)) == records[match_id]  # byte for byte
        got = every_read(client, match_id, tokens if match_id == other else {})
        assert {k: v for k, v in got.items() if v != reads[match_id][k] and k != "lobby"} == {}
    assert account_reads(client) == accounts
    # importing again keeps what is there and counts nothing twice
    assert archive_cli.main(["import", str(export)]) == 0
    assert account_reads(client) == accounts

    services.redis.flushdb()  # an empty Redis
    assert archive_cli.main(["import", str(export)]) == 0
    for match_id in [*ids, other]:
        got = every_read(client, match_id, tokens if match_id == other else {})
        assert {k: v for k, v in got.items() if v != reads[match_id][k]} == {}


def test_the_export_takes_a_time_range(client, services, redis_server, monkeypatch, tmp_path):
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    match_id, _ = finished_match(client, services, "anno1452", {"scenario": "ottokar_a"}, "random")
    out = tmp_path / "x.ndjson.zst"
    archive_cli.main(["export", "--until", "2000-01-01", "--out", str(out)])
    assert zstandard.ZstdDecompressor().decompress(out.read_bytes(), max_output_size=1 << 20) == b""
    archive_cli.main(["export", "--since", "2000-01-01T00:00:00Z", "--out", str(out)])
    body = zstandard.ZstdDecompressor().decompress(out.read_bytes(), max_output_size=1 << 24)
    assert [orjson.loads(line)["id"] for line in body.splitlines()] == [match_id]


def test_the_account_history_ndjson_carries_each_record(client, services):
    ada = account_token(client, "Ada")
    match_id = ada_match(client, services, ada)
    archive_now(services, match_id)
    lines = client.get("/v1/accounts/Ada/matches", headers=NDJSON).get_data().splitlines()
    (line,) = [orjson.loads(raw) for raw in lines]
    replay = client.get(f"/v1/matches/{match_id}/replay").get_json()
    assert line["id"] == match_id and line["replay"] == replay
    assert line["replay"]["actions"] and "account_id" not in orjson.dumps(line).decode()
