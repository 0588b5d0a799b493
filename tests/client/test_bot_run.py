"""``tabula bot run`` and ``tabula matches --mine`` against a real local
HTTP server speaking the formats of issue 42 (tests/client/stub_server.py):
the account stream announces two matches' turns (a snapshot one and a
logged one, then each next turn live), the bot posts one legal move per
turn on ONE stream connection, ignores a stale announcement, and SIGINT
stops it cleanly (exit 0).

The issue's "done when" against the served stack (a bot account,
``tabula bot run --bot examples.bots.starter:choose``, three matches against
the AI played to the end on one connection) is
tests/client/test_bot_run_served.py; this stub test stays for the
stale-turn cases.
"""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tabula_client.cli import main

from .conftest import CLIENT_SRC, ROOT
from .stub_server import StubServer, legal_actions
from .test_cli import run

BOT = "tests.client.stub_server:first_legal"


@pytest.fixture
def stub():
    with StubServer() as server:
        yield server


def wait_until(predicate, timeout=20.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def as_from_a_terminal():
    """SIGINT at its default action and no signal blocked (tests/ops/interrupt_after.py says why)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def start_bot(url, *extra, bot=BOT, token="tab_pat_stub", stdout=subprocess.PIPE):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABULA_")}
    env["PYTHONPATH"] = os.pathsep.join([str(CLIENT_SRC), str(ROOT)])
    env["XDG_CONFIG_HOME"] = "/nonexistent"  # no stored token: the one given
    command = [sys.executable, "-m", "tabula_client.cli", "bot", "run", "--bot", bot, *extra]
    command += ["--url", url, "--token", token, "--json"]
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=as_from_a_terminal,
    )


def test_bot_run_plays_every_turn_of_two_matches_on_one_connection_and_stops_on_sigint(stub):
    state = stub.state
    state.add_match("m1", version=4, turns=2)  # announced by the snapshot, then live
    state.add_match("m2", version=1, turns=1, game="other")
    state.add_event("match_started", "m2", {"game": "other"})
    state.add_event(
        "your_turn", "m1", {"game": "stubgame", "seat": 0, "version": 2, "deadline": None}
    )  # stale
    state.add_event("your_turn", "m2", {"game": "other", "seat": 0, "version": 1, "deadline": None})
    bot = start_bot(stub.url)
    try:
        wait_until(lambda: len(state.posts) >= 3 and state.matches["m1"]["turns_left"] == 0)
        time.sleep(0.5)  # anything more it would post, it posts now
        bot.send_signal(signal.SIGINT)
        out, err = bot.communicate(timeout=15)
    finally:
        if bot.poll() is None:
            bot.kill()
    assert bot.returncode == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    moves = [(line["match_id"], line["version"]) for line in lines if line["kind"] == "move"]
    assert sorted(moves) == [("m1", 6), ("m1", 8), ("m2", 3)]
    assert lines[-1] == {"kind": "stopped", "moves": 3, "finished": 2, "connections": 1}
    # the snapshot's turn, the logged one (the stale v2 skipped), then the live one
    assert [(p["match_id"], p["body"]["version"], p["status"]) for p in state.posts] == [
        ("m1", 4, 200),
        ("m2", 1, 200),
        ("m1", 6, 200),
    ]
    for post in state.posts:  # one legal move per turn, each with its own Idempotency-Key
        assert post["body"]["action"] in legal_actions(post["body"]["version"])
    assert len({p["idempotency_key"] for p in state.posts}) == 3 and all(
        p["idempotency_key"] for p in state.posts
    )
    assert len(state.connections) == 1  # one account stream for every match


def test_bot_run_accepts_only_the_games_given(stub):
    stub.state.add_match("m1", version=0, turns=1, game="anno1452")
    stub.state.add_match("m2", version=0, turns=1, game="anno1503")
    bot = start_bot(stub.url, "--accept", "anno1503")
    try:
        wait_until(lambda: len(stub.state.posts) >= 1)
        time.sleep(0.5)
        bot.send_signal(signal.SIGINT)
        bot.communicate(timeout=15)
    finally:
        if bot.poll() is None:
            bot.kill()
    assert [p["match_id"] for p in stub.state.posts] == ["m2"] and bot.returncode == 0


def test_bot_run_needs_a_token_and_an_importable_bot(stub, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("TABULA_TOKEN", raising=False)
    code, _, err = run("bot", "run", "--bot", BOT, "--url", stub.url)
    assert code == 2 and "needs an account token" in err
    code, _, err = run("bot", "run", "--bot", "nosuchmodule:f", "--url", stub.url, "--token", "tab_pat_stub")
    assert code == 2 and "cannot import nosuchmodule" in err
    assert main(["bot", "run"]) == 2  # --bot is required


def test_matches_mine_prints_the_accounts_matches(stub, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    stub.state.add_match("m1", version=4, turns=1)
    stub.state.add_match("m2", version=9, turns=0)
    code, out, err = run("matches", "--mine", "--to-act", "--url", stub.url, "--token", "tab_pat_stub")
    assert code == 0, err
    assert out.splitlines() == ["m1 stubgame active v4 seat 0 (StubBot) to act: seat 0"]
    code, out, err = run("matches", "--mine", "--json", "--url", stub.url, "--token", "tab_pat_stub")
    assert [m["id"] for m in json.loads(out)] == ["m1", "m2"]
    assert "/v1/account/matches?to_act=true" in [path for _, path in stub.state.requests]
    code, _, err = run("matches", "--to-act", "--url", stub.url)
    assert code == 2 and "--to-act goes with --mine" in err
