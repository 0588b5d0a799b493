"""tabula_client: a typed, synchronous Python client for the Tabula API.

from tabula_client import Client
with Client("http://127.0.0.1:8000") as api:
    created = api.create_match("anno1503", [{"kind": "human", "name": "Ada"},
                                            {"kind": "ai", "level": "easy"}])
"""

from .account_stream import AccountStream
from .client import OPERATIONS, Client
from .errors import (
    AccountTokenRequired,
    AlreadySeated,
    BadRequest,
    Conflict,
    Forbidden,
    GameOver,
    IllegalAction,
    MethodNotAllowed,
    NameTaken,
    NotEnoughReplicas,
    NotFound,
    NotYourTurn,
    PayloadTooLarge,
    PreconditionFailed,
    RateLimited,
    SeatTaken,
    ServerError,
    StreamBehind,
    TabulaError,
    Unauthorized,
    Unavailable,
    ValidationError,
    VersionConflict,
    WebhookTargetForbidden,
)
from .stream import EventFollower

__version__ = "0.1.0"

__all__ = [
    "OPERATIONS",
    "AccountStream",
    "AccountTokenRequired",
    "AlreadySeated",
    "BadRequest",
    "Client",
    "Conflict",
    "EventFollower",
    "Forbidden",
    "GameOver",
    "IllegalAction",
    "MethodNotAllowed",
    "NameTaken",
    "NotEnoughReplicas",
    "NotFound",
    "NotYourTurn",
    "PayloadTooLarge",
    "PreconditionFailed",
    "RateLimited",
    "SeatTaken",
    "ServerError",
    "StreamBehind",
    "TabulaError",
    "Unauthorized",
    "Unavailable",
    "ValidationError",
    "VersionConflict",
    "WebhookTargetForbidden",
    "__version__",
]
