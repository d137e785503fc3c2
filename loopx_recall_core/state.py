# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Owner-local state: enablements and qualification verdicts, plus the private-store root.

One state root: ``$LOOPX_RECALL_HOME`` when set, else platformdirs' user state path for ``loopx``.
``state.json`` is replaced atomically (temp file in the same folder + ``os.replace``)
under a lock, so concurrent ``loopx`` processes never lose an update and readers never
see a torn file. A corrupt, invalid or unknown-version file is reported, never reset.
The root is refused when it is a symbolic link, not the user's, or writable by others
(:mod:`loopx_recall_core.private_files`); reading never creates anything.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import attrs

from loopx_recall_core.canonical import escape_lone_surrogates
from loopx_recall_core.contracts.converter import ContractError, structure
from loopx_recall_core.contracts.converter import unstructure as _unstructure
from loopx_recall_core.contracts.fields import optional, text
from loopx_recall_core.contracts.historical import Limits
from loopx_recall_core.jsonio import JsonInputError, loads
from loopx_recall_core.owner_decisions import LOCK_NAME, bump_locked
from loopx_recall_core.private_files import (
    StateError,
    check_folder,
    create_once,
    ensure_root,
    ensure_subfolder,
    locked,
    probe_writable,
    read_file,
    state_root,
    write_atomic,
)

__all__ = [
    "DEFAULT_CEILINGS",
    "Enablement",
    "LimitCeilings",
    "QualificationVerdict",
    "State",
    "StateError",
    "StateStore",
    "dump_private_json",
    "receipt_key",
    "state_root",
]

STATE_VERSION = "loopx_state_v0"
_LOCK_TIMEOUT_S = 30.0
_MAX_STATE_BYTES = 16_000_000
#: The owner's receipt key: its file under ``private/`` and its size.
_KEY_NAME = "receipt.key"
KEY_BYTES = 32

DEFAULT_CEILINGS = {
    "max_sessions": 20,
    "max_items": 16,
    "max_snippet_chars": 800,
    "max_total_chars": 8000,
}



def dump_private_json(value: Any, indent: int | None = None) -> bytes:
    """UTF-8 JSON of ``value``, made before any file is opened (a lone surrogate is
    escaped, so encoding cannot fail half-way through a write)."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return (escape_lone_surrogates(text) + "\n").encode("utf-8")


#: An enablement's ceilings have exactly the shape and bounds of a request's limits.
LimitCeilings = Limits


@attrs.frozen(kw_only=True)
class Enablement:
    """One agent+project+surface granted read access through one provider.

    ``binding`` is what the provider's ``bind`` returned: public facts at the top level and
    private ones (paths) under ``binding["private"]``; only the owner sees those.

    ``guard`` is the repetition guard's policy (``warn`` or ``deny-once``) for this agent
    and project, absent while the guard is off (:mod:`loopx_recall_core.guard`).

    ``agent_sessions`` says which sessions are this agent's history: ``claimed`` (only the
    sessions claimed for this agent and project in the session ledger) or ``runtime``
    (every session of the bound runtimes in the repository). Absent in enablements made
    before the ledger existed: they behave as ``runtime`` (see :attr:`session_mode`).
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
    agent_sessions: Literal["claimed", "runtime"] | None = optional()
    #: The repetition guard's policy when ``hook install --guard`` turned it on (absent: off).
    guard: Literal["warn", "deny-once"] | None = optional()

    @property
    def session_mode(self) -> Literal["claimed", "runtime"]:
        return self.agent_sessions or "runtime"

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        return (self.capability, self.provider_id, self.agent_id, self.project_id, self.surface)


@attrs.frozen(kw_only=True)
class QualificationVerdict:
    """A Stage 0 verdict for one provider id + version, earned on one runtime (its version
    and executable digest; both None for a verdict recorded before runtimes were named,
    which no longer opens stage 2). Read by the stage-2 gate."""

    provider_id: str = attrs.field(validator=text(96))
    provider_version: str = attrs.field(validator=text(64))
    passed: bool
    report_digest: str = attrs.field(validator=text(80))
    recorded_at: str = attrs.field(validator=text(64))
    failed_gates: tuple[str, ...] = ()
    runtime_version: str | None = optional(validator=text(64))
    binary_digest: str | None = optional(validator=text(80))

    @property
    def key(self) -> tuple[str, str, str | None, str | None]:
        return (self.provider_id, self.provider_version, self.runtime_version, self.binary_digest)


@attrs.frozen(kw_only=True)
class State:
    schema_version: Literal["loopx_state_v0"]
    enablements: tuple[Enablement, ...] = ()
    qualifications: tuple[QualificationVerdict, ...] = ()

    def find(self, **match: str) -> list[Enablement]:
        return [e for e in self.enablements if all(getattr(e, k) == v for k, v in match.items())]

    def qualification(
        self,
        provider_id: str,
        version: str,
        runtime: tuple[str, str] | None = None,
    ) -> QualificationVerdict | None:
        """The latest verdict for ``provider_id`` ``version``; with ``runtime`` (runtime
        version, binary digest) only one earned on that runtime."""
        for verdict in reversed(self.qualifications):
            if verdict.provider_id != provider_id or verdict.provider_version != version:
                continue
            if runtime is None or (verdict.runtime_version, verdict.binary_digest) == runtime:
                return verdict
        return None


class StateStore:
    """Read and atomically update ``state.json`` under the state root."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or state_root()
        self.path = self.root / "state.json"
        self._lock_path = self.root / LOCK_NAME

    def read(self) -> State:
        """The state; an empty one when nothing was written yet (nothing is created)."""
        if not check_folder(self.root):
            return State(schema_version=STATE_VERSION)
        raw = read_file(self.path, _MAX_STATE_BYTES, "the loopx state file")
        if raw is None:
            return State(schema_version=STATE_VERSION)
        try:
            data = loads(raw)
        except JsonInputError as exc:
            raise StateError(
                f"the loopx state file (state.json in the state root) is corrupt ({exc}); it "
                "was left untouched: move it aside to start over"
            ) from None
        if not isinstance(data, dict) or data.get("schema_version") != STATE_VERSION:
            raise StateError(
                "the loopx state file has an unknown schema_version; it was left untouched "
                "(written by a newer loopx?)"
            )
        try:
            state = structure(data, State)
        except (ContractError, RecursionError) as exc:
            detail = exc if isinstance(exc, ContractError) else "nests too deeply"
            raise StateError(f"the loopx state file is invalid: {detail}") from None
        keys = [e.key for e in state.enablements]
        if len(set(keys)) != len(keys):
            raise StateError(
                "the loopx state file is invalid: two enablements for the same provider, "
                "agent, project and surface; it was left untouched"
            )
        return state

    @contextlib.contextmanager
    def update(self) -> Iterator[list[State]]:
        """Lock, read, let the caller replace ``box[0]``, write atomically if it changed."""
        ensure_root(self.root)
        with locked(self._lock_path, _LOCK_TIMEOUT_S):
            before = self.read()
            box = [before]
            yield box
            if box[0] != before:
                self._write(box[0])
                # an owner decision: a making under way since before it keeps nothing
                bump_locked(self.root)

    def check_writable(self) -> None:
        """StateError unless the state can be read and updated (checked before long runs)."""
        ensure_root(self.root)
        probe_writable(self.root)
        with locked(self._lock_path, _LOCK_TIMEOUT_S):
            self.read()

    def _write(self, state: State) -> None:
        write_atomic(
            self.root,
            self.path.name,
            dump_private_json(_unstructure(state), indent=2),
            prefix=".state-",
            what="the loopx state file",
        )


def receipt_key(root: Path, *, create_root: bool = True) -> bytes:
    """The owner's receipt key, created on first use (32 random bytes, 0600) in
    ``<root>/private/receipt.key``; it keys every public receipt digest
    (:mod:`loopx_recall_core.recall.receipts`) and the session ledger's ``cwd`` digests.

    Two processes creating it at once end up with the same key. The key is never
    printed or logged.
    """
    import secrets

    folder = ensure_subfolder(root, "private", create_root=create_root)
    what = "the loopx receipt key file"
    key = read_file(folder / _KEY_NAME, KEY_BYTES, what, owner_only=True)
    if key is None:
        create_once(folder, _KEY_NAME, secrets.token_bytes(KEY_BYTES), prefix=".key-", what=what)
        key = read_file(folder / _KEY_NAME, KEY_BYTES, what, owner_only=True)
    if key is None or len(key) != KEY_BYTES:
        raise StateError(f"{what} is damaged (it must hold {KEY_BYTES} bytes)")
    return key
