"""The client's challenge and seek methods against the served stack
(gunicorn + a worker, whose wave thread pairs seeks), and ``tabula bot run``
answering challenges by its filter: accepted from an allowed account to an
allowed game, declined otherwise."""

import time
import uuid

import pytest

from tabula_client.errors import Conflict
from tabula_client.meet import account_seat, ai_seat

from .test_bot_run import start_bot
from .test_bot_run_served import STARTER, stop

PAIRED_WITHIN_S = 15


def fresh(api, kind="human"):
    name = f"m{uuid.uuid4().hex[:10]}"
    return name, api.with_token(api.sign_up(name, kind)["token"])


def test_challenge_methods(api):
    (_, ada), (bob_name, bob) = fresh(api), fresh(api)
    made = ada.create_challenge("anno1452", [account_seat(bob_name), ai_seat("easy")], rated=True)
    assert made["status"] == "pending" and bob.challenge(made["id"])["id"] == made["id"]
    assert [c["id"] for c in bob.challenges()] == [made["id"]]
    started = bob.accept_challenge(made["id"])
    assert started["status"] == "started" and ada.get_match(started["match_id"])["rated"] is True
    with pytest.raises(Conflict):
        ada.cancel_challenge(made["id"])
    other = ada.create_challenge("anno1503", [account_seat(bob_name)])
    assert bob.decline_challenge(other["id"])["status"] == "declined"
    third = ada.create_challenge("anno1503", [account_seat(bob_name)])
    assert ada.cancel_challenge(third["id"])["status"] == "cancelled"


def test_seek_methods_and_the_workers_waves(api):
    (_, ada), (_, bob), (_, cy) = fresh(api), fresh(api), fresh(api)
    gone = cy.create_seek("anno1503-expansion")
    assert cy.cancel_seek(gone["id"])["status"] == "cancelled"
    mine = ada.create_seek("anno1503-expansion", counts=[2])
    bob.create_seek("anno1503-expansion", counts=[2, 3])
    deadline = time.monotonic() + PAIRED_WITHIN_S
    while ada.seeks()[0]["status"] == "waiting":
        assert time.monotonic() < deadline, "no wave paired the two seekers"
        time.sleep(0.2)
    (a,), (b,) = ada.seeks(), bob.seeks()
    assert a["id"] == mine["id"] and a["status"] == b["status"] == "matched"
    assert a["match_id"] == b["match_id"]
    match = ada.get_match(a["match_id"])
    assert match["you"] == a["seat"] and match["options"]["expansion"] == "pirates_aristocrats"
    assert cy.seeks()[0]["status"] == "cancelled"


def test_bot_run_accepts_challenges_by_its_filter(api, server_url, tmp_path):
    bot_name, bot_client = fresh(api, "bot")
    friend_name, friend = fresh(api)
    _, stranger = fresh(api)
    token = bot_client.token
    early = friend.create_challenge("anno1452", [account_seat(bot_name)])  # pending at its start
    out_file = tmp_path / "bot.out"
    flags = ["--challenge-game", "anno1452", "--challenge-from", friend_name]
    with out_file.open("w") as out:
        bot = start_bot(server_url, *flags, bot=STARTER, token=token, stdout=out)
    try:
        time.sleep(1.5)  # the stream is open
        wrong_game = friend.create_challenge("anno1503", [account_seat(bot_name)])
        wrong_person = stranger.create_challenge("anno1452", [account_seat(bot_name)])
        right = friend.create_challenge("anno1452", [account_seat(bot_name)], rated=True)
        deadline = time.monotonic() + 15
        ids = (early["id"], wrong_game["id"], wrong_person["id"], right["id"])
        while any(
            friend.challenge(c)["status"] == "pending" for c in (early["id"], wrong_game["id"], right["id"])
        ) or (stranger.challenge(wrong_person["id"])["status"] == "pending"):
            assert time.monotonic() < deadline, [bot_client.challenge(c)["status"] for c in ids]
            time.sleep(0.2)
        while not all(c in out_file.read_text() for c in ids):  # the bot's lines, before its Ctrl-C
            assert time.monotonic() < deadline, out_file.read_text()
            time.sleep(0.2)
    except BaseException:
        bot.kill()
        bot.communicate()
        raise
    lines = stop(bot, out_file)
    assert friend.challenge(early["id"])["status"] == "started"
    assert friend.challenge(right["id"])["status"] == "started"
    assert friend.challenge(wrong_game["id"])["status"] == "declined"
    assert stranger.challenge(wrong_person["id"])["status"] == "declined"
    kinds = {line.get("challenge_id"): line["kind"] for line in lines if "challenge_id" in line}
    assert kinds[right["id"]] == "challenge_accepted" and kinds[wrong_game["id"]] == "challenge_declined"
