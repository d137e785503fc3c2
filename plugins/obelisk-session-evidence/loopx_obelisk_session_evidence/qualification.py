# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Stage 0 for Obelisk: index a synthetic archive with the user's own ``obelisk`` and
stage runtime faults with small stand-in executables (no test double needed).

The host sets ``HOME`` to the archive; this runtime removes ``OBELISK_HOME``,
``CLAUDE_CONFIG_DIR`` and ``CODEX_HOME`` for the run, so the user's index and transcripts
are never read or written. Each fault is a stand-in written into a private temporary
folder; it answers ``--version`` with the real runtime's version (no slow probe) and, for
``noise``, ``inject`` and ``stale``, runs the real binary for the answer:

* ``hang``/``flood``/``garbage``/``undefined``/``empty``/``error``/``crash``: the stand-in
  alone (sleeps, endless output, not-JSON, the bare word, nothing, the error envelope,
  half an answer and exit 134);
* ``noise``: a log line, then the real answer;
* ``inject``: the real answer plus a copy of its first row moved to another repository and
  runtime (the plugin must reject the whole result as ``scope_violation``);
* ``stale``: the real answer from an index that is not refreshed, as the real CLI gives it
  while another writer (the desktop app, a concurrent build) holds its writer lease: for
  the whole staging this runtime holds that lease (``BEGIN IMMEDIATE`` on
  ``writer.lock.sqlite`` beside the index ``--build`` reported), so neither the CLI's
  pre-query refresh nor the extra one it runs for a caller outside an agent session can
  write. Before each query the stand-in also writes a fresh ``__app_heartbeat__`` row, which
  stops the refresh of a caller inside an agent session too (whose query skips the
  heartbeat-blind second build).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import shlex
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from loopx_obelisk_session_evidence.adapter import obelisk_env
from loopx_obelisk_session_evidence.executable import find_obelisk, known_version
from loopx_obelisk_session_evidence.runner import private_folder, run
from loopx_recall_core.plugin_api import (
    CONFIG_ENVS,
    CorpusScope,
    ProviderFailure,
    RuntimeIdentity,
)

__all__ = ["ObeliskQualification", "binary_digest", "identity_of"]

_FOREIGN_PATH = "/nonexistent/loopx-foreign-repository"
_VERSION_TIMEOUT_S = 30.0

_SIMPLE = {
    "hang": "exec sleep 100000",
    "flood": 'exec yes \'{"flood": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}\'',
    "garbage": "printf '{\"rows\": [ <<not json>>\\n\\tat sandbox:1\\n'; exit 0",
    "undefined": "echo undefined; exit 0",
    "empty": "exit 0",
    "error": 'echo \'{"error":"simulated failure","stack":""}\'; exit 1',
    "crash": "printf '[\\n  {\\n'; echo 'FATAL ERROR: simulated abort' >&2; exit 134",
    "noise": "echo '[obelisk] session lookup: no agent session matched'; exec {real} \"$@\"",
}

_INJECT = """
import json, subprocess, sys
REAL, FOREIGN = {real!r}, {foreign!r}
proc = subprocess.run([REAL, *sys.argv[1:]], stdout=subprocess.PIPE)
if proc.returncode != 0 or "--query" not in sys.argv[1:]:
    sys.stdout.buffer.write(proc.stdout)
    sys.exit(proc.returncode)

def inject(value):
    if isinstance(value, list):
        out = [inject(v) for v in value]
        first = value[0] if value else None
        if isinstance(first, dict) and ("project_path" in first or "session_id" in first):
            copy = dict(first, project_path=FOREIGN, source="kimi")
            if "session_id" in first:
                copy["session_id"] = "kimi:injected"
            if "cwd" in first:
                copy["cwd"] = FOREIGN
            out.append(copy)
        return out
    if isinstance(value, dict):
        return {{k: inject(v) for k, v in value.items()}}
    return value

print(json.dumps(inject(json.loads(proc.stdout)), indent=2))
"""

_STALE = """
import os, sqlite3, sys, time
REAL, DB = {real!r}, {db!r}
if "--query" in sys.argv[1:] and DB:
    try:
        with sqlite3.connect(DB, timeout=10) as db:
            db.execute(
                "INSERT OR REPLACE INTO index_state (jsonl_path, mtime, lines_processed, cursor)"
                " VALUES ('__app_heartbeat__', ?, 0, '')",
                (int(time.time() * 1000),),
            )
    except sqlite3.Error:
        pass
os.execv(REAL, [REAL, *sys.argv[1:]])
"""


def binary_digest(executable: str) -> str:
    """``sha256:`` of the file ``executable`` resolves to (the npm entry script for the
    real CLI, the wrapper script for a double or stand-in)."""
    hasher = hashlib.sha256()
    with open(os.path.realpath(executable), "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            hasher.update(block)
    return "sha256:" + hasher.hexdigest()


def identity_of(executable: str, timeout: float = _VERSION_TIMEOUT_S) -> RuntimeIdentity:
    """Version (cached probe) + digest of ``executable``; raises ``ProviderFailure``."""
    version, _ = known_version(executable, timeout)
    try:
        return RuntimeIdentity(
            runtime_version=".".join(map(str, version)), binary_digest=binary_digest(executable)
        )
    except OSError:
        raise ProviderFailure("provider_unavailable") from None


def _with_bin(binding: Mapping[str, Any], executable: str) -> dict[str, Any]:
    private = dict(binding.get("private") or {})
    private["obelisk_bin"] = executable
    return {**binding, "private": private}


class ObeliskQualification:
    """The plugin's ``QualificationRuntime`` for one archive under ``home``."""

    #: The archive's home alone: the index's own folder and the runtimes' (CLAUDE_CONFIG_DIR,
    #: CODEX_HOME: their records) unset.
    environment: Mapping[str, str | None] = dict.fromkeys(("OBELISK_HOME", *CONFIG_ENVS))

    def __init__(self, home: Path) -> None:
        self.home = home
        self.executable = find_obelisk(None)
        self.version: str | None = None
        self.db: str | None = None

    def bind_options(self, scope: CorpusScope) -> dict[str, Any]:
        # The executable resolved once, before the host points HOME at the archive, goes
        # into every case's binding: resolving it again per case would read the state of
        # the archive's HOME, where no enablement names the user's --obelisk-bin.
        return {
            "history_source": list(scope.runtimes),
            "repository_root": list(scope.roots),
            "window_days": scope.window_days,
            "obelisk_bin": self._real(),
        }

    def _real(self) -> str:
        if self.executable is None:
            raise ProviderFailure("provider_unavailable")
        return self.executable

    def prepare(self, *, timeout: float) -> RuntimeIdentity:
        identity = identity_of(self._real())
        self.version = identity.runtime_version
        result = run([self._real(), "--build"], env=obelisk_env(self._real()), timeout=timeout)
        if result.timed_out:
            raise ProviderFailure("provider_timeout")
        try:
            answer = json.loads(result.stdout)
        except ValueError:
            answer = None
        if not result.ok or not isinstance(answer, dict) or answer.get("ok") is not True:
            raise ProviderFailure("provider_failed")
        db = answer.get("db")
        self.db = db if isinstance(db, str) else None
        return identity

    def bare_call(self, *, timeout: float) -> float:
        with private_folder("loopx-obelisk-bare-") as folder:
            script = os.path.join(folder, "bare.js")
            Path(script).write_text("return 1;\n", encoding="ascii")
            started = time.monotonic()
            result = run([self._real(), "--query", script], env=obelisk_env(self._real()),
                         timeout=timeout)  # fmt: skip
            elapsed = time.monotonic() - started
        if not result.ok:
            raise ProviderFailure("provider_timeout" if result.timed_out else "provider_failed")
        return elapsed

    def _script(self, fault: str) -> str:
        real = shlex.quote(self._real())
        head = f'if [ "$1" = --version ] || [ "$1" = -v ]; then echo {self.version}; exit 0; fi\n'
        if fault in _SIMPLE:
            return f"#!/bin/sh\n{head}{_SIMPLE[fault].replace('{real}', real)}\n"
        body = (
            _INJECT.format(real=self._real(), foreign=_FOREIGN_PATH)
            if fault == "inject"
            else _STALE.format(real=self._real(), db=self.db or "")
        )
        version = f"if sys.argv[1:2] in (['--version'], ['-v']):\n    print({self.version!r})\n"
        version += "    sys.exit(0)\n"
        return f"#!{sys.executable}\nimport sys\n{version}{body}"

    @contextlib.contextmanager
    def _stage(self, fault: str) -> Iterator[Callable[[Mapping[str, Any]], Mapping[str, Any]]]:
        with private_folder(f"loopx-obelisk-{fault}-") as folder:
            path = os.path.join(folder, "obelisk")
            Path(path).write_text(self._script(fault), encoding="utf-8")
            os.chmod(path, 0o700)
            lease = _hold_lease(self.db) if fault == "stale" and self.db else None
            try:
                yield lambda binding: _with_bin(binding, path)
            finally:
                if lease is not None:
                    lease.close()  # rolls the open transaction back: the lease is free
                if fault == "stale" and self.db:
                    _drop_heartbeat(self.db)

    def fault_probes(self) -> dict[str, Callable[[], Any]]:
        names = (*_SIMPLE, "inject", "stale")
        return {name: functools.partial(self._stage, name) for name in names}


def _hold_lease(db: str) -> Any:
    """The CLI's writer lease beside ``db``, held until closed (None when it cannot be
    taken: the heartbeat alone then keeps the index behind)."""
    import sqlite3

    lease = None
    try:
        lease = sqlite3.connect(
            os.path.join(os.path.dirname(db), "writer.lock.sqlite"),
            timeout=30, isolation_level=None, check_same_thread=False,
        )  # fmt: skip
        lease.execute("BEGIN IMMEDIATE")
    except sqlite3.Error:
        if lease is not None:
            lease.close()
        return None
    return lease


def _drop_heartbeat(db: str) -> None:
    import sqlite3

    with contextlib.suppress(sqlite3.Error):
        conn = sqlite3.connect(db, timeout=10)
        try:
            with conn:
                conn.execute("DELETE FROM index_state WHERE jsonl_path = '__app_heartbeat__'")
        finally:
            conn.close()
