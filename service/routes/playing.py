"""Playing: list a seat's legal actions, post one."""

import functools

import marshmallow as ma
from flask import current_app, g, request
from flask.views import MethodView
from flask_smorest import Blueprint

from ..fast_dump import compile_dump
from ..guards import read_match
from ..playing import Submission, legal_actions, submit_action
from ..schemas import MAX_SEED, ActionListSchema, ActionResultSchema, PostActionSchema
from ..tokens import hash_token, seat_in
from .common import BEARER, documents_errors, services, token, version_header

blp = Blueprint("playing", __name__, url_prefix="/v1/matches",
                description="The legal actions of your seat; post one.")


class ActionHeadersSchema(ma.Schema):
    if_match = ma.fields.String(data_key="If-Match", metadata={
        "description": "`\"<version>\"`: refused with 412 unless the match is at that version."})
    idempotency_key = ma.fields.String(data_key="Idempotency-Key", validate=ma.validate.Length(1, 255),
                                       metadata={"description": (
                                           "Same key and body within 24 h: the first response "
                                           "again, nothing applied twice; other body: 422.")})


def _load_with_seat(match_id):
    """The match and the bearer's seat in it: one Redis round trip, which also
    counts the request for the rate limit (hence ``defers_rate_limit``)."""
    bearer = token()
    store = services().store
    stored = read_match(store, match_id, hash_token(bearer) if bearer else None)
    return stored, seat_in(store, stored, match_id, bearer)


_dump_action_result = compile_dump(ActionResultSchema())
_BODY_KEYS = frozenset({"action", "version"})


def _plain_arguments():
    """``(headers, body)`` as the two ``@blp.arguments`` of ``post`` would load
    them, when the request is one they certainly accept unchanged; else None.

    Only these shapes are taken: a JSON object (already parsed by
    guards.check_json_body) holding an object ``action`` and an optional
    integer ``version`` in range, nothing else; an ``Idempotency-Key`` of 1
    to 255 characters. For them webargs' result is equal dicts, so the route
    cannot tell the difference; anything else goes through webargs, which
    answers its own 422 exactly as before.
    """
    body = g.get("json_body")
    if body is None or not body.keys() <= _BODY_KEYS or type(body.get("action")) is not dict:
        return None
    version = body.get("version", 0)
    if type(version) is not int or not 0 <= version <= MAX_SEED:
        return None
    headers = {}
    if_match = request.headers.get("If-Match")
    if if_match is not None:
        headers["if_match"] = if_match
    key = request.headers.get("Idempotency-Key")
    if key is not None:
        if not 1 <= len(key) <= 255:
            return None
        headers["idempotency_key"] = key
    return headers, body


def _fast_path(documented):
    """The move is the API's hot path: a plain request skips flask-smorest's
    argument parsing and marshmallow's response dump (together about a quarter
    of a move's CPU in a profile). ``documented`` (the decorated method) keeps
    the spec and serves every other request."""

    @functools.wraps(documented)
    def post(self, match_id):
        arguments = _plain_arguments()
        if arguments is None:
            return documented(self, match_id=match_id)
        result = _post_action(*arguments, match_id)
        # What @blp.response(200, ActionResultSchema) answers: the schema's
        # dump through app.json.
        return current_app.json.response(_dump_action_result(result))

    return post


@blp.route("/<match_id>/actions")
class Actions(MethodView):
    defers_rate_limit = True

    @blp.doc(operationId="listActions", security=BEARER)
    @blp.response(200, ActionListSchema)
    @documents_errors(blp, 401, 403, 404)
    def get(self, match_id):
        """Every legal action of your seat now (empty when you have nothing to decide)."""
        stored, seat = _load_with_seat(match_id)
        return legal_actions(services(), match_id, seat, stored)

    @_fast_path
    @blp.doc(operationId="postAction", security=BEARER)
    @blp.arguments(ActionHeadersSchema(), location="headers")
    @blp.arguments(PostActionSchema())
    @blp.response(200, ActionResultSchema)
    @documents_errors(blp, 400, 401, 403, 404, 409, 412, 413, conflict=(
        "`illegal_action` (`details.reason` names the rule), `not_your_turn` (also while the "
        "match waits for players), `game_over`, `version_conflict` (`details.current_version`)."))
    def post(self, headers, body, match_id):
        """Play one action; every element of the action list can be posted unchanged."""
        return _post_action(headers, body, match_id)


def _post_action(headers, body, match_id):
    stored, seat = _load_with_seat(match_id)
    if_match = headers.get("if_match")
    submission = Submission(
        seat, body["action"], version=body.get("version"),
        if_match=version_header(if_match) if if_match is not None else None,
        idempotency_key=headers.get("idempotency_key"), body=body,
    )
    return submit_action(services(), match_id, submission, stored)
