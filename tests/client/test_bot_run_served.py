"""Issue 42's "done when", against the served stack of conftest.py: a bot
account signed up, ``tabula bot run --bot examples.bots.starter:choose``
run as a subprocess with its token, three matches it created against the
``random`` AI (two short Anno 1452, one Anno 1503) played to the end on ONE
account-stream connection, then Ctrl-C (SIGINT) stops it with exit 0.

"One connection" is the bot's own count: its closing ``stopped`` line
(``--json``) says how many times the account stream was opened
(``AccountStream.connections``), and the served log does not name streams.
"""

import json
import signal
import subprocess
import time
import uuid

import pytest

from .test_bot_run import start_bot

pytestmark = pytest.mark.slow  # three whole matches

STARTER = "examples.bots.starter:choose"
VS_RANDOM = [{"kind": "human", "name": "bot"}, {"kind": "ai", "level": "random"}]
SHORT_1452 = {"scenario": "ottokar_a", "end_year": 1314}  # as tests/ops/test_starter_bot.py
MATCHES = [("anno1452", SHORT_1452), ("anno1503", {"expansion": "none"}), ("anno1452", SHORT_1452)]
FINISH_TIMEOUT_S = 120


def wait_finished(api, match_ids, timeout=FINISH_TIMEOUT_S):
    deadline = time.monotonic() + timeout
    left = set(match_ids)
    while left:
        left = {m for m in left if api.get_match(m)["status"] != "finished"}
        assert time.monotonic() < deadline, f"not finished after {timeout} s: {sorted(left)}"
        time.sleep(0.2)


def stop(bot, out_file):
    """Ctrl-C; the bot's JSON lines once it exited (within 10 s)."""
    bot.send_signal(signal.SIGINT)
    try:
        _, err = bot.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        bot.kill()
        raise
    assert bot.returncode == 0, err
    return [json.loads(line) for line in out_file.read_text().splitlines()]


def test_a_bot_account_plays_three_matches_on_one_stream_and_stops_on_ctrl_c(api, server_url, tmp_path):
    name = f"starter{uuid.uuid4().hex[:8]}"
    token = api.sign_up(name, "bot")["token"]
    me = api.with_token(token)
    out_file = tmp_path / "bot.out"
    with out_file.open("w") as out:  # a file, not a pipe: three matches' moves fill no buffer
        bot = start_bot(server_url, bot=STARTER, token=token, stdout=out)
    try:
        created = [
            me.create_match(game, VS_RANDOM, options=options, seed=i)
            for i, (game, options) in enumerate(MATCHES)
        ]
        match_ids = [c["match"]["id"] for c in created]
        wait_finished(api, match_ids)
        time.sleep(0.5)  # the last match_finished reaches the bot
    except BaseException:
        bot.kill()
        bot.communicate()
        raise
    lines = stop(bot, out_file)
    assert {line["match_id"] for line in lines if line["kind"] == "move"} == set(match_ids)
    stopped = lines[-1]
    assert stopped["kind"] == "stopped" and stopped["connections"] == 1, stopped
    assert stopped["finished"] == 3 and stopped["moves"] == sum(1 for line in lines if line["kind"] == "move")
    games = api.profile(name)["games"]
    assert games["anno1452"]["played"] == 2 and games["anno1503"]["played"] == 1, games
