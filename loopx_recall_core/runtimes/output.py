# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The header lines agent runtimes put before a shell tool's output, in one place.

:func:`strip_header` takes what the runtime wrote about the call (its exit status, timings,
chunk ids) off the start of the text, so a snippet or a warning shows what the command
itself printed. The exit status those lines carry is read by the one outcome rule,
:func:`loopx_recall_core.runtimes.exit_status` (the records' ``output_forms``); a test
checks that every form's sample loses exactly its header here. The forms, with their
sources (facts observed from the real CLIs installed from npm,
/work/shared/AGENT_RUNTIMES.md, "What the transcripts hold"):

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
  then the output (the form the Stage 0 corpus writes, ``runtimes/transcripts/codex.py``).

A header is only read at the very start of the text, and only as whole lines of these
forms; anything else is output. Standard library only (providers import it).
"""

from __future__ import annotations

import re

__all__ = ["strip_header"]

#: One header line of a supported runtime.
_HEADER_LINE = re.compile(
    r"(?:Exit code:? -?\d+"
    r"|Process exited with code -?\d+"
    r"|Process running with session ID \d+"
    r"|Chunk ID: [0-9A-Za-z]+"
    r"|Wall time: [0-9.]+ seconds?"
    r"|Original token count: \d+)[ \t]*\Z"
)
#: Ends a Codex header: the output follows on the next line.
_OUTPUT_MARK = "Output:"


def strip_header(text: str) -> str:
    """The command's own output: ``text`` (a shell tool's output as a runtime stored it)
    without the runtime's header lines (above) at its start."""
    position = 0
    while position < len(text):
        end = text.find("\n", position)
        end = len(text) if end < 0 else end
        line = text[position:end].rstrip("\r")
        if _HEADER_LINE.match(line) is None:
            if position and line == _OUTPUT_MARK:
                return text[end + 1 :]
            break
        position = end + 1
    return text[position:]
