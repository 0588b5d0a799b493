"""Every code block of the README and the docs runs as written, so none can rot.

The files: README.md, client/README.md, docs/*.md, docs/guides/*.md. The
conventions (which blocks run, the marks ``<!-- doc-test: skip (why) -->``
and ``<!-- doc-test: interrupt after N s (why) -->``, ``# output:`` compared
and ``# example output:`` not) are in tests/ops/doc_blocks.py.

One stack for the module, what `make run` starts (tests/ops/stack.py), on
free ports. Each file's command blocks run in order in ONE bash process, as
a reader types them into one terminal (``$B``, ``$MATCH`` carry over), with:

- ``127.0.0.1:8000`` replaced by the stack's address (and ``TABULA_URL`` set
  to it: the client's default server);
- as working directory a scratch "checkout": a symlink to every top-level
  entry of the repository (``.venv/bin/python``, ``engine/``, ``examples/``
  resolve as from the root), so files a block writes stay out of the tree;
- ``tabula`` on ``PATH`` and ``tabula_client`` importable from client/src, as
  after ``pip install ./client``;
- ``python`` blocks fed to the repository's ``.venv`` Python;
- ``set -eo pipefail`` and a curlrc with ``--fail-with-body``: any failing
  command, or an HTTP error answer, fails the file and names its block.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

from tests.ops.doc_blocks import SHELL, output_matches, parse_blocks
from tests.ops.stack import ROOT, Launcher

# Left out by `make test-fast` (-m "not slow"): starts a whole stack.
pytestmark = pytest.mark.slow

DOC_FILES = [
    "README.md",
    "client/README.md",
    *(str(p.relative_to(ROOT)) for p in sorted((ROOT / "docs").glob("*.md"))),
    *(str(p.relative_to(ROOT)) for p in sorted((ROOT / "docs" / "guides").glob("*.md"))),
]
DEFAULT_SERVER = "127.0.0.1:8000"
INTERRUPTER = ROOT / "tests" / "ops" / "interrupt_after.py"
INTERRUPT_PATIENCE = 8  # a loaded machine may be slow to show a stream's first line
MARKER = "@@doc-test block {}@@"
FILE_TIMEOUT_S = 120
# Not linked into the scratch checkout: the repository's state, not its files.
NOT_LINKED = {".git", "var"}
# Otherwise make run's settings, but that back-to-back matches and polling
# loops are not paced by the rate limits, and that a finished match's stream
# ends at once instead of waiting 30 s for a rematch (documented; `tabula
# play` follows the stream to its end).
STACK_ENV = {
    "RATE_LIMIT": "1000000",
    "CREATE_RATE_LIMIT": "0",
    "STREAM_REMATCH_WAIT_S": "0",
    "TABULA_RQ_WORKERS": "2",
}


def _blocks(name):
    return parse_blocks(name, (ROOT / name).read_text())


@pytest.fixture(scope="module")
def tools():
    found = {tool: shutil.which(tool) for tool in ("bash", "curl", "jq", "timeout")}
    missing = [tool for tool, path in found.items() if path is None]
    assert not missing, (
        f"the docs' commands need {', '.join(missing)} on PATH (apt-get install {' '.join(missing)})"
    )
    return found


@pytest.fixture(scope="module")
def stack(tmp_path_factory, tools):
    launcher = Launcher(tmp_path_factory.mktemp("doc-stack"), **STACK_ENV)
    try:
        launcher.wait_ready()
        yield launcher
    finally:
        launcher.close()


def _checkout(tmp_path):
    """A directory that looks like the repository root but writes elsewhere."""
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in NOT_LINKED:
            (checkout / entry.name).symlink_to(entry)
    return checkout


def _environment(tmp_path, stack):
    home = tmp_path / "home"
    home.mkdir()
    (home / ".curlrc").write_text("fail-with-body\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    tabula = bin_dir / "tabula"
    tabula.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m tabula_client.cli "$@"\n')
    tabula.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TABULA_", "PYTEST", "REDIS"))}
    env.update(
        HOME=str(home),
        CURL_HOME=str(home),
        PATH=f"{bin_dir}:{env['PATH']}",
        PYTHONPATH=str(ROOT / "client" / "src"),
        TABULA_URL=stack.url,
        DOC_TEST_PYTHON=sys.executable,
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


def _script(blocks, address, scratch):
    """One bash script: each command block after a marker line on stdout."""
    lines = [
        "set -a -eo pipefail",  # -a: an interrupted block (own process) sees the variables
        "trap 'echo \"doc-test: exit $? at: $BASH_COMMAND\" >&2' ERR",
    ]
    for number, block in enumerate(blocks):
        source = block.source.replace(DEFAULT_SERVER, address)
        lines.append(f"printf '\\n{MARKER.format(number)}\\n'")
        if block.language in SHELL and block.mark != "interrupt":
            lines.append(source)
            continue
        if block.language in SHELL:
            body = scratch / f"block-{number}.sh"
            body.write_text(source)
            # Ctrl-C to its whole process group once it ran that long and showed
            # something (at most INTERRUPT_PATIENCE times as long).
            lines.append(
                f'"$DOC_TEST_PYTHON" {INTERRUPTER} {block.interrupt_s:g} '
                f"{block.interrupt_s * INTERRUPT_PATIENCE:g} bash -eo pipefail {body}"
            )
            continue
        lines += [
            "\"$DOC_TEST_PYTHON\" - <<'DOC_TEST_PYTHON_EOF'",
            source.rstrip("\n"),
            "DOC_TEST_PYTHON_EOF",
        ]
    lines.append(f"printf '\\n{MARKER.format('end')}\\n'")
    return "\n".join(lines) + "\n"


def _run(bash, script, cwd, env):
    """Run the script in its own session; returns (status, stdout, stderr).
    On time-out the whole session goes (a block's curl or tabula included)."""
    out_path, err_path = script.with_suffix(".out"), script.with_suffix(".err")
    with open(out_path, "w") as out, open(err_path, "w") as err:
        proc = subprocess.Popen(
            [bash, str(script)],
            cwd=cwd,
            env=env,
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            status = f"exit {proc.wait(timeout=FILE_TIMEOUT_S)}"
        except subprocess.TimeoutExpired:
            status = f"still running after {FILE_TIMEOUT_S} s:\n{_session_processes(proc.pid)}"
        finally:
            _kill_session(proc)
    return (0 if status == "exit 0" else status), out_path.read_text(), err_path.read_text()


def _session_processes(session):
    """What still runs in the script's session (the block that hangs)."""
    listed = subprocess.run(
        ["ps", "-o", "pid,etime,args", "-s", str(session)], capture_output=True, text=True
    )
    return listed.stdout


def _kill_session(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def _outputs(stdout, count):
    """The stdout of each block that started, by number (None: never started)."""
    parts = re.split(r"\n" + re.escape(MARKER).replace(r"\{\}", r"(\d+|end)") + r"\n", "\n" + stdout)
    found = dict(zip(parts[1::2], parts[2::2]))
    return [found.get(str(n)) for n in range(count)], "end" in found


def _lines(text):
    return [line.rstrip() for line in text.rstrip("\n").split("\n")] if text.strip() else []


def test_the_files_are_found():
    assert {"README.md", "client/README.md", "docs/api-contract.md"} <= set(DOC_FILES)
    assert any(name.startswith("docs/guides/") for name in DOC_FILES), DOC_FILES


@pytest.mark.parametrize("name", DOC_FILES)
def test_blocks_follow_the_conventions(name):
    problems = [f"{block.where}: {problem}" for block in _blocks(name) for problem in block.problems]
    assert not problems, "\n".join(problems)


def test_marks_are_few_and_explained():
    marked = [block for name in DOC_FILES for block in _blocks(name) if block.mark]
    for block in marked:
        assert len(block.reason) >= 15, f"{block.where}: say why it does not run as written"
    # 10: the accounts and webhooks pages (issue 42) added two blocks that
    # need what the doc test cannot have (an operator's app key, a public
    # https receiver) and one benchmark with servers of its own; each says why.
    assert len([b for b in marked if b.mark == "skip"]) <= 10, [b.where for b in marked]
    print("\n".join(f"{b.where}: {b.mark} ({b.reason})" for b in marked))


@pytest.mark.parametrize("name", DOC_FILES)
def test_every_command_block_runs(name, stack, tmp_path, tools):
    commands = [block for block in _blocks(name) if block.runs]
    if not commands:
        assert all(not block.is_command or block.mark == "skip" for block in _blocks(name))
        return
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    script = scratch / "doc.sh"
    script.write_text(_script(commands, stack.url.removeprefix("http://"), scratch))
    started = time.monotonic()
    status, stdout, stderr = _run(tools["bash"], script, _checkout(tmp_path), _environment(tmp_path, stack))
    outputs, finished = _outputs(stdout, len(commands))
    ran = [block for block, out in zip(commands, outputs) if out is not None]
    failed = commands[len(ran) - 1] if ran else commands[0]
    assert status == 0 and finished, (
        f"{name}: the block at {failed.where} failed ({status})\n"
        f"--- its stdout:\n{outputs[len(ran) - 1] if ran else ''}\n--- stderr:\n{stderr[-4000:]}"
    )
    for block, out in zip(commands, outputs):
        if block.mark == "interrupt":
            assert out.strip(), f"{block.where}: printed nothing before it was interrupted"
        if block.expected is not None:
            assert output_matches(block.expected, _lines(out)), (
                f"{block.where}: the output differs from the block's `# output:`\n"
                f"--- shown:\n" + "\n".join(block.expected) + f"\n--- printed:\n{out}"
            )
    print(f"{name}: {len(commands)} blocks ran in {time.monotonic() - started:.1f} s")


SAMPLE = """\
<!-- doc-test: skip (starts a server that runs until Ctrl-C) -->
```sh
make run
```

<!-- doc-test: interrupt after 2 s (follows a match until it ends) -->
```sh
echo one
# output:
# one
```

```python
print(1)
# example output:
# 1
```

```json
{"not": "run"}
```
"""


def test_the_conventions_are_read():
    skip, interrupt, python, sample = parse_blocks("sample.md", SAMPLE)
    assert (skip.mark, skip.runs, skip.line) == ("skip", False, 2)
    assert (interrupt.mark, interrupt.interrupt_s, interrupt.expected) == ("interrupt", 2.0, ["one"])
    assert python.runs and python.example and python.expected is None
    assert not sample.is_command and not sample.runs
    assert output_matches(["a", "...", "z"], ["a", "b", "c", "z"])
    assert not output_matches(["a", "...", "z"], ["a", "b"])
    unlabelled = parse_blocks("bad.md", "```sh\necho '{}'\n# {}\n```\n")[0]
    assert unlabelled.problems, "a sample output outside an output section"
    with pytest.raises(ValueError):
        parse_blocks("bad.md", "<!-- doc-test: maybe (why not) -->\n```sh\ntrue\n```\n")
    with pytest.raises(ValueError, match="not just before a fence"):
        parse_blocks("bad.md", "Text <!-- doc-test: skip (a stray mark) --> here.\n\n```sh\ntrue\n```\n")


def test_a_failing_block_is_named(tmp_path, tools):
    text = "".join(f"```sh\n{command}\n```\n\n" for command in ("echo one", "false", "echo never"))
    blocks = parse_blocks("sample.md", text)
    script = tmp_path / "doc.sh"
    script.write_text(_script(blocks, "127.0.0.1:1", tmp_path))
    status, stdout, stderr = _run(tools["bash"], script, tmp_path, dict(os.environ))
    outputs, finished = _outputs(stdout, len(blocks))
    assert status == "exit 1" and not finished
    assert outputs == ["one\n", "", None]
    assert "at: false" in stderr
