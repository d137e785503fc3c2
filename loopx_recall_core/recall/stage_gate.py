# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The stage-2 gate: a passing Stage 0 verdict for the runtime a binding resolves to NOW.

One gate for ``capability enable --stage 2``, ``capability status`` and every stage-2
request; the provider names its runtime within a bound (the request's own deadline, or
:data:`IDENTITY_TIMEOUT_S`), so a runtime that hangs costs no more than that.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from loopx_recall_core.plugin.manager import call_with_deadline
from loopx_recall_core.plugin.records import RuntimeIdentity
from loopx_recall_core.state import QualificationVerdict, StateStore

__all__ = ["IDENTITY_TIMEOUT_S", "applicable_verdict", "runtime_identity", "stage_two_verdict"]

#: How long ``capability enable --stage 2`` and ``capability status`` wait for a provider to
#: name its runtime (a request waits no longer than its own deadline).
IDENTITY_TIMEOUT_S = 5.0
#: What the host adds to a provider's own bound before it stops waiting for the provider.
_HOST_GRACE_S = 1.0


def runtime_identity(
    provider: Any, binding: Mapping[str, Any] | None, timeout: float = IDENTITY_TIMEOUT_S
) -> RuntimeIdentity | None:
    """The runtime ``binding`` resolves to now, by the provider's own account (None when it
    names none, cannot, fails, or has not answered ``timeout`` seconds later)."""
    name = getattr(provider, "runtime_identity", None)
    if not callable(name) or timeout <= 0:
        return None
    try:
        identity = call_with_deadline(
            lambda: name(binding, timeout=timeout), timeout + _HOST_GRACE_S
        )
    except Exception:  # noqa: BLE001 - a provider's failure or deadline: no identity, no stage 2
        return None
    return identity if isinstance(identity, RuntimeIdentity) else None


def applicable_verdict(
    store: StateStore, provider_id: str, version: str, identity: RuntimeIdentity | None
) -> QualificationVerdict | None:
    """The verdict that decides stage 2 for this provider version on this runtime."""
    if identity is None:
        return None
    return store.read().qualification(
        provider_id, version, runtime=(identity.runtime_version, identity.binary_digest)
    )


def stage_two_verdict(
    store: StateStore,
    provider_id: str,
    provider: Any,
    binding: Mapping[str, Any] | None,
    timeout: float = IDENTITY_TIMEOUT_S,
) -> tuple[str, RuntimeIdentity | None, QualificationVerdict | None]:
    """The provider version, the runtime ``binding`` resolves to now (asked for at most
    ``timeout`` seconds), and the verdict that decides stage 2 there: the one gate for
    enable, status and every stage-2 request."""
    version = str(getattr(provider, "provider_version", "unknown"))
    identity = runtime_identity(provider, binding, timeout)
    return version, identity, applicable_verdict(store, provider_id, version, identity)
