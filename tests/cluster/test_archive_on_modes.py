"""The archive on a Redis Cluster and on Sentinel (conftest.py's deployments,
with the check that Redis refused no command): the finishing commit writes
the record in its script (one slot), every read is the same bytes from the
record once the hot keys are gone, the finish steps' outbox and its
recovery, and export, wipe, import."""

from tests.service.test_archive import (  # noqa: F401
    archive_now,
    every_read,
    finished_match,
    test_the_finishing_commit_writes_the_record,
    test_writes_to_an_archived_match_are_refused,
)
from tests.service.test_finishing import (  # noqa: F401
    test_a_step_that_raises_is_retried_and_the_others_run_once,
    test_an_intent_whose_match_did_not_finish_is_dropped,
)


def test_every_read_is_the_same_from_the_record(client, services):
    for options in ({"scenario": "ottokar_a"}, {"rules": "expert"}):
        match_id, tokens = finished_match(client, services, "anno1452", options, "random")
        before = every_read(client, match_id, tokens)
        archive_now(services, match_id)
        after = every_read(client, match_id, tokens)
        assert {name: read for name, read in after.items() if read != before[name]} == {}


def test_export_wipe_import(client, services, deployment, monkeypatch, tmp_path):
    from service.worker import archive as archive_cli

    for name, value in deployment.config.items():
        monkeypatch.setenv(name, value)
    match_id, tokens = finished_match(client, services, "anno1452", {"scenario": "ottokar_a"}, "random")
    before = every_read(client, match_id, tokens)
    export = tmp_path / "all.ndjson.zst"
    assert archive_cli.main(["export", "--out", str(export)]) == 0
    deployment.flush()
    assert client.get(f"/v1/matches/{match_id}").status_code == 404
    assert archive_cli.main(["import", str(export)]) == 0
    after = every_read(client, match_id, tokens)
    assert {name: read for name, read in after.items() if read != before[name]} == {}
