# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The session-claim ledger: which runtime session belongs to which agent and project.

Obelisk (like every session indexer) stores no agent-instance identity, so "same agent"
needs a fact recorded as the session starts: the runtimes' own hooks call
``loopx-recall hook claude|codex``, which claims the session here. A session belongs to
at most one agent+project; a second claimant is refused (the message names neither).

Owner-local and private, under the same rules as the private result store
(:mod:`loopx_recall_core.private_files`): ``<state root>/private/sessions/ledger.json``,
0600, replaced atomically under its own lock, never followed through a link; a corrupt
or unknown file is reported, never reset. Reading creates nothing. The cwd a hook saw is
kept only as a keyed digest (the owner's receipt key), never in the clear.

A session can be forgotten (``loopx-recall session forget``): a tombstone in the same file
(``forgotten``, beside ``claims``) keeps it out of every recall of every agent from then
on. Its claim, if any, goes; a later claim of it is refused (``forgotten``); the host
passes the tombstoned sessions to the provider to exclude and refuses a result that still
holds one (``recall/service.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import attrs

from loopx_recall_core.canonical import js_trim, keyed_digest, utf16_len
from loopx_recall_core.jsonio import JsonInputError, loads
from loopx_recall_core.private_files import (
    StateError,
    check_folder,
    ensure_subfolder,
    locked,
    read_file,
    write_atomic,
)
from loopx_recall_core.recall.sessions import ledger_file
from loopx_recall_core.runtimes import HISTORY_SOURCES, RECORDS
from loopx_recall_core.state import dump_private_json, receipt_key, state_root

__all__ = [
    "RUNTIMES",
    "Claim",
    "ClaimRefused",
    "SessionLedger",
    "Tombstone",
    "native_session_id",
]

#: The runtimes a session may belong to: every runtime record (:mod:`loopx_recall_core.runtimes`).
RUNTIMES = HISTORY_SOURCES
MAX_CLAIMS = 200_000
_LOCK_TIMEOUT_S = 30.0
_ID_UNITS = 256
#: A runtime's session id: printable, no whitespace, no control character.
_SESSION_ID = re.compile(r"[^\s\x00-\x1f\x7f]{1,256}\Z")
_FIELDS = ("agent_id", "project_id", "runtime", "session_id", "first_seen", "cwd_digest")
_TOMBSTONE_FIELDS = ("agent_id", "project_id", "runtime", "session_id", "forgotten_at")


class ClaimRefused(Exception):
    """A claim or release is refused; the message names no session, agent or path.

    ``code`` says why, as the hook log names it: ``claimed_by_another`` (another agent or
    project holds the session), ``wrong_runtime`` (the id names another runtime's
    session), ``ledger_full``, ``forgotten`` (the session was forgotten: it is never
    claimed or recalled again), or ``invalid_session_or_agent`` (anything else).
    """

    def __init__(self, message: str, code: str = "invalid_session_or_agent") -> None:
        super().__init__(message)
        self.code = code


@attrs.frozen(kw_only=True)
class Claim:
    agent_id: str
    project_id: str
    runtime: str
    session_id: str  # the runtime's own form (Codex: the thread id, not ``codex:<id>``)
    first_seen: str
    cwd_digest: str | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.runtime, self.session_id)

    def owned_by(self, agent_id: str, project_id: str) -> bool:
        return self.agent_id == agent_id and self.project_id == project_id


@attrs.frozen(kw_only=True)
class Tombstone:
    """A forgotten session (``runtime`` and the runtime's own id), and who forgot it."""

    agent_id: str
    project_id: str
    runtime: str
    session_id: str
    forgotten_at: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.runtime, self.session_id)


def _utf8(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: bytes that were not UTF-8
        return False
    return True


def _check_name(value: object, option: str) -> str:
    if (
        not isinstance(value, str)
        or not js_trim(value)
        or utf16_len(value) > _ID_UNITS
        or not _utf8(value)
    ):
        raise ClaimRefused(f"{option}: must be 1..{_ID_UNITS} characters, not blank")
    return value


def native_session_id(runtime: str, session_id: object) -> str:
    """The session id in its runtime's own form; ``codex:<thread>`` (the index's form) is
    accepted and stored as ``<thread>``, so one session cannot be claimed twice."""
    if runtime not in RUNTIMES:
        raise ClaimRefused(f"--runtime: must be one of {', '.join(RUNTIMES)}")
    if (
        not isinstance(session_id, str)
        or not _SESSION_ID.match(session_id)
        or not _utf8(session_id)
    ):
        raise ClaimRefused(
            "--session: must be 1..256 printable characters without spaces or control characters"
        )
    prefix = RECORDS[runtime].index_prefix
    if prefix:
        session_id = session_id.removeprefix(prefix)
        if not session_id:
            raise ClaimRefused("--session: empty after the runtime prefix")
    if session_id.split(":", 1)[0] in RUNTIMES:
        # `codex:<thread>` claimed as a Claude session would name another runtime's session
        # in the index (Claude ids are unprefixed there): one runtime's prefix only, its own.
        raise ClaimRefused("--session: names a session of another runtime", "wrong_runtime")
    return session_id


class SessionLedger:
    """Read and atomically update the ledger under the state root."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or state_root()
        self.path = ledger_file.path(self.root)
        self.folder = self.path.parent
        self._lock_path = self.folder / f"{ledger_file.NAME}.lock"

    # -- reading ---------------------------------------------------------------------

    def _exists(self) -> bool:
        what = "a loopx private folder"
        return (
            check_folder(self.root)
            and check_folder(self.root / "private", what)
            and check_folder(self.folder, what)
        )

    def _read(self) -> dict[tuple[str, str], Claim]:
        return self._read_all()[0]

    def _read_all(self) -> tuple[dict[tuple[str, str], Claim], dict[tuple[str, str], Tombstone]]:
        if not self._exists():
            return {}, {}
        raw = read_file(self.path, ledger_file.MAX_BYTES, ledger_file.WHAT, owner_only=True)
        if raw is None:
            return {}, {}
        try:
            data = loads(raw)
        except JsonInputError as exc:
            raise StateError(
                f"the loopx session ledger is corrupt ({exc}); it was left untouched"
            ) from None
        if not isinstance(data, dict) or data.get("schema_version") != ledger_file.VERSION:
            raise StateError(
                "the loopx session ledger has an unknown schema_version; it was left untouched"
            )
        invalid = StateError("the loopx session ledger is invalid; it was left untouched")
        rows, gone = data.get("claims"), data.get("forgotten", [])
        if (
            not isinstance(rows, list)
            or not isinstance(gone, list)
            or len(rows) + len(gone) > MAX_CLAIMS
            or set(data) - {"forgotten"} != {"schema_version", "claims"}
        ):
            raise invalid
        claims: dict[tuple[str, str], Claim] = {}
        for row in rows:
            claim = _claim_of(row)
            if claim is None or claim.key in claims:
                raise invalid
            claims[claim.key] = claim
        tombstones: dict[tuple[str, str], Tombstone] = {}
        for row in gone:
            tombstone = _tombstone_of(row)
            if tombstone is None or tombstone.key in tombstones or tombstone.key in claims:
                raise invalid
            tombstones[tombstone.key] = tombstone
        return claims, tombstones

    def claims(self, *, agent_id: str | None = None, project_id: str | None = None) -> list[Claim]:
        """The claims (of one agent and/or project), oldest first; creates nothing."""
        return sorted(
            (
                c
                for c in self._read().values()
                if (agent_id is None or c.agent_id == agent_id)
                and (project_id is None or c.project_id == project_id)
            ),
            key=lambda c: (c.first_seen, c.runtime, c.session_id),
        )

    def forgotten(self) -> list[Tombstone]:
        """Every forgotten session, whoever forgot it (they are out of every recall)."""
        return self.view()[1]

    def view(
        self, *, agent_id: str | None = None, project_id: str | None = None
    ) -> tuple[list[Claim], list[Tombstone]]:
        """:meth:`claims` and :meth:`forgotten` from one read of the file."""
        claims, tombstones = self._read_all()
        mine = [c for c in claims.values() if agent_id in (None, c.agent_id)
                and project_id in (None, c.project_id)]  # fmt: skip
        return (
            sorted(mine, key=lambda c: (c.first_seen, c.runtime, c.session_id)),
            sorted(tombstones.values(), key=lambda t: (t.forgotten_at, t.key)),
        )

    # -- updating --------------------------------------------------------------------

    def _write(self, claims: Iterable[Claim], forgotten: Iterable[Tombstone] = ()) -> None:
        rows = [
            {k: v for k, v in attrs.asdict(c).items() if v is not None}
            for c in sorted(claims, key=lambda c: (c.first_seen, c.runtime, c.session_id))
        ]
        data: dict[str, Any] = {"schema_version": ledger_file.VERSION, "claims": rows}
        gone = [attrs.asdict(t) for t in sorted(forgotten, key=lambda t: (t.forgotten_at, t.key))]
        if gone:  # a ledger that forgot nothing keeps the earlier shape
            data["forgotten"] = gone
        payload = dump_private_json(data)
        write_atomic(self.folder, self.path.name, payload, prefix=".ledger-", what=ledger_file.WHAT)

    def claim(
        self,
        *,
        agent_id: str,
        project_id: str,
        runtime: str,
        session_id: str,
        cwd: str | None = None,
        timeout: float = _LOCK_TIMEOUT_S,
    ) -> bool:
        """Claim one session for agent+project; True when recorded now, False when it was
        already theirs. Another agent's (or project's) session: :class:`ClaimRefused`."""
        _check_name(agent_id, "--agent-id")
        _check_name(project_id, "--project-id")
        session_id = native_session_id(runtime, session_id)
        cwd_digest = None
        if cwd:
            cwd_digest = keyed_digest(receipt_key(self.root), cwd)  # created on first use
        ensure_subfolder(self.root, *ledger_file.FOLDER)
        with locked(self._lock_path, timeout, "the loopx session ledger lock"):
            claims, tombstones = self._read_all()
            if (runtime, session_id) in tombstones:
                raise ClaimRefused(
                    "the session was forgotten: it is never claimed or recalled again",
                    "forgotten",
                )
            held = claims.get((runtime, session_id))
            if held is not None:
                if held.owned_by(agent_id, project_id):
                    return False
                raise ClaimRefused(
                    "the session is already claimed by another agent or project",
                    "claimed_by_another",
                )
            if len(claims) >= MAX_CLAIMS:
                raise ClaimRefused(
                    f"the ledger holds {MAX_CLAIMS} claims; release some first", "ledger_full"
                )
            claim = Claim(
                agent_id=agent_id,
                project_id=project_id,
                runtime=runtime,
                session_id=session_id,
                first_seen=datetime.now(UTC).isoformat(timespec="milliseconds"),
                cwd_digest=cwd_digest,
            )
            claims[claim.key] = claim
            self._write(claims.values(), tombstones.values())
        return True

    def release(self, *, agent_id: str, project_id: str, runtime: str, session_id: str) -> bool:
        """Release one of this agent+project's sessions; False when it held none such.
        Another claimant's session: :class:`ClaimRefused` (nothing changes)."""
        _check_name(agent_id, "--agent-id")
        _check_name(project_id, "--project-id")
        session_id = native_session_id(runtime, session_id)
        held = self._read().get((runtime, session_id))
        if held is None:
            return False  # nothing to do: touch nothing
        with locked(self._lock_path, _LOCK_TIMEOUT_S, "the loopx session ledger lock"):
            claims, tombstones = self._read_all()
            held = claims.get((runtime, session_id))
            if held is None:
                return False
            if not held.owned_by(agent_id, project_id):
                raise ClaimRefused(
                    "the session is claimed by another agent or project", "claimed_by_another"
                )
            del claims[held.key]
            self._write(claims.values(), tombstones.values())
        return True

    def forget(self, *, agent_id: str, project_id: str, runtime: str, session_id: str) -> bool:
        """Tombstone one session: never returned to any agent again, never claimed again.
        Its claim by this agent+project goes; a session another agent or project holds is
        :class:`ClaimRefused` (nothing changes). False when it was already forgotten."""
        _check_name(agent_id, "--agent-id")
        _check_name(project_id, "--project-id")
        session_id = native_session_id(runtime, session_id)
        ensure_subfolder(self.root, *ledger_file.FOLDER)
        with locked(self._lock_path, _LOCK_TIMEOUT_S, "the loopx session ledger lock"):
            claims, tombstones = self._read_all()
            key = (runtime, session_id)
            if key in tombstones:
                return False
            held = claims.get(key)
            if held is not None and not held.owned_by(agent_id, project_id):
                raise ClaimRefused(
                    "the session is claimed by another agent or project", "claimed_by_another"
                )
            if held is None and len(claims) + len(tombstones) >= MAX_CLAIMS:
                raise ClaimRefused(
                    f"the ledger holds {MAX_CLAIMS} entries; release some first", "ledger_full"
                )
            claims.pop(key, None)
            tombstones[key] = Tombstone(
                agent_id=agent_id,
                project_id=project_id,
                runtime=runtime,
                session_id=session_id,
                forgotten_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
            )
            self._write(claims.values(), tombstones.values())
        return True


def _claim_of(row: object) -> Claim | None:
    if not isinstance(row, dict) or set(row) - set(_FIELDS):
        return None
    values: dict[str, Any] = {}
    for name in _FIELDS:
        value = row.get(name)
        if value is None and name == "cwd_digest":
            continue
        if not isinstance(value, str) or not value:
            return None
        values[name] = value
    if values["runtime"] not in RUNTIMES or not _SESSION_ID.match(values["session_id"]):
        return None
    return Claim(**values)


def _tombstone_of(row: object) -> Tombstone | None:
    if not isinstance(row, dict) or set(row) != set(_TOMBSTONE_FIELDS):
        return None
    if not all(isinstance(row[name], str) and row[name] for name in _TOMBSTONE_FIELDS):
        return None
    if row["runtime"] not in RUNTIMES or not _SESSION_ID.match(row["session_id"]):
        return None
    return Tombstone(**row)
