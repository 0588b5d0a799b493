"""The code blocks of the project's Markdown, and the conventions that say how
tests/ops/test_doc_code_blocks.py runs them.

- A fence always names its language. ``sh`` (or ``bash``/``shell``) and
  ``python`` blocks are commands and run; any other language (``json``,
  ``yaml``, ``text``...) is a sample and does not.
- A command block that cannot run as written carries a mark, an HTML comment
  on the line(s) just before its fence (invisible on GitHub), with the reason:

      <!-- doc-test: skip (starts a server that runs until Ctrl-C) -->
      <!-- doc-test: interrupt after 3 s (follows the match until it ends) -->

  ``skip``: not run. ``interrupt after N s``: run, and stopped like a reader's
  Ctrl-C (SIGINT) if it still runs after N s; it must print something.
- What a block prints is shown in comment lines after ``# output:`` (the
  test compares: the block's whole stdout, line by line, where a line
  ``...`` stands for any number of lines) or after ``# example output:``
  (an illustration: ids, tokens and dice differ from run to run). Either
  section ends the block. A comment line that looks like output (JSON, a
  ``...``) outside such a section is refused.
"""

import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt

SHELL = {"sh", "bash", "shell"}
PYTHON = {"python", "py"}
MARK = re.compile(r"<!--\s*doc-test:\s*(?P<body>.*?)\s*-->", re.S)
SKIP = re.compile(r"skip \((?P<reason>.+)\)$", re.S)
INTERRUPT = re.compile(r"interrupt after (?P<seconds>\d+(?:\.\d+)?) s \((?P<reason>.+)\)$", re.S)
OUTPUT_HEADS = {"# output:": "output", "# example output:": "example"}
# Comment lines that read as a program's output rather than as an explanation.
LOOKS_LIKE_OUTPUT = re.compile(r"#\s*(\{|\[|\.\.\.|✓|✗|\d+$)")


class DocFormatError(ValueError):
    """A block or mark that breaks the conventions above."""


@dataclass
class Block:
    path: str  # relative to the repository
    line: int  # 1-based line of the opening fence
    language: str
    source: str
    mark: str | None = None  # "skip" | "interrupt" | None
    reason: str | None = None
    interrupt_s: float | None = None
    expected: list[str] | None = None  # the `# output:` lines
    example: bool = False  # has an `# example output:` section
    problems: list[str] = field(default_factory=list)

    @property
    def where(self):
        return f"{self.path}:{self.line}"

    @property
    def is_command(self):
        return self.language in SHELL | PYTHON

    @property
    def runs(self):
        return self.is_command and self.mark != "skip"


def parse_blocks(path, text):
    """Every fenced block of one Markdown file, with its mark and outputs."""
    tokens = MarkdownIt("commonmark").parse(text)
    blocks, attached = [], set()
    for index, token in enumerate(tokens):
        if token.type == "code_block":
            raise DocFormatError(
                f"{path}:{token.map[0] + 1}: an indented code block; use a fence with a language"
            )
        if token.type != "fence":
            continue
        block = Block(path, token.map[0] + 1, token.info.strip().split(" ")[0], token.content)
        if not block.language:
            raise DocFormatError(f"{block.where}: a fence without a language")
        before = tokens[index - 1] if index else None
        mark = MARK.search(before.content) if before and before.type == "html_block" else None
        if mark:
            _read_mark(block, mark.group("body"))
            attached.add(index - 1)
        if block.is_command:
            _read_outputs(block)
        blocks.append(block)
    _refuse_stray_marks(path, tokens, attached)
    return blocks


def _refuse_stray_marks(path, tokens, attached):
    """A mark anywhere but just before a fence would silently mark nothing."""
    for index, token in enumerate(tokens):
        html = (
            [token]
            if token.type == "html_block"
            else [child for child in token.children or [] if child.type == "html_inline"]
        )
        if index not in attached and any(MARK.search(piece.content) for piece in html):
            line = (token.map or [0])[0] + 1
            raise DocFormatError(f"{path}:{line}: a doc-test mark not just before a fence")


def _read_mark(block, body):
    if not block.is_command:
        raise DocFormatError(f"{block.where}: a doc-test mark on a {block.language} block, which never runs")
    skip, interrupt = SKIP.match(body), INTERRUPT.match(body)
    if skip:
        block.mark, block.reason = "skip", skip.group("reason")
    elif interrupt:
        block.mark, block.reason = "interrupt", interrupt.group("reason")
        block.interrupt_s = float(interrupt.group("seconds"))
    else:
        raise DocFormatError(
            f"{block.where}: unknown mark {body!r}; expected 'skip (why)' or 'interrupt after N s (why)'"
        )


def _read_outputs(block):
    lines = block.source.rstrip("\n").split("\n")
    heads = [
        (number, OUTPUT_HEADS[line.strip()])
        for number, line in enumerate(lines)
        if line.strip() in OUTPUT_HEADS
    ]
    if len(heads) > 1:
        block.problems.append("more than one output section")
    if heads:
        start, kind = heads[0]
        tail = lines[start + 1 :]
        if not tail or not all(line.startswith("#") for line in tail):
            block.problems.append(f"the {kind} section must end the block, in comment lines")
        shown = [re.sub(r"^# ?", "", line) for line in tail]
        if kind == "output":
            block.expected = shown
        else:
            block.example = True
        lines = lines[:start]
    for line in lines:
        if LOOKS_LIKE_OUTPUT.match(line.strip()):
            block.problems.append(f"sample output outside an output section: {line.strip()!r}")


def output_matches(expected, actual):
    """``actual`` lines against ``expected``, line by line, where a line
    ``...`` stands for any run of lines."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head.strip() == "...":
        return any(output_matches(rest, actual[skip:]) for skip in range(len(actual) + 1))
    return bool(actual) and actual[0] == head and output_matches(rest, actual[1:])
