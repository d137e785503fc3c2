# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The snippet convention (v0) providers follow so Replan can read a route from an item:
the writing side (standard library only at import, so the plugin surface that re-exports
it stays below the library; the writer loads the redactor when it first runs). Replan's reader is
:func:`loopx_recall_core.recall.replan.snippets.parse_snippet`.

Items of type ``prior_failure``, ``tool_outcome`` and ``file_history`` describe ONE tool
call, and their ``snippet`` is lines separated by ``\\n``::

    <tool>: <input>
    outcome: ok | outcome: failed | outcome: failed (exit <n>)
    <the opening of the tool output, as much as the snippet limits allow>

Line 1, the header, always:

* ``<tool>`` is the tool name as the transcript records it (``Bash``, ``shell``,
  ``exec_command``, ``Edit``, ``Write``, ``MultiEdit``, ``apply_patch``, ...), matching
  ``[A-Za-z_][A-Za-z0-9_.-]{0,63}``, followed by exactly ``": "`` (colon, one space).
* For a shell tool (``SHELL_TOOLS``, case-insensitive) ``<input>`` is the command text as
  run. A Codex ``["bash", "-lc", S]`` call is rendered as ``S``; any other argv as
  ``shlex.join(argv)``. The command is put on one line: a backslash-newline continuation
  becomes one space and every other line break becomes ``"; "``.
* For any other tool ``<input>`` is the path(s) the call touches, each quoted with
  ``shlex.quote`` and separated by one space, absolute or repository-relative as the
  transcript wrote them (``Edit: /home/u/repo/src/a.py``, ``apply_patch: src/a.py src/b.py``).
* The header is never cut in the middle: when it alone exceeds the snippet limit, the
  provider cuts it and ends it with ``…`` (U+2026); Replan then treats the input as
  incomplete (it can support a near miss, never a repeat).

Line 2, only for ``prior_failure`` and ``tool_outcome``: ``outcome: ok`` when the call
succeeded, ``outcome: failed (exit <n>)`` when it failed with a known exit code,
``outcome: failed`` otherwise. A ``prior_failure`` item is a failure whatever line 2 says.

Lines 3 and on: what the output says, without the runtime's own header (``Exit code 1``,
Codex's ``Chunk ID:``/``Wall time:``/``Output:`` lines: :mod:`loopx_recall_core.runtimes.output`).
For a failed call, its decisive lines, most decisive first
(:mod:`loopx_recall_core.decisive_lines`: pytest's ``E`` lines, compiler errors, a
traceback's last line, ...); for any other call, the opening of the output. Output is cut
first; the header and outcome lines are kept whole.

``decision`` and ``summary`` items are free text without a header. Replan reads no route
from them: it only looks for the proposed route's program and targets in the text, which
can support a near miss ("mentioned"), never a repeat. The same holds for any item whose
first line does not match the header form.
"""

from __future__ import annotations

import re

from loopx_recall_core.runtimes import SHELL_TOOLS as _RUNTIME_SHELL_TOOLS
from loopx_recall_core.runtimes import shell_command

__all__ = ["CUT", "SHELL_TOOLS", "format_tool_snippet", "one_line_command", "shell_command"]

#: Tool names (case-folded) whose input is a shell command: the one list, each name with
#: its source in the runtime records (:data:`loopx_recall_core.runtimes.SHELL_TOOLS`).
SHELL_TOOLS = _RUNTIME_SHELL_TOOLS

#: Ends a header cut at the snippet limit (its input is then incomplete).
CUT = "…"


def one_line_command(command: str) -> str:
    """A command on one line: backslash-newline -> one space, other breaks -> ``"; "``."""
    joined = re.sub(r"\\\r?\n", " ", command)
    return "; ".join(part for part in re.split(r"\r?\n|\r", joined.strip()) if part.strip())


def format_tool_snippet(
    tool: str,
    summary: str,
    *,
    outcome: bool | None,
    exit_code: int | None,
    output: str,
    max_chars: int,
) -> str:
    """Write a tool-call snippet by the convention above (the provider side of it).

    ``outcome`` is True for ok, False for failed, None to leave out line 2 (items other
    than prior_failure/tool_outcome). ``output`` is the tool output as the runtime stored
    it: its header is taken off (and gives the exit status when ``exit_code`` is None);
    a failure keeps its decisive lines, anything else its opening. The command and the
    output are redacted before any cut (``loopx_recall_core.redaction``; the excerpts redact
    the output), then output is cut first; a header that alone exceeds ``max_chars`` is cut
    and ends with ``…``.
    """
    # Redact BEFORE any cut (issue 29): a cut first would leave a piece of a secret that no
    # rule recognises any more (31 characters of a ghp_ token at an 800-character cap).
    from loopx_recall_core.decisive_lines import decisive_excerpt, opening_excerpt
    from loopx_recall_core.redaction import redact  # lazily: the detector loads on first use
    from loopx_recall_core.runtimes import exit_status
    from loopx_recall_core.runtimes.output import strip_header

    if exit_code is None:
        exit_code = exit_status(output)
    output = strip_header(output)
    summary = redact(summary)
    header = f"{tool}: {summary}"
    if len(header) > max_chars:
        return header[: max(max_chars - 1, 0)] + CUT
    lines = [header]
    if outcome is not None:
        state = "ok" if outcome else "failed"
        if not outcome and exit_code is not None:
            state += f" (exit {exit_code})"
        lines.append(f"outcome: {state}")
    text = "\n".join(lines)
    if len(text) > max_chars:
        return header
    room = max_chars - len(text) - 1
    excerpt = (decisive_excerpt if outcome is False else opening_excerpt)(output, room)
    return text + "\n" + excerpt if excerpt else text
