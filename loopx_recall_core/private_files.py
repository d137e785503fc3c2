# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Owner-only files under the state root: checked folders, atomic writes, one lock.

The same rules serve every folder loopx writes into that a user names, such as the
qualification report folder (``recall qualify --report``): each caller passes ``what``,
the words its errors use for the folder or file.

The state root can be somewhere others reach (a shared ``LOOPX_RECALL_HOME``), so nothing here
trusts a path: the root and every folder below it must be a real folder (never a
symbolic link), owned by the user and not writable by group or others, or the operation
is refused with a :class:`StateError` naming the problem (never the path). Files are
opened with ``O_NOFOLLOW``. Folders this module creates are 0700; a folder it did not
create is never chmodded. A temp file is removed on every failure path.

Once the root passes the check, nobody else can plant anything inside it, so the checks
made one component at a time are not racy against other users.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path

__all__ = [
    "StateError",
    "check_folder",
    "create_once",
    "ensure_root",
    "ensure_subfolder",
    "locked",
    "probe_writable",
    "read_file",
    "refuse_non_file",
    "state_root",
    "write_atomic",
]

_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC
_ROOT = "the loopx state folder ($LOOPX_RECALL_HOME or the platform state folder)"


class StateError(Exception):
    """The state cannot be read or written; the message names no private path, and ends
    with the command that prints where the state folder is."""

    @property
    def problem(self) -> str:
        """The message without that pointer, for a folder that is not the state folder."""
        return str(self.args[0]) if self.args else ""

    def __str__(self) -> str:
        return f"{self.problem} (`loopx-recall state path` prints where the state folder is)"


def state_root() -> Path:
    """``$LOOPX_RECALL_HOME`` or the platform's user state folder for loopx (platformdirs,
    imported only when the variable is unset: the guard's hot path reads this too)."""
    configured = os.environ.get("LOOPX_RECALL_HOME")
    if configured:
        root = Path(configured).expanduser()
        if not root.is_absolute():
            # relative to whatever folder a command (or a runtime's hook) runs in: private
            # state would land in a repository
            raise StateError("$LOOPX_RECALL_HOME must be an absolute path")
        return root
    import platformdirs

    return platformdirs.user_state_path("loopx-recall", appauthor=False)


def _reason(exc: OSError) -> str:
    reasons = {
        errno.ELOOP: "it is a symbolic link",
        errno.EACCES: "permission denied",
        errno.EPERM: "permission denied",
        errno.ENOTDIR: "a part of its path is not a folder",
        errno.EISDIR: "it is a folder",
        errno.ENOSPC: "no space left on the device",
        errno.EROFS: "the file system is read-only",
        errno.EEXIST: "a file is in the way",
    }
    return reasons.get(exc.errno, type(exc).__name__) if exc.errno else type(exc).__name__


def _error(action: str, what: str, exc: OSError) -> StateError:
    return StateError(f"cannot {action} {what}: {_reason(exc)}")


def check_folder(path: Path, what: str = _ROOT) -> bool:
    """False when ``path`` does not exist; True when it is a safe folder; else StateError."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise _error("reach", what, exc) from None
    if stat.S_ISLNK(info.st_mode):
        raise StateError(f"{what} is a symbolic link; refusing to follow it")
    if not stat.S_ISDIR(info.st_mode):
        raise StateError(f"{what} is not a folder")
    if info.st_uid != os.getuid():
        raise StateError(f"{what} is not owned by you; refusing to use it")
    if info.st_mode & 0o022:
        raise StateError(
            f"{what} is writable by group or others; refusing to use it (make it 0700)"
        )
    return True


def _make_folder(path: Path, what: str) -> None:
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        return  # someone else made it: it is checked, never chmodded
    except OSError as exc:
        raise _error("create", what, exc) from None
    # Ours: the umask may have taken bits from 0700 (never added any).
    os.chmod(path, 0o700, follow_symlinks=False)


def ensure_root(root: Path, what: str = _ROOT) -> Path:
    """Create the state root, or another user-named folder (and missing parents, 0700) if
    needed, then check it."""
    missing = []
    for folder in [root, *root.parents]:
        try:
            os.lstat(folder)
            break
        except FileNotFoundError:
            missing.append(folder)
        except OSError as exc:
            raise _error("reach", what, exc) from None
    for folder in reversed(missing):
        _make_folder(folder, what)
    check_folder(root, what)
    return root


def ensure_subfolder(root: Path, *names: str, create_root: bool = True) -> Path:
    """``root/names...``, each folder checked and created 0700 when missing; with
    ``create_root=False`` a missing ``root`` is a StateError, never made (work that began
    in a state folder never makes one the owner removed meanwhile)."""
    if create_root:
        ensure_root(root)
    elif not check_folder(root):
        raise StateError("the loopx state folder is gone (removed meanwhile)")
    folder = root
    for name in names:
        folder = folder / name
        what = "a loopx private folder"
        if not check_folder(folder, what):
            _make_folder(folder, what)
            check_folder(folder, what)
    return folder


def _write_temp(folder: Path, data: bytes, prefix: str, what: str, durable: bool = True) -> Path:
    temp = folder / f"{prefix}{os.urandom(8).hex()}"
    try:
        descriptor = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
    except OSError as exc:
        raise _error("write", what, exc) from None
    with _removed_on_failure(temp, what):
        try:
            os.fchmod(descriptor, 0o600)
            view = memoryview(data)
            while view:
                view = view[os.write(descriptor, view) :]
            if durable:
                os.fsync(descriptor)
        finally:
            os.close(descriptor)
    return temp


@contextlib.contextmanager
def _removed_on_failure(temp: Path, what: str) -> Iterator[None]:
    """Remove ``temp`` if the block fails (a signal included); an OSError becomes a
    StateError naming the problem, never the path."""
    try:
        yield
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise _error("write", what, exc) from None
        raise


def refuse_non_file(path: Path, what: str) -> None:
    """StateError when something other than a regular file (a link, a folder, a FIFO) is at
    ``path``; nothing there is fine."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise _error("reach", what, exc) from None
    if stat.S_ISLNK(info.st_mode):
        raise StateError(f"{what} is a symbolic link; refusing to replace it")
    if not stat.S_ISREG(info.st_mode):
        raise StateError(f"{what} is not a regular file")


def write_atomic(
    folder: Path, name: str, data: bytes, *, prefix: str, what: str, durable: bool = True
) -> None:
    """Replace ``folder/name`` with ``data`` (0600) atomically; no temp file survives.
    ``durable=False`` skips the fsync: readers still see the old or the new bytes, but a
    crash may leave neither (for bookkeeping whose loss costs nothing, like the guard's
    per-session record, written on the hot path).

    A link (or anything but a regular file) at ``folder/name`` is refused: rename would
    replace it without writing through it, but loopx never makes one there, so it is
    someone's mistake or trap, not a file of ours to overwrite.
    """
    refuse_non_file(folder / name, what)
    temp = _write_temp(folder, data, prefix, what, durable)
    with _removed_on_failure(temp, what):
        # rename replaces a symbolic link at the target; it never writes through it
        os.replace(temp, folder / name)


def create_once(folder: Path, name: str, data: bytes, *, prefix: str, what: str) -> None:
    """Create ``folder/name`` holding ``data`` unless it exists; never seen half-written.

    The file is written in full under a temp name, then hard-linked into place, which
    fails when another process got there first: every racer then reads the winner's file.
    """
    temp = _write_temp(folder, data, prefix, what)
    try:
        os.link(temp, folder / name, follow_symlinks=False)
    except FileExistsError:
        pass
    except OSError as exc:
        raise _error("create", what, exc) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)


def probe_writable(folder: Path, what: str = _ROOT) -> None:
    """StateError unless a file can be created in ``folder`` (checked before long runs)."""
    temp = _write_temp(folder, b"", ".probe-", what)
    with contextlib.suppress(OSError):
        os.unlink(temp)


def _open_regular(path: Path, what: str, owner_only: bool) -> tuple[int, int] | None:
    """An open descriptor on regular file ``path`` and its size (None when missing): never
    through a link, never blocking on a FIFO; with ``owner_only``, yours and 0600."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _error("read", what, exc) from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise StateError(f"{what} is not a regular file")
        if owner_only and (info.st_uid != os.getuid() or info.st_mode & 0o077):
            raise StateError(f"{what} is not private to you (it must be yours and 0600)")
    except BaseException as exc:
        os.close(descriptor)
        if isinstance(exc, OSError):
            raise _error("read", what, exc) from None
        raise
    return descriptor, info.st_size


def open_private(path: Path, limit: int, what: str) -> tuple[int, int] | None:
    """:func:`_open_regular` for a file that must be yours and 0600 and at most ``limit``
    bytes (for a map of it); the caller closes the descriptor."""
    opened = _open_regular(path, what, owner_only=True)
    if opened is not None and opened[1] > limit:
        os.close(opened[0])
        raise StateError(f"{what} is larger than {limit} bytes")
    return opened


def read_file(path: Path, limit: int, what: str, *, owner_only: bool = False) -> bytes | None:
    """The bytes of regular file ``path`` (None when missing); never follows a link,
    never blocks on a FIFO, never reads more than ``limit`` bytes."""
    opened = _open_regular(path, what, owner_only)
    if opened is None:
        return None
    descriptor = opened[0]
    try:
        chunks = []
        size = 0
        while size <= limit:
            chunk = os.read(descriptor, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise _error("read", what, exc) from None
    finally:
        os.close(descriptor)
    if size > limit:
        raise StateError(f"{what} is larger than {limit} bytes")
    return b"".join(chunks)


@contextlib.contextmanager
def locked(path: Path, timeout: float, what: str = "the loopx state lock") -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` (created 0600, never through a link)."""
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | _NOFOLLOW, 0o600)
    except OSError as exc:
        raise _error("open", what, exc) from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
            raise StateError(f"{what} is not a regular file of yours")
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise StateError(
                        "the loopx state is locked by another process; try again"
                    ) from None
                time.sleep(0.02)
            except OSError as exc:
                raise _error("lock", what, exc) from None
        yield
    finally:
        os.close(descriptor)  # releases the lock
