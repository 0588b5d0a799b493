"""Playing: list a seat's legal actions, post one."""

import marshmallow as ma
from flask import g
from flask.views import MethodView

from service.http.rate_limit import load_charged
from service.http.routes.common import BEARER, Blueprint, documents_errors, services, token, version_header
from service.model.tokens import hash_token, seat_in
from service.play import idempotency
from service.play.moves import Submission, legal_actions, submit_action
from service.spec.play_schemas import ActionListSchema, ActionResultSchema, PostActionSchema

blp = Blueprint(
    "playing", __name__, url_prefix="/v1/matches", description="The legal actions of your seat; post one."
)


class ActionHeadersSchema(ma.Schema):
    if_match = ma.fields.String(
        data_key="If-Match",
        metadata={"description": '`"<version>"`: refused with 412 unless the match is at that version.'},
    )
    idempotency_key = ma.fields.String(
        data_key="Idempotency-Key",
        validate=ma.validate.Length(1, 255),
        metadata={
            "description": (
                "Same key and body within 24 h: the first response "
                "again, nothing applied twice; other body: 422."
            )
        },
    )


def _load(services, bearer, charge, match_id):
    """The match as the bearer's token sees it: one Redis round trip, which
    also counts the request for the rate limit (hence ``defers_rate_limit``;
    ``charge`` is that deferred count, rate_limit.RateCharge or None)."""
    return load_charged(services.store, match_id, hash_token(bearer) if bearer else None, charge)


def _load_with_seat(services, bearer, charge, match_id):
    """The match and the bearer's seat in it (404, 401, 403 otherwise)."""
    stored = _load(services, bearer, charge, match_id)
    return stored, seat_in(services.store, stored, match_id, bearer)


@blp.route("/<match_id>/actions")
class Actions(MethodView):
    defers_rate_limit = True

    @blp.doc(operationId="listActions", security=BEARER)
    @blp.response(200, ActionListSchema)
    @documents_errors(blp, 401, 403, 404)
    def get(self, match_id):
        """Every legal action of your seat now (empty when you have nothing to decide)."""
        stored, seat = _load_with_seat(services(), token(), g.pop("rate_charge", None), match_id)
        return legal_actions(services(), match_id, seat, stored)

    @blp.doc(operationId="postAction", security=BEARER)
    @blp.arguments(ActionHeadersSchema(), location="headers")
    @blp.arguments(PostActionSchema())
    @blp.response(200, ActionResultSchema)
    @documents_errors(
        blp,
        400,
        401,
        403,
        404,
        409,
        412,
        413,
        conflict=(
            "`illegal_action` (`details.reason` names the rule; `other_game_action`: a well-formed "
            "action of another game), `not_your_turn` (also while the match waits for players), "
            "`game_over`, `version_conflict` (`details.current_version`)."
        ),
    )
    def post(self, headers, body, match_id):
        """Play one action; every element of the action list can be posted unchanged."""
        # A plain request never gets here: service/http/move_lane.py answers it
        # (the same operation, without Flask's request machinery).
        return post_action(services(), token(), g.pop("rate_charge", None), headers, body, match_id)


def post_action(services, bearer, charge, headers, body, match_id):
    """POST .../actions once its arguments are loaded: ``headers`` and ``body`` as
    the two ``@blp.arguments`` of ``Actions.post`` give them; ``charge`` as in
    ``_load_with_seat``."""
    stored = _load(services, bearer, charge, match_id)
    record_key = idempotency.record_key(match_id, bearer, headers.get("idempotency_key"))
    if stored is not None and record_key is not None:
        # A retry gets its first answer before the token is checked: that
        # first attempt may have revoked it (its seat was handed to the AI).
        replay = idempotency.stored_response(services, record_key, idempotency.fingerprint(body))
        if replay is not None:
            return replay
    seat = seat_in(services.store, stored, match_id, bearer)
    if_match = headers.get("if_match")
    submission = Submission(
        seat,
        body["action"],
        version=body.get("version"),
        if_match=version_header(if_match) if if_match is not None else None,
        record_key=record_key,
        body=body,
        record_checked=True,
    )
    return submit_action(services, match_id, submission, stored)
