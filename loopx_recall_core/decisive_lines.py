# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Which lines of a failed command's output say what went wrong: the one home of the rules.

A prior-failure snippet (and so the guard's warning, ``recall show``, LoopX's
decision-context items) has room for a few hundred characters of output. The opening of
the output is often a progress bar, a banner or the runtime's own header; the error is
near the end (a test summary, a traceback's last line) or between noise. So a failed
call's output is read whole (as far as the provider fetched it: its opening and its end,
:data:`OUTPUT_WINDOW` characters each) and its decisive lines are chosen by the rules
below, each from the tool's documented or observed output form (the outputs captured from
the real tools are in ``tests/core/decisive_lines/captured/``, with how each was made).

Tiers (lower first; within a tier, in output order):

1. The error itself: pytest's ``E`` lines (the first of each block, and exception lines
   in a block); the last exception line of the output (a Python traceback's last line,
   Node's ``TypeError: ...``); compiler and linter errors (``error[E0308]: ...``,
   ``file:12: error: ...`` of mypy, gcc and javac, tsc's ``error TS2322:``, eslint's
   ``  1:7  error  ...``, ruff's rule codes); go's ``--- FAIL:`` and its message lines and
   ``panic:``; a Rust panic's message; the first line under a jest ``●`` heading;
   ``npm ERR!``/``npm error``; ``fatal:``/``ERROR:``/``CONFLICT``; the shell's
   ``command not found``, ``No such file or directory``, ``Permission denied``.
2. What names the failure: pytest's ``FAILED``/``ERROR`` summary lines, earlier exception
   lines (a chained exception), make's ``***`` line, unittest's ``FAIL:`` heading.
3. Summaries and context: ``3 failed, 12 passed``, ``Found 2 errors``,
   ``test result: FAILED``, the other lines of an ``E`` block.

Lines are cleaned first (terminal colour codes and carriage-return redraws removed, blank
lines dropped), redacted (:func:`loopx_recall_core.redaction.redact`, before any cut),
then taken tier by tier while they fit the room, each at most :data:`LINE_CAP` characters.
Output with no line any rule knows gives its last lines (errors come last far more often
than first). Standard library only: providers run it when they build a result, never the
guard's hot path.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from loopx_recall_core.redaction import redact

__all__ = [
    "LINE_CAP",
    "OUTPUT_WINDOW",
    "clean_lines",
    "decisive_excerpt",
    "joined_output",
    "opening_excerpt",
]

#: Characters of a tool output's opening, and as many of its end, a provider fetches for
#: the rules (between them a long output's middle is left out).
OUTPUT_WINDOW = 2000
#: Longest line an excerpt keeps; a longer one is cut and ends with ``…``.
LINE_CAP = 300
_CUT = "…"

#: Terminal control sequences (CSI, OSC) and other C0 controls but tab.
_CONTROL = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]"
    r"|[\x00-\x08\x0b-\x1f\x7f]"
)

# ---------------------------------------------------------------- the rules, tier 1
#: An exception line: ``KeyError: 'x'``, ``json.decoder.JSONDecodeError: ...``,
#: ``AssertionError [ERR_ASSERTION]: ...``, Node's ``Error: Cannot find module ...``.
_EXCEPTION = re.compile(
    r"(?:[A-Za-z_]\w*\.)*\w*(?:Error|Exception|Exit|Interrupt|Fault)(?: \[\w+\])?(?::\s|\Z)"
)
_PYTEST_E = re.compile(r"E {2,}(\S.*)")
#: Tier-1 forms at the start of a line (one anchored match per line).
_TIER1_START = re.compile(
    "|".join(
        (
            r"\s+\d+:\d+\s+error\s",  # eslint's stylish table: "  1:7  error  ..."
            r"(?:\S+:\d+:\d+: )?[A-Z]{1,4}\d{3,4} (?:\[\*\] )?\S",  # ruff, full and concise
            r"Would reformat",  # black/ruff format --check
            r"--- FAIL: |panic: ",  # go test
            r"npm (?:ERR!|error) ",  # npm 6-9 / npm 10+
            r"(?:fatal|ERROR|error|FATAL): ",  # git, pip, most CLIs
            r"CONFLICT \(",  # git merge
        )
    )
)
#: Tier-1 error forms anywhere in a line, looked for only in lines holding ``error``:
#: rustc/cargo ``error[E0308]: ``, gcc/mypy/javac ``file:12: error: ``, tsc ``error TS2322: ``.
_ERROR_ANYWHERE = re.compile(r"(?:^|[\s:])(?:fatal )?error(?:\[E\d+\]| TS\d+)?: ")
#: Tier-1 texts anywhere in a line: ruff/black ``format --check``; the shell's own
#: errors; a Rust panic (its message may be on the next line).
_TIER1_TEXTS = re.compile(
    r"would be reformatted|command not found|No such file or directory|Permission denied"
    r"|panicked at "
)
_NPM_NOISE = re.compile(r"A complete log of this run|/_logs/")
# ---------------------------------------------------------------- tier 2
_TIER2 = re.compile(
    r"(?:FAILED|ERROR) \S|make(?:\[\d+\])?: \*\*\* |(?:FAIL|ERROR): test|Automatic merge failed"
    r"|\s*● "
)
# ---------------------------------------------------------------- tier 3 (lines holding
# "fail", "error" or "problem", any case, only)
_TIER3 = re.compile(
    r"=+ .*\b(?:failed|errors?)\b.*=+$|Found \d+ errors?|test result: FAILED"
    r"|\s*✖ \d+ problems?|\s*Tests?:?\s+\d+ failed|FAIL\b|\s*Test Files\s+\d+ failed"
)
_TIER3_ANYWHERE = re.compile(r"\b\d+ (?:failed|errors?)\b")
_TIER3_WORDS = ("fail", "error", "problem")


def _tier1(line: str) -> bool:
    return (
        _TIER1_START.match(line) is not None
        or ("error" in line and _ERROR_ANYWHERE.search(line) is not None)
        or _TIER1_TEXTS.search(line) is not None
    )


def _tier3(line: str) -> bool:
    lowered = line.lower()
    return any(word in lowered for word in _TIER3_WORDS) and (
        _TIER3.match(line) is not None or _TIER3_ANYWHERE.search(line) is not None
    )


def joined_output(opening: str, tail: str | None, length: int | None) -> str:
    """One text from a provider's two windows of an output: the opening and, when the
    output was longer, its end (``length`` is the whole output's). A gap between them is
    a line ``…``, so no line is read as joined to another."""
    if not tail:
        return opening
    if isinstance(length, int) and len(opening) + len(tail) >= length:
        return opening + tail
    return opening + "\n" + _CUT + "\n" + tail


def clean_lines(text: str) -> list[str]:
    """The output's non-blank lines as a terminal would leave them: colour codes and other
    control characters removed, a carriage-return redraw kept as its last state."""
    lines = []
    for raw in text.split("\n"):
        line = raw.rstrip("\r")
        if "\r" in line:
            line = line.rsplit("\r", 1)[1]
        if not line.isprintable():  # a tab, a colour code or another control character
            line = _CONTROL.sub("", line)
        line = line.rstrip()
        if line.strip():
            lines.append(line)
    return lines


def _in_e_block(line: str) -> bool:
    # a blank line inside a pytest E block is a bare "E" once trailing blanks are gone
    return line == "E" or _PYTEST_E.match(line) is not None


def _tiers(lines: list[str]) -> dict[int, int]:
    """Line number -> tier, for the lines a rule picks."""
    tiers: dict[int, int] = {}
    exceptions = {n for n, line in enumerate(lines) if _EXCEPTION.match(line.strip())}
    last_exception = max(exceptions) if exceptions else None
    after_heading = False  # the line after a jest "●" heading
    after_panic = False  # the line after Rust's "panicked at ...:"
    in_go_fail = False  # the indented message lines under go's "--- FAIL:"
    for number, line in enumerate(lines):
        stripped = line.strip()
        tier = None
        pytest_e = _PYTEST_E.match(line)
        if pytest_e is not None:
            first = number == 0 or not _in_e_block(lines[number - 1])
            tier = 1 if first or _EXCEPTION.match(pytest_e.group(1)) else 3
        elif after_heading or after_panic or (in_go_fail and line[:1] in (" ", "\t")):
            tier = 1
        elif _tier1(line):
            tier = 3 if _NPM_NOISE.search(line) else 1
        elif number == last_exception:
            tier = 1
        elif _TIER2.match(line) or number in exceptions:
            tier = 2
        elif _tier3(stripped):
            tier = 3
        after_heading = stripped.startswith("● ")
        after_panic = "panicked at " in line and line.endswith(":")
        in_go_fail = line.startswith("--- FAIL: ") or (in_go_fail and line[:1] in (" ", "\t"))
        if tier is not None:
            tiers[number] = tier
    return tiers


def _capped(line: str) -> str:
    return line if len(line) <= LINE_CAP else line[: LINE_CAP - 1] + _CUT


def _fit(lines: Iterable[str], room: int) -> list[str]:
    taken: list[str] = []
    used = -1  # n lines take n - 1 separators
    for line in lines:
        if used + 1 + len(line) <= room:
            taken.append(line)
            used += 1 + len(line)
    return taken


def decisive_excerpt(output: str, room: int) -> str:
    """The decisive lines of a failed command's ``output`` (the command's own text, the
    runtime's header already taken off), most decisive first, joined by ``\\n``, at most
    ``room`` characters; the last lines when no rule picks any."""
    if room <= 0:
        return ""
    lines = clean_lines(redact(output))
    tiers = _tiers(lines)
    if not tiers:
        tail = _fit((_capped(line) for line in reversed(lines)), room)
        return "\n".join(reversed(tail))
    order = sorted(tiers, key=lambda number: (tiers[number], number))
    seen: set[str] = set()
    chosen = []
    for number in order:
        text = _capped(lines[number].strip())
        if text not in seen:
            seen.add(text)
            chosen.append(text)
    return "\n".join(_fit(chosen, room))


def opening_excerpt(output: str, room: int) -> str:
    """The cleaned opening of an output (a success's snippet), at most ``room`` chars."""
    if room <= 0:
        return ""
    return "\n".join(clean_lines(redact(output)))[:room]
