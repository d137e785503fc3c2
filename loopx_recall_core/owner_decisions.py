# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The owner's decisions win against work in flight: one generation number, under the
state lock (issue 40 item 4).

A *making* (the guard's prefetch making a set, a recall keeping its private result) reads
the state and the session ledger, asks a provider, and writes what it got. An *owner
decision* (``session forget`` and ``release``, the private marker found, any change of
``state.json``: an exclusion, a disable, the guard turned off by ``hook uninstall``; and
``cleanup --remove``) narrows what may be kept. A decision that came while a making was
under way must reach what that making writes, so:

* a making reads the generation (:func:`started`) before it reads anything else, and
  writes only inside :func:`committing`: under the state lock, and only when the state
  folder is still there and the generation is still the one it started under; otherwise
  it writes nothing (and creates nothing: never a state folder that is gone);
* a decision moves the generation on under the same lock (:func:`decided`, or
  :func:`bump_locked` where the lock is already held: ``state.json``'s own update) and
  removes the copies it reaches in that same hold.

Every write of a making is then either before the decision, and removed by it, or after
it, and refused. The lock is ``state.json.lock`` in the state root (the one
``state.json`` is updated under). The generation file, ``<root>/generation``, holds a
random epoch (a state folder removed and made again is another epoch) and a counter.

Standard library and :mod:`loopx_recall_core.private_files` only: the guard's hot path
loads it when it finds the private marker.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from loopx_recall_core.private_files import (
    StateError,
    check_folder,
    create_once,
    locked,
    read_file,
    write_atomic,
)

__all__ = [
    "LOCK_NAME",
    "LOCK_TIMEOUT_S",
    "Superseded",
    "bump_locked",
    "committing",
    "current",
    "decided",
    "started",
]

#: The state lock: the file ``state.json`` is updated under (:class:`~.state.StateStore`).
LOCK_NAME = "state.json.lock"
LOCK_TIMEOUT_S = 30.0
_NAME = "generation"
_WHAT = "the loopx generation file"
_MAX_BYTES = 128


class Superseded(StateError):
    """An owner decision came while this making was under way (or the state folder is
    gone): nothing it made was kept. The message is the whole line (the state folder is
    not the problem)."""

    def __str__(self) -> str:
        return self.problem


def _parse(raw: bytes | None) -> tuple[str, int] | None:
    try:
        epoch, counter = (raw or b"").decode("ascii").split()
        return epoch, int(counter)
    except (UnicodeDecodeError, ValueError):
        return None


def current(root: Path) -> str | None:
    """The generation now (``"<epoch> <counter>"``), read without the lock and without
    creating anything; None when the state folder or the file is not there."""
    try:
        if not check_folder(root):
            return None
        parsed = _parse(read_file(root / _NAME, _MAX_BYTES, _WHAT, owner_only=True))
    except StateError:
        return None
    return None if parsed is None else f"{parsed[0]} {parsed[1]}"


def started(root: Path) -> str | None:
    """The generation a making starts under (read before the state and the ledger are);
    the file is made (a new epoch, counter 0) when the folder has none yet. None when the
    state folder is not there: such a making makes nothing. StateError when the folder
    cannot take the file."""
    if not check_folder(root):
        return None
    now = current(root)
    if now is not None:
        return now
    # a folder that cannot take it (full, read-only) is said as the writes would say it
    create_once(root, _NAME, f"{os.urandom(8).hex()} 0\n".encode(), prefix=".gen-", what=_WHAT)
    return current(root)


def bump_locked(root: Path) -> None:
    """Move the generation on; the caller holds the state lock."""
    parsed = _parse(read_file(root / _NAME, _MAX_BYTES, _WHAT, owner_only=True))
    epoch, counter = parsed if parsed is not None else (os.urandom(8).hex(), 0)
    write_atomic(root, _NAME, f"{epoch} {counter + 1}\n".encode(), prefix=".gen-", what=_WHAT)


@contextlib.contextmanager
def decided(root: Path, timeout: float = LOCK_TIMEOUT_S) -> Iterator[bool]:
    """An owner decision: under the state lock, the generation moves on, then the body
    removes what the decision reaches. Yields False (no lock taken, nothing to move on)
    when there is no state folder: nothing can have been kept there."""
    if not check_folder(root):
        yield False
        return
    with locked(root / LOCK_NAME, timeout):
        bump_locked(root)
        yield True


@contextlib.contextmanager
def committing(root: Path, since: str | None, timeout: float = LOCK_TIMEOUT_S) -> Iterator[None]:
    """A making's write: under the state lock, when the state folder is still there and
    the generation is still ``since``; :class:`Superseded` otherwise (before the body
    runs, so nothing is written and nothing created). The folder's own check first: the
    lock file is opened in it only when it is there, so a folder that is gone stays gone."""
    if since is None or not check_folder(root):
        raise Superseded("the loopx state folder is gone; nothing was kept")
    with contextlib.ExitStack() as hold:
        try:
            hold.enter_context(locked(root / LOCK_NAME, timeout))
        except StateError:
            if not check_folder(root):  # removed meanwhile (cleanup --remove)
                raise Superseded("the loopx state folder is gone; nothing was kept") from None
            raise
        # a folder removed (and even made again) while this waited for the lock has
        # another generation, or none
        if current(root) != since:
            raise Superseded(
                "an owner decision (forget, the private marker, an exclusion, a disable, "
                "an uninstall or a cleanup) came while this was under way; nothing was kept"
            )
        yield
