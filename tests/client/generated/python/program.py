"""A bot's first steps with the client openapi-python-client generates from
openapi.yaml (imported as ``tabula_api``); tests/client/test_generated_clients.py
checks it with ``mypy --strict`` and runs it against a real server."""

import time

from tabula_api import AuthenticatedClient, Client
from tabula_api.api.accounts import create_account
from tabula_api.api.matches import create_match
from tabula_api.api.playing import list_actions, post_action
from tabula_api.models import (
    AccountKind,
    ActionResult,
    AiLevel,
    AiSeatRequest,
    Anno1503ActionList,
    Anno1503BoughtEvent,
    Anno1503BuyAction,
    Anno1503Commodity,
    Anno1503CreateMatch,
    Anno1503MoveShipAction,
    Anno1503View,
    CreatedMatch,
    HumanSeatRequest,
    IllegalActionError,
    PostAction,
    RateLimitedError,
    SignedUp,
    SignUp,
    VersionError,
)

Choice = Anno1503BuyAction | Anno1503MoveShipAction


def _choose(listed: Anno1503ActionList) -> Choice | None:
    """A buy or a ship move when one is legal (rebuilt, as a bot would), else None."""
    for action in listed.actions:
        if isinstance(action, Anno1503BuyAction):
            return Anno1503BuyAction(type_="buy", commodity=action.commodity)
        if isinstance(action, Anno1503MoveShipAction):
            row, col = action.to
            return Anno1503MoveShipAction(type_="move_ship", ship=action.ship, to=[row, col])
    return None


def _my_turn(seat: AuthenticatedClient, match_id: str) -> Anno1503ActionList | str:
    """The seat's actions once it has some (the AI may move first), or why not."""
    for _ in range(100):
        listed = list_actions.sync(match_id, client=seat)
        if not isinstance(listed, Anno1503ActionList):
            return f"no Anno 1503 action list: {listed!r}"
        if listed.actions:
            return listed
        time.sleep(0.1)
    return "never my turn"


def _seen(result: ActionResult) -> str:
    """The view narrowed by its game, the events by their type."""
    view = result.match.view
    when = f"turn {view.turn}" if isinstance(view, Anno1503View) else "another game"
    bought: list[Anno1503Commodity] = [event.data.commodity for event in result.events
                                        if isinstance(event, Anno1503BoughtEvent)]
    return f"{when}, bought {', '.join(c.value for c in bought) or 'nothing'}"


def first_move(base_url: str) -> str:
    """Sign up a bot account, create a match against the AI with its token,
    post one legal action with the seat's token; what happened."""
    name = f"gen-{time.time_ns() % 10**12}"
    signed = create_account.sync(client=Client(base_url=base_url), body=SignUp(name=name, kind=AccountKind.BOT))
    if not isinstance(signed, SignedUp):
        return f"not signed up: {signed!r}"
    bot = AuthenticatedClient(base_url=base_url, token=signed.token)
    created = create_match.sync(client=bot, body=Anno1503CreateMatch(
        game="anno1503", seats=[HumanSeatRequest(kind="human"),
                                AiSeatRequest(kind="ai", level=AiLevel.HARD)]))
    if not isinstance(created, CreatedMatch):
        return f"not created: {created!r}"
    seat = AuthenticatedClient(base_url=base_url, token=created.tokens["0"])
    listed = _my_turn(seat, created.match.id)
    if not isinstance(listed, Anno1503ActionList):
        return listed
    posted = post_action.sync(created.match.id, client=seat, idempotency_key="first-move",
                              body=PostAction(action=_choose(listed) or listed.actions[0],
                                              version=listed.version))
    if isinstance(posted, IllegalActionError):
        return f"refused by rule {posted.details.reason}"
    if isinstance(posted, VersionError):
        return f"stale: the match is at {posted.details.current_version}"
    if isinstance(posted, RateLimitedError):
        return f"retry in {posted.details.retry_after_s} s"
    if isinstance(posted, ActionResult):
        return f"played: version {posted.version}; {_seen(posted)}"
    return f"unexpected: {posted!r}"
