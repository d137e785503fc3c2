# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Owner-local state: enablements and qualification verdicts, plus the private-store root.

One state root: ``$LOOPX_HOME`` when set, else platformdirs' user state path for ``loopx``.
``state.json`` is replaced atomically (temp file in the same folder + ``os.replace``)
under a file lock, so concurrent ``loopx`` processes never lose an update and readers
never see a torn file. A corrupt or unknown-version file is reported, never reset.
Everything is mode 0600 in 0700 folders: enablements hold private roots.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import attrs
import filelock
import platformdirs

from loopx_recall_core.contracts.converter import ContractError, structure, text
from loopx_recall_core.contracts.converter import unstructure as _unstructure
from loopx_recall_core.contracts.historical import Limits

__all__ = [
    "DEFAULT_CEILINGS",
    "Enablement",
    "LimitCeilings",
    "QualificationVerdict",
    "State",
    "StateError",
    "StateStore",
    "state_root",
]

STATE_VERSION = "loopx_state_v0"
_LOCK_TIMEOUT_S = 30.0

DEFAULT_CEILINGS = {
    "max_sessions": 20,
    "max_items": 16,
    "max_snippet_chars": 800,
    "max_total_chars": 8000,
}


class StateError(Exception):
    """The state cannot be read or written; the message names no private path."""


def state_root() -> Path:
    """``$LOOPX_HOME`` or the platform's user state folder for loopx."""
    configured = os.environ.get("LOOPX_HOME")
    if configured:
        return Path(configured).expanduser()
    return platformdirs.user_state_path("loopx", appauthor=False)


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` and every missing parent as 0700 (``mkdir(parents=True)`` would give
    the parents the umask's mode), and make ``path`` itself 0700."""
    for folder in reversed([path, *path.parents]):
        if not folder.exists():
            folder.mkdir(mode=0o700, exist_ok=True)
            folder.chmod(0o700)
    path.chmod(0o700)
    return path


#: An enablement's ceilings have exactly the shape and bounds of a request's limits.
LimitCeilings = Limits


@attrs.frozen(kw_only=True)
class Enablement:
    """One agent+project+surface granted read access through one provider.

    ``binding`` is what the provider's ``bind`` returned: public facts at the top level and
    private ones (paths) under ``binding["private"]``; only the owner sees those.
    """

    capability: Literal["agent-turn-recall"]
    provider_id: str = attrs.field(validator=text(96))
    surface: Literal["replan-history"]
    agent_id: str = attrs.field(validator=text(256))
    project_id: str = attrs.field(validator=text(256))
    repository_id: str = attrs.field(validator=text(256))
    stage: Literal[1, 2]
    limits: LimitCeilings
    binding: dict[str, Any] = attrs.field(factory=dict)

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        return (self.capability, self.provider_id, self.agent_id, self.project_id, self.surface)


@attrs.frozen(kw_only=True)
class QualificationVerdict:
    """A Stage 0 verdict for one provider id + version (read by the stage-2 gate)."""

    provider_id: str = attrs.field(validator=text(96))
    provider_version: str = attrs.field(validator=text(64))
    passed: bool
    report_digest: str = attrs.field(validator=text(80))
    recorded_at: str = attrs.field(validator=text(64))
    failed_gates: tuple[str, ...] = ()


@attrs.frozen(kw_only=True)
class State:
    schema_version: Literal["loopx_state_v0"]
    enablements: tuple[Enablement, ...] = ()
    qualifications: tuple[QualificationVerdict, ...] = ()

    def find(self, **match: str) -> list[Enablement]:
        return [e for e in self.enablements if all(getattr(e, k) == v for k, v in match.items())]

    def qualification(self, provider_id: str, version: str) -> QualificationVerdict | None:
        for verdict in reversed(self.qualifications):
            if verdict.provider_id == provider_id and verdict.provider_version == version:
                return verdict
        return None


class StateStore:
    """Read and atomically update ``state.json`` under the state root."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or state_root()
        self.path = self.root / "state.json"
        self._lock = filelock.FileLock(str(self.root / "state.json.lock"), timeout=_LOCK_TIMEOUT_S)

    def read(self) -> State:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return State(schema_version=STATE_VERSION)
        except OSError as exc:
            raise StateError(f"cannot read the loopx state file ({type(exc).__name__})") from None
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise StateError(
                "the loopx state file (state.json in the state root) is corrupt; it was left "
                "untouched: move it aside to start over"
            ) from None
        if not isinstance(data, dict) or data.get("schema_version") != STATE_VERSION:
            raise StateError(
                "the loopx state file has an unknown schema_version; it was left untouched "
                "(written by a newer loopx?)"
            )
        try:
            return structure(data, State)
        except ContractError as exc:
            raise StateError(f"the loopx state file is invalid: {exc}") from None

    @contextlib.contextmanager
    def update(self) -> Iterator[list[State]]:
        """Lock, read, let the caller replace ``box[0]``, write atomically, unlock."""
        ensure_private_dir(self.root)
        try:
            with self._lock:
                box = [self.read()]
                yield box
                self._write(box[0])
        except filelock.Timeout:
            raise StateError("the loopx state is locked by another process; try again") from None

    def _write(self, state: State) -> None:
        payload = json.dumps(_unstructure(state), ensure_ascii=False, indent=2) + "\n"
        descriptor, temp_name = tempfile.mkstemp(prefix=".state-", dir=self.root)
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                handle.write(payload)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temp_name, 0o600)
            os.replace(temp_name, self.path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp_name)
            raise
