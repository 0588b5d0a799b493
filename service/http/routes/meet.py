"""Challenges and seeks ("Play now"; docs/matchmaking.md): thin routes over service/meet."""

from typing import Any

from flask.views import MethodView

from service.accounts.auth import require
from service.http.routes.common import SCOPED, Blueprint, documents_errors, scoped, services, token
from service.meet import challenges, seeks
from service.meet.schemas import ChallengeSchema, CreateChallengeSchema, CreateSeekSchema, SeekSchema

blp = Blueprint(
    "meet",
    __name__,
    url_prefix="/v1",
    description="Meet opponents: challenge accounts by name, or seek a table in a rating pool (Play now).",
)

CLOSED = "`conflict`: the challenge is no longer pending (`details.state`)."
NO_SUCH = "`not_found`: an unknown game, or an invited name no account has (`details.name`)."


@blp.route("/challenges")
class Challenges(MethodView):
    @blp.doc(operationId="createChallenge", **scoped(challenges.CREATE))
    @blp.arguments(CreateChallengeSchema)
    @blp.response(201, ChallengeSchema)
    @documents_errors(blp, 400, 401, 403, 404, 413, texts={**SCOPED, 404: NO_SUCH})
    def post(self, body: dict[str, Any]) -> Any:
        """Challenge accounts by name to a match: each gets a `challenge` event (account stream,
        webhook). The challenger holds seat 0. Once every invited account accepted, the match
        (id: the challenge's) starts. Rate limited per account (`CHALLENGE_RATE_LIMIT`)."""
        principal = require(services(), token(), challenges.CREATE)
        return challenges.create_challenge(services(), principal, body), 201

    @blp.doc(operationId="listChallenges", **scoped(challenges.READ))
    @blp.response(200, ChallengeSchema(many=True))
    @documents_errors(blp, 401, 403, texts=SCOPED)
    def get(self) -> list[dict[str, Any]]:
        """The account's challenges, sent and received, newest first."""
        principal = require(services(), token(), challenges.READ)
        return challenges.my_challenges(services(), principal)


@blp.route("/challenges/<challenge_id>")
class OneChallenge(MethodView):
    @blp.doc(operationId="getChallenge", **scoped(challenges.READ))
    @blp.response(200, ChallengeSchema)
    @documents_errors(blp, 401, 403, 404, texts=SCOPED)
    def get(self, challenge_id: str) -> dict[str, Any]:
        """A challenge the account sent or received (404 for others)."""
        principal = require(services(), token(), challenges.READ)
        return challenges.get_challenge(services(), principal, challenge_id)

    @blp.doc(operationId="cancelChallenge", **scoped(challenges.CREATE))
    @blp.response(200, ChallengeSchema)
    @documents_errors(blp, 401, 403, 404, 409, conflict=CLOSED, texts=SCOPED)
    def delete(self, challenge_id: str) -> dict[str, Any]:
        """The challenger cancels a pending challenge."""
        principal = require(services(), token(), challenges.CREATE)
        return challenges.respond(services(), principal, challenge_id, "cancel")


@blp.route("/challenges/<challenge_id>/accept")
class AcceptChallenge(MethodView):
    @blp.doc(operationId="acceptChallenge", **scoped(challenges.RESPOND))
    @blp.response(200, ChallengeSchema)
    @documents_errors(blp, 401, 403, 404, 409, conflict=CLOSED, texts=SCOPED)
    def post(self, challenge_id: str) -> dict[str, Any]:
        """An invited account accepts; the last acceptance starts the match (`match_id`).
        Accepting again is harmless."""
        principal = require(services(), token(), challenges.RESPOND)
        return challenges.respond(services(), principal, challenge_id, "accept")


@blp.route("/challenges/<challenge_id>/decline")
class DeclineChallenge(MethodView):
    @blp.doc(operationId="declineChallenge", **scoped(challenges.RESPOND))
    @blp.response(200, ChallengeSchema)
    @documents_errors(blp, 401, 403, 404, 409, conflict=CLOSED, texts=SCOPED)
    def post(self, challenge_id: str) -> dict[str, Any]:
        """An invited account declines: the challenge is over."""
        principal = require(services(), token(), challenges.RESPOND)
        return challenges.respond(services(), principal, challenge_id, "decline")


@blp.route("/seeks")
class Seeks(MethodView):
    @blp.doc(operationId="createSeek", **scoped(seeks.SCOPE))
    @blp.arguments(CreateSeekSchema)
    @blp.response(201, SeekSchema)
    @documents_errors(
        blp,
        400,
        401,
        403,
        409,
        413,
        conflict="`conflict`: the account already seeks in this pool (`details.seek_id`).",
        texts=SCOPED,
    )
    def post(self, body: dict[str, Any]) -> Any:
        """Play now: wait in a rating pool to be paired (waves every `SEEK_WAVE_S`). The seek
        lives while the account's stream is open, or `SEEK_TTL_S` after each `GET /v1/seeks`.
        Paired: `match_started` on the account stream; the account token plays its seat."""
        principal = require(services(), token(), seeks.SCOPE)
        return seeks.create_seek(services(), principal, body), 201

    @blp.doc(operationId="listSeeks", **scoped(seeks.READ))
    @blp.response(200, SeekSchema(many=True))
    @documents_errors(blp, 401, 403, texts=SCOPED)
    def get(self) -> list[dict[str, Any]]:
        """The account's seeks (waiting, and those that left their pool in the last hour),
        newest first; renews the waiting ones."""
        principal = require(services(), token(), seeks.READ)
        return seeks.my_seeks(services(), principal)


@blp.route("/seeks/<seek_id>")
class OneSeek(MethodView):
    @blp.doc(operationId="cancelSeek", **scoped(seeks.SCOPE))
    @blp.response(200, SeekSchema)
    @documents_errors(
        blp,
        401,
        403,
        404,
        409,
        conflict="`conflict`: the seek was paired (`details.match_id`) or expired.",
        texts=SCOPED,
    )
    def delete(self, seek_id: str) -> dict[str, Any]:
        """Cancel a waiting seek: a cancelled seek is never paired."""
        principal = require(services(), token(), seeks.SCOPE)
        return seeks.cancel_seek(services(), principal, seek_id)
