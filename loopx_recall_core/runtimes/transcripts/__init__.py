# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Each runtime's own transcript format, one module a runtime (:mod:`.claude`,
:mod:`.codex`): how it writes a session (the Stage 0 corpus and the tests' archives,
through :func:`loopx_recall_core.qualification.transcripts.generate_archive`) and how its
shell calls read back (arm (c) of the bench,
:mod:`loopx_recall_core.qualification.native_transcripts`). The seeded session both
writers tell, and the archive's records, are in :mod:`.session`; what the readers share,
in :mod:`.reading`.

:data:`WRITERS` and :data:`READERS` hold them by runtime name, in the records' order,
each a runtime whose record places its transcripts on disk
(:data:`loopx_recall_core.runtimes.TRANSCRIPT_RUNTIMES`; a test holds both to it). A
runtime without a format here is left out of the bench's archives. Standard library
only; :mod:`loopx_recall_core.runtimes` does not import it (the guard's hot path needs
none of it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from loopx_recall_core.runtimes.transcripts import claude, codex
from loopx_recall_core.runtimes.transcripts.reading import Read

if TYPE_CHECKING:
    from pathlib import Path

    from loopx_recall_core.runtimes.transcripts.session import Session

__all__ = ["READERS", "WRITERS"]

#: How each runtime writes one session: ``(session, home) -> the transcript's path``
#: under ``home`` (the caller writes ``session.lines`` there).
WRITERS: dict[str, Callable[[Session, Path], Path]] = {
    "claude": claude.write_claude,
    "codex": codex.write_codex,
}
#: How each runtime's transcript reads back: ``text -> (cwd, shell calls, timestamps)``.
READERS: dict[str, Callable[[str], Read]] = {
    "claude": claude.read_claude,
    "codex": codex.read_codex,
}
