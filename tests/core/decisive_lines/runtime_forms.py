# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A command's output as each supported runtime stores it in its transcript (a model of
the runtimes; each form's source is beside it, all in /work/shared/AGENT_RUNTIMES.md,
"What the transcripts hold", observed from the real CLIs installed from npm).

Used by the decisive-line tests and ``benchmarks/decisive_lines.py``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable


def claude(output: str, code: int) -> str:
    """Claude Code 2.1.328: a failed Bash call's tool_result content starts ``Exit code N``
    on its own line, then the output."""
    return f"Exit code {code}\n{output}"


def codex(output: str, code: int) -> str:
    """Codex 0.169.0 ``exec_command``: ``Chunk ID: 6c585d\\nWall time: 0.0000 seconds\\n
    Process exited with code 1\\nOriginal token count: 35\\nOutput:\\n`` then the output
    (chunk id six hex digits, wall time four decimals, as observed)."""
    chunk = hashlib.sha256(output.encode()).hexdigest()[:6]
    tokens = max(1, len(output) // 4)
    return (
        f"Chunk ID: {chunk}\nWall time: 0.{len(output) % 10000:04d} seconds\n"
        f"Process exited with code {code}\nOriginal token count: {tokens}\nOutput:\n{output}"
    )


def codex_old(output: str, code: int) -> str:
    """Older Codex ``shell``: ``Exit code: N\\nWall time: 0.4 seconds\\nOutput:\\n`` then the
    output (the form the Stage 0 corpus writes, runtimes/transcripts/codex.py)."""
    return f"Exit code: {code}\nWall time: {len(output) % 90 / 10:.1f} seconds\nOutput:\n{output}"


FORMS: dict[str, Callable[[str, int], str]] = {
    "claude": claude,
    "codex": codex,
    "codex_old": codex_old,
}
