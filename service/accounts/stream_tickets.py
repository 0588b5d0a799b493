"""Account stream tickets: ``POST /v1/account/stream-ticket`` gives a
short-lived (``STREAM_TICKET_TTL_S``), single-use ``?ticket=`` for
``GET /v1/account/stream``, for clients that cannot send ``Authorization``
(a browser's EventSource), as the match streams' tickets. The ticket stands
for the token that asked for it: a token revoked or expired since, or
without ``match:read``, opens nothing.
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING

from service.accounts.auth import Principal, live_principal, require, require_scope
from service.model.clock import iso_utc
from service.model.errors import unauthorized
from service.model.tokens import hash_token
from service.storage import accounts as stored

if TYPE_CHECKING:
    from service.runtime.services import Services

READ = "match:read"


def new_stream_ticket(services: Services, bearer: str | None) -> dict[str, str]:
    """``{"ticket", "expires_at"}`` for the bearer's account (``match:read``)."""
    require(services, bearer, READ)
    ttl_s = int(services.config["STREAM_TICKET_TTL_S"])
    ticket = secrets.token_urlsafe(32)
    stored.put_stream_ticket(services.redis, hash_token(ticket), hash_token(str(bearer)), ttl_s)
    return {"ticket": ticket, "expires_at": iso_utc(int((time.time() + ttl_s) * 1000))}


def ticket_principal(services: Services, ticket: str) -> Principal:
    """The account a ticket opens the stream of (401 for an unknown, used or
    expired ticket, or a token revoked since; 403 without ``match:read``)."""
    token_hash = stored.take_stream_ticket(services.redis, hash_token(ticket))
    if token_hash is None:
        raise unauthorized("unknown, used or expired stream ticket")
    principal = live_principal(services, token_hash)
    if principal is None:
        raise unauthorized("the ticket's token was revoked")
    return require_scope(principal, READ)
