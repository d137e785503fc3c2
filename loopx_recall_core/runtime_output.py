# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The headers agent runtimes put on a shell tool's output, in one place.

:func:`split_output` separates what the runtime wrote about the call (its exit status,
timings, chunk ids) from what the command itself printed, so a snippet or a warning shows
the command's own lines. Each form with its source (facts observed from the real CLIs
installed from npm, /work/shared/AGENT_RUNTIMES.md, "What the transcripts hold"):

* Claude Code 2.x, a failed ``Bash`` call's ``tool_result``: ``Exit code N`` on the first
  line, then the output.
* Codex 0.169 ``exec_command`` (``function_call_output``): ``Chunk ID: 6c585d``,
  ``Wall time: 0.0000 seconds``, ``Process exited with code 1``, ``Original token count:
  35``, ``Output:``, then the output.
* Codex ``exec_command``/``write_stdin`` while the process still runs: the same header
  with ``Process running with session ID 32244`` in place of the exit line, and no exit
  status (seen in Codex transcripts published in public GitHub repositories, e.g.
  ``Chunk ID: f800eb``, ``Wall time: 1.0024 seconds``, ``Process running with session ID
  32244``, ``Original token count: 63``, ``Output:``).
* Older Codex ``shell`` calls: ``Exit code: N``, ``Wall time: 0.4 seconds``, ``Output:``,
  then the output (the form the Stage 0 corpus writes, ``qualification/transcripts/codex.py``).

A header is only read at the very start of the text, and only as whole lines of these
forms; anything else is output. Standard library only (providers import it).
"""

from __future__ import annotations

import re

__all__ = ["split_output"]

#: One header line of a supported runtime; group ``code`` holds an exit status.
_HEADER_LINE = re.compile(
    r"(?:Exit code:? (?P<code>-?\d+)"
    r"|Process exited with code (?P<codex>-?\d+)"
    r"|Process running with session ID \d+"
    r"|Chunk ID: [0-9A-Za-z]+"
    r"|Wall time: [0-9.]+ seconds?"
    r"|Original token count: \d+)[ \t]*\Z"
)
#: Ends a Codex header: the output follows on the next line.
_OUTPUT_MARK = "Output:"


def split_output(text: str) -> tuple[int | None, str]:
    """``(exit status or None, the command's own output)`` of a shell tool's output as a
    runtime stored it: the runtime's header lines (above) are taken off the start."""
    code: int | None = None
    position = 0
    seen = False
    while position < len(text):
        end = text.find("\n", position)
        end = len(text) if end < 0 else end
        line = text[position:end].rstrip("\r")
        match = _HEADER_LINE.match(line)
        if match is not None:
            status = match.group("code") or match.group("codex")
            if status is not None and code is None:
                code = int(status)
            seen = True
        elif seen and line == _OUTPUT_MARK:
            return code, text[end + 1 :]
        else:
            break
        position = end + 1
    return code, text[position:] if seen else text
