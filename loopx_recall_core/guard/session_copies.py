# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""One session's content out of every copy we keep, at once: the one path the owner's
``session forget`` and the private marker (found by the claiming hook in the session's
transcript, :mod:`loopx_recall_core.guard.prefetch`) both take. The copies: the guard's
prior-outcome sets holding the session, of any agent, project or scope (with the stamp
that makes a set whose making was under way never used:
:func:`loopx_recall_core.guard.store.drop_holding`), and the stored private recall results
holding it (what ``recall show`` prints: :meth:`.PrivateStore.drop_holding`). No provider
is asked: only files we wrote are read and removed.

It lives in the guard's package because the guard stands above recall (its prefetch asks
recall for sets) and the claiming hook reaches it through the prefetch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["drop_session_copies"]


def drop_session_copies(root: Path, runtime: str, session_id: str) -> list[dict[str, Any]]:
    """Remove every copy of the session's content we keep under ``root``; returns the
    headers of the guard sets removed (the hook makes those sets again without it)."""
    from loopx_recall_core.guard import store as guard_store
    from loopx_recall_core.recall.sessions.ledger import native_session_id
    from loopx_recall_core.recall.store import PrivateStore
    from loopx_recall_core.runtimes import index_session_name

    named = index_session_name(runtime, native_session_id(runtime, session_id))
    dropped = guard_store.drop_holding(root, named)
    PrivateStore(root).drop_holding(named)
    return dropped
