"""The client's error classes (tabula_client.errors), without a server: every
public class keeps its name, code, attributes and place in the hierarchy
(users catch them), and an error answer turns into the class of its code."""

import httpx
import pytest

import tabula_client
from tabula_client import errors

# class name -> (code, bases from the nearest to TabulaError)
HIERARCHY = {
    "AccountTokenRequired": ("account_token_required", ("Forbidden", "TabulaError")),
    "AlreadySeated": ("already_seated", ("Conflict", "TabulaError")),
    "BadRequest": ("bad_request", ("TabulaError",)),
    "Conflict": ("conflict", ("TabulaError",)),
    "Forbidden": ("forbidden", ("TabulaError",)),
    "GameOver": ("game_over", ("Conflict", "TabulaError")),
    "IllegalAction": ("illegal_action", ("Conflict", "TabulaError")),
    "MethodNotAllowed": ("method_not_allowed", ("TabulaError",)),
    "NameTaken": ("name_taken", ("Conflict", "TabulaError")),
    "NotEnoughReplicas": ("not_enough_replicas", ("Unavailable", "_SaysWhenToRetry", "TabulaError")),
    "NotFound": ("not_found", ("TabulaError",)),
    "NotYourTurn": ("not_your_turn", ("Conflict", "TabulaError")),
    "PayloadTooLarge": ("payload_too_large", ("TabulaError",)),
    "PreconditionFailed": ("precondition_failed", ("_NamesCurrentVersion", "TabulaError")),
    "RateLimited": ("rate_limited", ("_SaysWhenToRetry", "TabulaError")),
    "SeatTaken": ("seat_taken", ("Conflict", "TabulaError")),
    "ServerError": ("internal_error", ("TabulaError",)),
    "StreamBehind": ("too_far_behind", ("TabulaError",)),
    "Unauthorized": ("unauthorized", ("TabulaError",)),
    "Unavailable": ("unavailable", ("TabulaError",)),
    "ValidationError": ("validation_error", ("TabulaError",)),
    "VersionConflict": ("version_conflict", ("_NamesCurrentVersion", "Conflict", "TabulaError")),
    "WebhookTargetForbidden": ("webhook_target_forbidden", ("Forbidden", "TabulaError")),
}


def _answer(status, body, headers=None):
    return httpx.Response(status, json=body, headers=headers, request=httpx.Request("GET", "http://x/"))


@pytest.mark.parametrize("name", sorted(HIERARCHY))
def test_every_class_keeps_its_code_docstring_and_bases(name):
    cls = getattr(tabula_client, name)
    assert cls is getattr(errors, name) and name in tabula_client.__all__
    code, bases = HIERARCHY[name]
    assert cls.code == code
    assert tuple(b.__name__ for b in cls.__mro__[1:-3]) == bases
    assert cls.__doc__ and cls.__doc__.strip()
    assert errors.ERROR_CLASSES[code] is cls


def test_the_table_has_exactly_these_codes():
    assert {cls.__name__ for cls in errors.ERROR_CLASSES.values()} == set(HIERARCHY)


def test_an_answer_becomes_the_class_of_its_code_with_its_details():
    error = errors.error_from_response(
        _answer(409, {"error": "illegal_action", "message": "no", "details": {"reason": "no_gold"}})
    )
    assert type(error) is errors.IllegalAction and isinstance(error, errors.Conflict)
    assert (error.status, error.code, error.message, error.reason) == (409, "illegal_action", "no", "no_gold")
    assert str(error) == "409 illegal_action: no"
    stale = errors.error_from_response(
        _answer(409, {"error": "version_conflict", "message": "m", "details": {"current_version": 7}})
    )
    assert isinstance(stale, errors.VersionConflict) and stale.current_version == 7
    invalid = errors.error_from_response(
        _answer(422, {"error": "validation_error", "message": "m", "details": {"fields": {"a": ["x"]}}})
    )
    assert isinstance(invalid, errors.ValidationError) and invalid.fields == {"a": ["x"]}
    scope = errors.error_from_response(
        _answer(403, {"error": "forbidden", "message": "m", "details": {"missing_scope": "match:play"}})
    )
    assert isinstance(scope, errors.Forbidden) and scope.missing_scope == "match:play"
    assert errors.Forbidden(403, "forbidden", "not your seat").missing_scope is None
    refused = errors.error_from_response(
        _answer(403, {"error": "webhook_target_forbidden", "message": "m", "details": {"reason": "r"}})
    )
    assert isinstance(refused, errors.Forbidden) and refused.reason == "r" and refused.missing_scope is None
    seat_token = errors.error_from_response(_answer(403, {"error": "account_token_required", "message": "m"}))
    assert type(seat_token) is errors.AccountTokenRequired and isinstance(seat_token, errors.Forbidden)
    taken = errors.error_from_response(_answer(409, {"error": "name_taken", "message": "m", "details": {}}))
    assert isinstance(taken, errors.NameTaken) and isinstance(taken, errors.Conflict)


def test_rate_limited_reads_retry_after_from_the_header_then_the_details():
    limited = errors.error_from_response(
        _answer(429, {"error": "rate_limited", "message": "m", "details": {}}, {"Retry-After": "3"})
    )
    assert isinstance(limited, errors.RateLimited) and limited.retry_after == 3.0
    from_details = errors.RateLimited(429, "rate_limited", "m", {"retry_after_s": 2})
    assert from_details.retry_after == 2


def test_not_enough_replicas_is_unavailable_with_retry_after():
    body = {
        "error": "not_enough_replicas",
        "message": "m",
        "details": {"retry_after_s": 5, "replicas": 0, "required_replicas": 1},
    }
    refused = errors.error_from_response(_answer(503, body, {"Retry-After": "5"}))
    assert type(refused) is errors.NotEnoughReplicas and isinstance(refused, errors.Unavailable)
    assert refused.retry_after == 5.0 and refused.details["required_replicas"] == 1


def test_unknown_codes_and_foreign_answers():
    newer = errors.error_from_response(_answer(418, {"error": "teapot", "message": "m"}))
    assert type(newer) is errors.TabulaError and newer.code == "teapot"
    proxy = httpx.Response(502, text="Bad gateway", request=httpx.Request("GET", "http://x/"))
    crashed = errors.error_from_response(proxy)
    assert type(crashed) is errors.ServerError and crashed.code == "internal_error"
    unavailable = errors.error_from_response(_answer(503, {"error": "unknown_thing", "message": "m"}))
    assert type(unavailable) is errors.TabulaError
    plain = httpx.Response(404, text="", request=httpx.Request("GET", "http://x/"))
    assert errors.error_from_response(plain).code == "http_404"


def test_a_users_subclass_is_not_registered():
    class MyNotFound(errors.NotFound):
        pass

    assert MyNotFound.code == "not_found"
    assert errors.ERROR_CLASSES["not_found"] is errors.NotFound
