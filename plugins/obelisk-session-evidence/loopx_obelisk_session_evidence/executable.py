# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Which ``obelisk`` runs, and what is known about it without running it again.

One resolution everywhere (status, ``extension list``, recall, qualification):

1. the enablement's ``--obelisk-bin``;
2. ``$LOOPX_RECALL_OBELISK_BIN``;
3. the ``--obelisk-bin`` of an existing enablement of this provider (the newest), where no
   enablement is at hand (``extension list``, ``recall qualify``);
4. ``obelisk`` on ``PATH``.

``obelisk --version`` runs once per binary identity (resolved path, device, inode, size,
mtime) and hour; a changed binary, or one behind a wrapper whose target changed and whose
query then failed, is probed again. Status reuses the facts of the last readback or recall
of the same binary and binding, including a runtime failure, for ten minutes (and says
when they were taken) instead of starting Node: a recall is then one ``obelisk --query``.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from loopx_obelisk_session_evidence import PROVIDER_ID
from loopx_obelisk_session_evidence.adapter import check_supported, probe_version
from loopx_recall_core.plugin_api import ProviderCache, ProviderFailure, digest, enabled_bindings

__all__ = [
    "OBELISK_BIN_ENV",
    "binary_identity",
    "binding_key",
    "cached_facts",
    "find_obelisk",
    "forget_version",
    "known_version",
    "note_query_seconds",
    "query_seconds",
    "schema_verdict",
    "store_facts",
    "store_schema_verdict",
]

OBELISK_BIN_ENV = "LOOPX_RECALL_OBELISK_BIN"
_VERSIONS = "runtime-versions"
_FACTS = "readback-facts"
_COSTS = "query-seconds"
_SCHEMAS = "schema-verdicts"
#: Binary identities and bindings remembered; older entries are dropped first.
_KEEP = 16
#: A version probe is trusted this long (a wrapper script's target can change unseen).
VERSION_TTL_S = 3600
#: Status shows remembered facts this long before it asks the runtime again.
FACTS_TTL_S = 600


def cache() -> ProviderCache:
    return ProviderCache(PROVIDER_ID)


def find_obelisk(configured: str | None = None) -> str | None:
    """The obelisk executable by the documented order, or None."""
    if configured:
        return shutil.which(configured)
    from_env = os.environ.get(OBELISK_BIN_ENV)
    if from_env:
        return shutil.which(from_env)
    for binding in reversed(enabled_bindings(PROVIDER_ID)):
        private = binding.get("private")
        configured_there = private.get("obelisk_bin") if isinstance(private, dict) else None
        if isinstance(configured_there, str) and shutil.which(configured_there):
            return shutil.which(configured_there)
    return shutil.which("obelisk")


def binary_identity(executable: str) -> str:
    """The identity of the binary ``executable`` resolves to (raises ``OSError``)."""
    return _identity(executable)


def _identity(executable: str) -> str:
    real = os.path.realpath(executable)
    info = os.stat(real)
    return digest([real, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns])


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _bounded(entries: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    kept = {k: v for k, v in entries.items() if k != key}
    kept[key] = value
    return dict(list(kept.items())[-_KEEP:])


def known_version(executable: str, timeout: float) -> tuple[tuple[int, int, int], str]:
    """The supported version of ``executable`` and the identity it was probed for.

    Runs ``--version`` only for a binary identity not seen before; raises the typed
    failure of the probe or ``unsupported_runtime_version`` (an ``UnsupportedRelease``
    naming the release).
    """
    try:
        identity = _identity(executable)
    except OSError:
        raise ProviderFailure("provider_unavailable") from None
    store = cache()
    versions = store.load(_VERSIONS)
    versions = versions if isinstance(versions, dict) else {}
    entry = versions.get(identity)
    if (
        isinstance(entry, dict)
        and _valid_version(entry.get("version"))
        and _fresh(entry.get("probed_at"), VERSION_TTL_S)
    ):
        version = tuple(entry["version"])
    else:
        version = probe_version(executable, timeout)
        store.store(
            _VERSIONS,
            _bounded(versions, identity, {"version": list(version), "probed_at": time.time()}),
        )
    check_supported(version)  # type: ignore[arg-type]
    return version, identity  # type: ignore[return-value]


def forget_version(identity: str) -> None:
    """Probe this binary again next time (its query just failed)."""
    store = cache()
    versions = store.load(_VERSIONS)
    if isinstance(versions, dict) and identity in versions:
        store.store(_VERSIONS, {k: v for k, v in versions.items() if k != identity})


def _fresh(stamp: object, ttl: float) -> bool:
    return type(stamp) in (int, float) and 0 <= time.time() - stamp < ttl  # type: ignore[operator]


def _valid_version(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 3
        and all(type(part) is int and 0 <= part < 10**6 for part in value)
    )


def note_query_seconds(identity: str, seconds: float) -> None:
    """Remember how long the last ``--query`` of this binary took (wall time, whole
    process): from outside an agent session Obelisk 0.2.4 and later spend about 4 s of it
    looking for the invoking session (docs/obelisk-releases.md), so a readback that runs
    a query has to wait that long."""
    store = cache()
    costs = store.load(_COSTS)
    costs = costs if isinstance(costs, dict) else {}
    store.store(_COSTS, _bounded(costs, identity, {"seconds": round(seconds, 3)}))


def query_seconds(identity: str) -> float | None:
    """How long the last ``--query`` of this binary took, or None when none was timed."""
    costs = cache().load(_COSTS)
    entry = costs.get(identity) if isinstance(costs, dict) else None
    seconds = entry.get("seconds") if isinstance(entry, dict) else None
    return float(seconds) if type(seconds) in (int, float) and 0 <= seconds < 3600 else None


def store_schema_verdict(identity: str, columns: list[str], missing: list[str]) -> None:
    """What the last query of this binary found in its index: a digest of the columns
    read, and the ones the template needs that it lacks (issue 41: a release is accepted
    by its index's schema, once per binary identity and schema)."""
    store = cache()
    known = store.load(_SCHEMAS)
    known = known if isinstance(known, dict) else {}
    entry = {"schema_digest": digest(sorted(columns)), "missing": sorted(missing)}
    store.store(_SCHEMAS, _bounded(known, identity, entry))


def schema_verdict(identity: str) -> list[str] | None:
    """The columns this binary's index was found to lack ([] when it had them all), or
    None when no query of it has read its schema yet."""
    known = cache().load(_SCHEMAS)
    entry = known.get(identity) if isinstance(known, dict) else None
    missing = entry.get("missing") if isinstance(entry, dict) else None
    if isinstance(missing, list) and all(isinstance(m, str) for m in missing):
        return missing
    return None


def binding_key(binding: Mapping[str, Any], identity: str) -> str:
    """Which binding and binary a set of readback facts belongs to. What the host adds
    to a binding per request (the session mode and the claimed sessions) is left out, so
    that a recall's facts are the ones status reads back (issue 31: status said ``fresh``
    from an older readback right after a recall said ``stale``)."""
    scope = {k: v for k, v in binding.items() if k not in ("claimed_sessions", "agent_sessions")}
    return digest([identity, scope])


def store_facts(key: str, facts: dict[str, Any]) -> None:
    store = cache()
    known = store.load(_FACTS)
    known = known if isinstance(known, dict) else {}
    entry = {**facts, "taken_at": _now(), "taken": time.time()}
    store.store(_FACTS, _bounded(known, key, entry))


def cached_facts(key: str) -> dict[str, Any] | None:
    """The facts remembered for ``key`` if they are younger than ``FACTS_TTL_S``."""
    known = cache().load(_FACTS)
    entry = known.get(key) if isinstance(known, dict) else None
    if isinstance(entry, dict) and _fresh(entry.get("taken"), FACTS_TTL_S):
        return entry
    return None
