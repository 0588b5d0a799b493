"""The starter bot (examples/bots/starter.py) plays whole matches against
what `make run` starts, run as a bot author runs it: a separate process.

One stack for the module (its own redis-server, RQ worker and gunicorn on
free loopback ports, see stack.py). The bot gets ``tabula_client`` from
client/src and ``engine`` from the checkout, as after ``pip install
./client`` and ``pip install .``. Anno 1452's Ottokar scenario ending in
1314 makes a match of about 30 moves for the bot (2 to 6 s); the
``tabula play`` run plays Anno 1503 (10 to 20 s), whose moves all show on
the stream. About 45 s for the file on a loaded 2-core machine.
"""

import json
import os
import re
import subprocess
import sys
import time

import pytest
import requests

from .stack import ROOT, Launcher

# Left out by `make test-fast` (-m "not slow"): starts a whole stack.
pytestmark = pytest.mark.slow

STARTER = ROOT / "examples" / "bots" / "starter.py"
SHORT_MATCH = {"scenario": "ottokar_a", "end_year": 1314}
BOT_TIMEOUT_S = 25
# Anno 1503 through `tabula play` is several times longer: more moves, and
# the command reads the match and prints the events of each.
CLI_TIMEOUT_S = 120
MOVE_LINE = re.compile(r"^v(\d+) seat (\d+): (\{.*\})$")


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    # The defaults a bot author meets with `make run` (rate limits, and a
    # finished match's stream waiting 30 s for a rematch: the bot must not
    # wait for it, BOT_TIMEOUT_S bounds that too). Only the stop is quicker:
    # gunicorn's default 20 s grace would wait out those streams at teardown.
    launcher = Launcher(tmp_path_factory.mktemp("starter-stack"), GUNICORN_GRACEFUL_TIMEOUT="2")
    try:
        launcher.wait_ready()
        yield launcher
    finally:
        launcher.close()


def bot_env(stack):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TABULA_", "PYTEST"))}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "client" / "src"), str(ROOT)])
    env["TABULA_URL"] = stack.url  # the server from the environment, as documented
    return env


def run(args, stack, tmp_path, cwd=None, timeout=BOT_TIMEOUT_S, **env):
    """Run a command to its end (exit 0); returns (stdout lines, seconds)."""
    started = time.monotonic()
    done = subprocess.run(
        args,
        cwd=cwd or tmp_path,
        env={**bot_env(stack), **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    elapsed = time.monotonic() - started
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout.splitlines(), elapsed


def create(stack, seats, options=SHORT_MATCH, game="anno1452", **extra):
    answer = requests.post(
        f"{stack.url}/v1/matches",
        timeout=10,
        json={"game": game, "options": options, "seats": seats, **extra},
    )
    assert answer.status_code == 201, answer.text
    return answer.json()


def finished_replay(stack, match_id):
    match = requests.get(f"{stack.url}/v1/matches/{match_id}", timeout=10).json()
    assert match["status"] == "finished", match["status"]
    replay = requests.get(f"{stack.url}/v1/matches/{match_id}/replay", timeout=10)
    assert replay.status_code == 200, replay.text
    return match, replay.json()


def check_moves(lines, replay, seat):
    """Every move the bot printed is its seat's in the replay, in order, and no other."""
    printed = [MOVE_LINE.match(line) for line in lines if MOVE_LINE.match(line)]
    assert printed, lines
    assert {int(m.group(2)) for m in printed} == {seat}
    played = [entry["action"] for entry in replay["actions"] if entry["seat"] == seat]
    assert [json.loads(m.group(3)) for m in printed] == played
    assert lines[-1].startswith(f"{len(played)} moves; we are seat {seat}; result: "), lines[-1]
    return len(played)


def test_the_bot_plays_a_match_it_creates_against_the_ai_to_the_end(stack, tmp_path):
    lines, elapsed = run(
        [
            sys.executable,
            str(STARTER),
            "--url",
            stack.url,
            "--game",
            "anno1452",
            "--option",
            "scenario=ottokar_a",
            "--option",
            "end_year=1314",
            "--vs",
            "medium",
        ],
        stack,
        tmp_path,
    )
    match_id = re.match(r"playing match (\w+) at ", lines[0]).group(1)
    match, replay = finished_replay(stack, match_id)
    assert [s["kind"] for s in match["seats"]] == ["human", "ai"]
    moves = check_moves(lines, replay, seat=0)
    assert json.loads(lines[-1].split("result: ", 1)[1])["winners"] == match["result"]["winners"]
    print(f"created: {moves} bot moves of {len(replay['actions'])} in {elapsed:.1f} s")


def test_the_bot_takes_an_open_seat(stack, tmp_path):
    created = create(stack, [{"kind": "ai", "level": "easy"}, {"kind": "open"}])
    match_id = created["match"]["id"]
    assert created["match"]["status"] == "waiting"
    lines, elapsed = run([sys.executable, str(STARTER), "--match", match_id, "--join"], stack, tmp_path)
    match, replay = finished_replay(stack, match_id)
    assert match["seats"][1]["kind"] == "human" and match["seats"][1]["name"] == "starter"
    moves = check_moves(lines, replay, seat=1)
    print(f"joined: {moves} bot moves of {len(replay['actions'])} in {elapsed:.1f} s")


def test_the_bot_acts_after_keep_hand(stack, tmp_path):
    """Anno 1452's keep_hand changed nothing visible and once left no event, so
    a bot following only the stream waited for ever (seed 2: reproducible dice,
    the easy AI keeps its hand right before the bot's turn). Every move now
    leaves an event; this match must play to its end."""
    created = create(
        stack,
        [{"kind": "human", "name": "starter"}, {"kind": "ai", "level": "easy"}],
        seed=2,
        dice="reproducible",
    )
    match_id = created["match"]["id"]
    lines, elapsed = run(
        [sys.executable, str(STARTER), "--match", match_id],
        stack,
        tmp_path,
        TABULA_TOKEN=created["tokens"]["0"],
    )  # the token from the environment
    _match, replay = finished_replay(stack, match_id)
    kept = [
        i
        for i, entry in enumerate(replay["actions"][:-1])
        if entry["seat"] == 1
        and entry["action"]["type"] == "keep_hand"
        and replay["actions"][i + 1]["seat"] == 0
    ]
    assert kept, "the AI never kept its hand right before the bot's turn: choose another seed"
    moves = check_moves(lines, replay, seat=0)
    print(
        f"keep_hand before the bot: {len(kept)}; {moves} bot moves of {len(replay['actions'])} in {elapsed:.1f} s"
    )


def test_tabula_play_runs_the_bot_function_as_a_plugin(stack, tmp_path):
    """``tabula play --bot examples.bots.starter:choose`` from the repository root."""
    created = create(
        stack, [{"kind": "human", "name": "me"}, {"kind": "ai", "level": "easy"}], options={}, game="anno1503"
    )
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    lines, elapsed = run(
        [
            sys.executable,
            "-m",
            "tabula_client.cli",
            "play",
            match_id,
            "--token",
            token,
            "--bot",
            "examples.bots.starter:choose",
            "--json",
        ],
        stack,
        tmp_path,
        cwd=ROOT,
        timeout=CLI_TIMEOUT_S,
    )
    _match, replay = finished_replay(stack, match_id)
    moves = [json.loads(line) for line in lines if json.loads(line).get("kind") == "move"]
    played = [entry["action"] for entry in replay["actions"] if entry["seat"] == 0]
    assert [m["action"] for m in moves] == played
    assert json.loads(lines[-1])["kind"] == "result"
    print(f"tabula play: {len(played)} bot moves of {len(replay['actions'])} in {elapsed:.1f} s")
