"""The ``tabula`` command line (client/src/tabula_client/cli.py) against the
real stack: create a short Anno 1452 match, play it to its end with a bot
defined here, verify its replay (dice and engine re-run), follow it, and the
errors. Commands run in-process through ``cli.main``; one subprocess proves
the module entry point."""

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import threading
import tomllib

import pytest

from tabula_client import Client
from tabula_client.cli import main

from .conftest import CLIENT_SRC, ROOT

# Left out by `make test-fast` (-m "not slow"): seconds each: the client against a served stack.
pytestmark = pytest.mark.slow


def first_action(match, actions):
    """The bot of these tests: ``tabula play --bot tests.client.test_cli:first_action``."""
    assert match["status"] == "active" and actions
    return actions[0]


PLAY_LIMIT_S = 60


def _too_long(*_):
    raise TimeoutError(f"tabula play took over {PLAY_LIMIT_S} s")


def run(*argv):
    """``tabula ARGV`` in-process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(arg) for arg in argv])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def played(server_url):
    """A 2-seat Anno 1452 match (you and a random AI, end in 1314) created
    with ``tabula new`` and played to its end with ``tabula play``."""
    code, out, err = run(
        "new",
        "anno1452",
        "--scenario",
        "ottokar_a",
        "--option",
        "end_year=1314",
        "--seat",
        "me",
        "--seat",
        "ai:random",
        "--json",
        "--url",
        server_url,
    )
    assert code == 0, err
    created = json.loads(out)
    match_id, token = created["id"], created["tokens"]["0"]
    assert created["match"]["options"]["end_year"] == 1314  # sent as an integer
    # A hung play fails instead of hanging (signals work in the main thread only).
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGALRM, _too_long)
        signal.alarm(PLAY_LIMIT_S)
    try:
        code, out, err = run(
            "play",
            match_id,
            "--bot",
            "tests.client.test_cli:first_action",
            "--token",
            token,
            "--url",
            server_url,
        )
    finally:
        if threading.current_thread() is threading.main_thread():
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
    return {"id": match_id, "token": token, "code": code, "out": out, "err": err}


def test_games_json_lists_both_games(server_url):
    code, out, _ = run("--url", server_url, "games", "--json")
    assert code == 0
    assert {"anno1503", "anno1452"} <= {game["id"] for game in json.loads(out)}


def test_games_text_when_piped_has_no_colour_codes(server_url):
    code, out, _ = run("games", "--url", server_url)
    assert code == 0 and "anno1452" in out and "end_year=" in out and "\x1b[" not in out


def test_play_plays_the_match_to_its_end(played, server_url):
    assert played["code"] == 0, played["err"]
    assert "you play" in played["out"] and "result:" in played["out"]
    with Client(server_url) as api:
        assert api.get_match(played["id"])["status"] == "finished"


def test_replay_verify_passes_every_check_with_the_engine(played, server_url):
    code, out, err = run("replay", played["id"], "--verify", "--url", server_url)
    assert code == 0, out + err
    assert "✓ commitment" in out and "✓ seed derivation" in out and "✓ engine re-run" in out
    assert "✗" not in out and "skipped" not in out


def test_replay_verify_of_a_tampered_file_fails(played, server_url, tmp_path):
    saved = tmp_path / "replay.json"
    code, _, err = run("replay", played["id"], "--out", saved, "--url", server_url)
    assert code == 0, err
    replay = json.loads(saved.read_text())
    replay["proof"]["server_secret"] = "00" * 32
    saved.write_text(json.dumps(replay))
    code, out, _ = run("replay", "--file", saved, "--verify", "--json")
    report = json.loads(out)
    assert code == 1 and report["ok"] is False
    assert {c["name"]: c["ok"] for c in report["checks"]}["commitment"] is False


def test_watch_json_of_a_finished_match_prints_the_events_and_ends(played, server_url, tmp_path):
    board = tmp_path / "board.svg"
    code, out, err = run("watch", played["id"], "--json", "--svg", board, "--url", server_url)
    assert code == 0, err
    items = [json.loads(line) for line in out.splitlines()]
    events = [item["body"] for item in items if item["kind"] == "event"]
    assert events and [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert items[-1]["kind"] == "match" and items[-1]["body"]["status"] == "finished"
    assert board.read_text().lstrip().startswith("<")


def test_replay_of_an_unknown_match_is_not_found(server_url):
    code, out, err = run("replay", "nosuchmatch", "--url", server_url)
    assert code == 1 and out == ""
    assert "not_found" in err and len(err.strip().splitlines()) == 1


def test_usage_errors_exit_2(server_url):
    assert run("new", "anno1452", "--seat", "robot", "--url", server_url)[0] == 2
    assert run("replay", "--url", server_url)[0] == 2
    assert run("frobnicate")[0] == 2


def test_entry_point_runs_as_a_module_and_is_declared(server_url):
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(CLIENT_SRC), os.environ.get("PYTHONPATH", "")]),
        "TABULA_URL": server_url,
    }
    done = subprocess.run(
        [sys.executable, "-m", "tabula_client.cli", "games", "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "anno1452" in {game["id"] for game in json.loads(done.stdout)}
    project = tomllib.loads((ROOT / "client" / "pyproject.toml").read_text())["project"]
    assert project["scripts"]["tabula"] == "tabula_client.cli:main"
    assert any(dep.startswith("rich") for dep in project["dependencies"])
