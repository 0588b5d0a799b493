"""Stoplight Spectral with spectral:oas and the OWASP API Security Top 10
(2023) ruleset, as published (no rule turned off), over the committed
openapi.yaml: no error, and only the warnings listed here, each with its
reason (a new warning fails the test; so does one listed that went away,
so the list stays true).

The tools are pinned by tests/service/spectral/package-lock.json and
installed with ``npm ci`` (tests/npm_tools.py); that the committed file is
the served one is tests/service/test_openapi.py's check (repeated here, so
this test's verdict is about the served spec).

    cd tests/service/spectral && npx spectral lint ../../../openapi.yaml --ruleset .spectral.yaml
"""

import collections
import json
import subprocess
from pathlib import Path

from service.spec.document import spec_yaml
from tests.npm_tools import npm_installed

ROOT = Path(__file__).resolve().parents[2]
FOLDER = Path(__file__).resolve().parent / "spectral"
OWASP = "owasp:api"

# Warnings left, by rule and count, with the reason each stays.
ALLOWED_WARNINGS = {
    # Strings without `format`, `pattern`, `enum` or `const`: free text the
    # server does not restrict to a grammar (names as typed, labels, error
    # messages and reasons, game texts, ids and tokens the server mints and
    # compares whole). Every one is bounded (maxLength, an error rule).
    "owasp:api4:2023-string-restricted": 163,
    # Public routes that read no token never answer 401: the health probes,
    # the catalogue, the lobby, profiles, public history, leaderboards and
    # rating histories, a finished match's replay, sign-up. Declaring a 401
    # they cannot send would be false.
    "owasp:api8:2023-define-error-responses-401": 22,
    # /healthz and /readyz count against no rate-limit window (probes must
    # never be throttled), so they never answer 429.
    "owasp:api4:2023-rate-limit-responses-429": 4,
    # The project names no contact (no maintainer address is published).
    "info-contact": 1,
}


def _lint(spectral: Path) -> list[dict]:
    run = subprocess.run(
        [
            str(spectral),
            "lint",
            str(ROOT / "openapi.yaml"),
            "--ruleset",
            ".spectral.yaml",
            "-f",
            "json",
            "-q",
        ],
        cwd=FOLDER,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.stdout.strip().startswith("["), run.stdout[-2000:] + run.stderr[-2000:]
    return json.loads(run.stdout)


def test_openapi_yaml_is_the_served_spec(app):
    assert (ROOT / "openapi.yaml").read_text() == spec_yaml(app), (
        "run `python -m service.openapi > openapi.yaml`"
    )


def test_spectral_owasp_reports_no_error_and_only_the_listed_warnings():
    spectral = npm_installed(FOLDER) / ".bin" / "spectral"
    results = _lint(spectral)
    errors = [r for r in results if r["severity"] == 0]
    warnings = collections.Counter(r["code"] for r in results if r["severity"] == 1)
    print(f"spectral: {len(errors)} errors, {sum(warnings.values())} warnings: {dict(warnings)}")
    assert not errors, "\n".join(
        f"{e['code']}: {'/'.join(map(str, e['path']))}: {e['message']}" for e in errors
    )
    assert dict(warnings) == ALLOWED_WARNINGS
    assert any(code.startswith(OWASP) for code in ALLOWED_WARNINGS)  # the OWASP ruleset ran
