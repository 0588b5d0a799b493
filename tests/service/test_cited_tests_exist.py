"""Test files that the code cites exist.

A docstring saying "``tests/service/test_x.py`` checks this" is a promise a
reader follows; service/spec/fast_dump.py once cited a file that was never
written (issue 32).
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CITED = re.compile(r"tests/[\w/]+\.py")
SOURCES = ("service", "engine", "bench", "client")


def _citations():
    for folder in SOURCES:
        for source in sorted((ROOT / folder).rglob("*.py")):
            for path in CITED.findall(source.read_text(encoding="utf-8")):
                yield source.relative_to(ROOT), path


def test_cited_test_files_exist():
    citations = list(_citations())
    assert any(str(source) == "service/spec/fast_dump.py" for source, _ in citations)
    missing = [f"{source} cites {path}" for source, path in citations if not (ROOT / path).is_file()]
    assert not missing, missing
