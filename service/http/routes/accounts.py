"""Accounts and personal access tokens (docs/accounts.md): thin routes over
service/accounts."""

from typing import Any

from flask import request
from flask.views import MethodView

from service.accounts import profiles, signup, tokens
from service.accounts.auth import require
from service.http.routes.common import BEARER, Blueprint, documents_errors, services, token
from service.spec.account_schemas import (
    AccountSchema,
    AppAccountSchema,
    MintedTokenSchema,
    NewTokenSchema,
    ProfileSchema,
    SignedUpSchema,
    SignUpSchema,
    TokenSchema,
)

blp = Blueprint(
    "accounts",
    __name__,
    url_prefix="/v1",
    description="Player and bot accounts, and their personal access tokens with scopes.",
)

UNAUTHORIZED = "`unauthorized`: account token missing, unknown, revoked or expired."
FORBIDDEN = "`forbidden`: the token lacks the route's scope (`details.missing_scope` names it)."
SCOPED = {401: UNAUTHORIZED, 403: FORBIDDEN}


def scoped(scope: str) -> dict[str, Any]:
    return {"security": BEARER, "description": f"Scope: `{scope}`."}


@blp.route("/accounts")
class Accounts(MethodView):
    @blp.doc(operationId="createAccount")
    @blp.arguments(SignUpSchema)
    @blp.response(201, SignedUpSchema)
    @documents_errors(
        blp,
        400,
        403,
        409,
        413,
        texts={
            403: "`forbidden`: sign-up is closed and the bearer is not the operator key.",
            409: "`name_taken`: an account has this name (ignoring case and width).",
        },
    )
    def post(self, body: dict[str, Any]) -> Any:
        """Sign up: the account and its first token (all scopes), shown once."""
        return signup.sign_up(services(), body, token(), request.remote_addr or "unknown"), 201


@blp.route("/apps/accounts/<string(minlength=1, maxlength=128):external_id>")
class AppAccount(MethodView):
    @blp.doc(operationId="putAppAccount", security=BEARER)
    @blp.arguments(AppAccountSchema)
    @blp.response(201, SignedUpSchema, description="The account was made by this call.")
    @blp.alt_response(200, schema=SignedUpSchema, description="The app user's account, found.")
    @documents_errors(
        blp,
        400,
        401,
        409,
        413,
        texts={
            401: "`unauthorized`: the bearer is not an app key of this server.",
            409: "`name_taken` (on creation), or `conflict`: the app user's account is closed.",
        },
    )
    def put(self, body: dict[str, Any], external_id: str) -> Any:
        """An app's own user: make (201) or find (200) its account; a new token each call."""
        return signup.app_account(services(), token(), external_id, body)


@blp.route("/account")
class OwnAccount(MethodView):
    @blp.doc(operationId="getOwnAccount", **scoped("account:read"))
    @blp.response(200, AccountSchema)
    @documents_errors(blp, 401, 403, texts=SCOPED)
    def get(self) -> dict[str, Any]:
        """The bearer's own account."""
        return profiles.own_account(services(), require(services(), token(), "account:read"))

    @blp.doc(operationId="closeAccount", **scoped("account:write"))
    @blp.response(204)
    @documents_errors(blp, 401, 403, texts=SCOPED)
    def delete(self) -> None:
        """Close the account: every token revoked; results kept under `closed-<id suffix>`."""
        profiles.close_account(services(), require(services(), token(), "account:write"))


@blp.route("/accounts/<name>")
class Profile(MethodView):
    @blp.doc(operationId="getProfile")
    @blp.response(200, ProfileSchema)
    @documents_errors(blp, 404)
    def get(self, name: str) -> dict[str, Any]:
        """An account's public profile, by name."""
        return profiles.profile(services(), name)


@blp.route("/account/tokens")
class Tokens(MethodView):
    @blp.doc(operationId="listTokens", **scoped("account:read"))
    @blp.response(200, TokenSchema(many=True))
    @documents_errors(blp, 401, 403, texts=SCOPED)
    def get(self) -> list[dict[str, Any]]:
        """The account's tokens (never the tokens themselves), oldest first."""
        return tokens.list_tokens(services(), require(services(), token(), "account:read"))

    @blp.doc(operationId="createToken", **scoped("account:write"))
    @blp.arguments(NewTokenSchema)
    @blp.response(201, MintedTokenSchema)
    @documents_errors(blp, 400, 401, 403, 413, texts=SCOPED)
    def post(self, body: dict[str, Any]) -> Any:
        """A new personal access token, shown once."""
        principal = require(services(), token(), "account:write")
        minted = tokens.mint_token(
            services(), principal.aid, body["label"], body["scopes"], body.get("expires_in_s")
        )
        return minted, 201


@blp.route("/account/tokens/<token_id>")
class OneToken(MethodView):
    @blp.doc(operationId="revokeToken", **scoped("account:write"))
    @blp.response(204)
    @documents_errors(blp, 401, 403, 404, texts=SCOPED)
    def delete(self, token_id: str) -> None:
        """Revoke a token, at once on every API process."""
        tokens.revoke_token(services(), require(services(), token(), "account:write"), token_id)
