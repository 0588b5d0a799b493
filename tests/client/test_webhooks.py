"""tabula_client.webhooks.verify: the signature scheme of the webhook
deliveries (``Tabula-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret,
"<t>.<body>")>``), computed here with hmac as a receiver would."""

import hashlib
import hmac

import pytest

from tabula_client import webhooks
from tabula_client.errors import NotFound
from tabula_client.webhooks import verify

SECRET = "whsec_test"
T = 1700000000
BODY = b'{"type":"ping"}'


def sign(secret, t, body):
    return hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()


def test_the_worked_example_verifies():
    expected = sign(SECRET, T, BODY)
    assert webhooks.signature(SECRET, T, BODY) == expected
    assert verify(SECRET, BODY, f"t={T},v1={expected}", now=T)
    assert verify(SECRET, BODY, f"t={T}, v1={expected.upper()}", now=T + 299)  # spaces, hex case


def test_a_tampered_body_a_wrong_secret_or_a_malformed_header_is_refused():
    header = f"t={T},v1={sign(SECRET, T, BODY)}"
    assert not verify(SECRET, b'{"type":"pong"}', header, now=T)
    assert not verify("whsec_other", BODY, header, now=T)
    assert not verify(SECRET, BODY, header.replace(f"t={T}", f"t={T + 1}"), now=T)  # t is signed too
    for bad in (None, "", "v1=abc", f"t={T}", f"t=soon,v1={sign(SECRET, T, BODY)}", f"t={T},v1=é"):
        assert not verify(SECRET, BODY, bad, now=T)


def test_a_stale_or_future_timestamp_is_refused():
    header = f"t={T},v1={sign(SECRET, T, BODY)}"
    assert verify(SECRET, BODY, header, now=T + 300)
    assert not verify(SECRET, BODY, header, now=T + 301)  # replayed later
    assert not verify(SECRET, BODY, header, now=T - 301)  # from the future
    assert verify(SECRET, BODY, header, tolerance_s=3600, now=T + 3000)
    assert not verify(SECRET, BODY, header)  # the real clock: 2023 is long gone


def test_any_of_several_v1_values_verifies():
    good = sign(SECRET, T, BODY)
    other = sign("whsec_rotated", T, BODY)
    assert verify(SECRET, BODY, f"t={T},v1={other},v1={good}", now=T)
    assert verify("whsec_rotated", BODY, f"t={T},v1={other},v1={good}", now=T)
    assert not verify("whsec_third", BODY, f"t={T},v1={other},v1={good}", now=T)
    assert verify(SECRET.encode(), BODY, f"t={T},v1={good}", now=T)  # a bytes secret


def test_the_docs_worked_example_verifies():
    """docs/webhooks.md's example, which the server's own test signs too."""
    body = (
        b'{"id":"1767225600000-0","type":"your_turn","match_id":"m1","data":{"game":"tictactoe",'
        b'"seat":1,"version":4,"match_id":"m1"},"delivery_id":"d0123456789abcdef01234567"}'
    )
    header = "t=1767225600,v1=7a5f5c46b01b38956f264b30d1d77a99ad9eff33776f2dfb64e853ff296dc412"
    assert verify("whsec_test_secret_0123456789", body, header, now=1767225600)
    assert not verify("whsec_test_secret_0123456789", body + b" ", header, now=1767225600)


def test_the_webhook_methods_against_the_served_api(api):
    api.token = api.sign_up("hooked", "bot")["token"]
    answer = api.set_webhook("http://127.0.0.1:9/hook", events=["your_turn"])
    assert answer["url"] == "http://127.0.0.1:9/hook" and len(answer["secret"]) >= 16
    shown = api.webhook()
    assert "secret" not in shown and shown["events"] == ["your_turn"] and shown["enabled"] is True
    assert api.ping_webhook()["delivery_id"]
    assert isinstance(api.webhook_deliveries(limit=5), list)
    api.delete_webhook()
    with pytest.raises(NotFound):
        api.webhook()
