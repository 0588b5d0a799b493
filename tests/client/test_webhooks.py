"""tabula_client.webhooks.verify: the signature scheme of the webhook
deliveries (``Tabula-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret,
"<t>.<body>")>``), computed here with hmac as a receiver would."""

import hashlib
import hmac

from tabula_client import webhooks
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
