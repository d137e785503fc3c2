# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Coverage of a claimed-session answer: which sessions in scope nobody claimed.

With claimed agent sessions only the claimed ones are searched, so an answer is complete
only when every session of the bound runtimes in the repository and window is claimed by
someone (this agent or another) or forgotten: a session nobody claimed may be this agent's, and its
history is missing from the answer. The provider lists the sessions it finds on disk
(:class:`~loopx_recall_core.plugin.protocols.SessionListingProvider`); the ledger says which are
claimed. The RFC: absence is never evidence when coverage is unknown, so an answer with
unclaimed sessions is never ``fresh`` (it says ``incomplete``; ``unknown`` when the
listing failed) and Replan's comparison is then never ``no_prior_match``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from loopx_recall_core.plugin.manager import call_with_deadline
from loopx_recall_core.plugin.records import SessionCandidate

__all__ = [
    "LISTING_TIMEOUT_S",
    "NoListing",
    "sessions_on_disk",
    "unclaimed_in",
    "unclaimed_sessions",
]

#: The listing's bound when the caller has no deadline of its own (``session candidates``).
LISTING_TIMEOUT_S = 10.0
_HOST_GRACE_S = 1.0


def unclaimed_sessions(
    provider: Any, binding: Mapping[str, Any], ledger: Any, *, timeout: float
) -> list[SessionCandidate] | None:
    """The provider's sessions in scope that no agent claimed (newest first); None when the
    provider cannot list sessions, or did not within ``timeout`` seconds."""
    if timeout <= 0:
        return None
    try:
        return unclaimed_in(_listed(provider, binding, timeout), ledger)
    except NoListing:  # coverage unknown
        return None


def unclaimed_in(found: list[SessionCandidate], ledger: Any) -> list[SessionCandidate]:
    """The sessions of ``found`` no agent claimed and nobody forgot (a claimed session
    belongs to someone; a forgotten one is out of every recall)."""
    claims, forgotten = ledger.view()
    held = {(c.runtime, c.session_id) for c in (*claims, *forgotten)}
    return [c for c in found if (c.runtime, c.session_id) not in held]


class NoListing(Exception):
    """The sessions cannot be listed (nothing enabled, no provider that lists, or it
    failed); the message is safe to print."""


def sessions_on_disk(
    agent_id: str,
    project_id: str,
    *,
    state: Any = None,
    host: Any = None,
    timeout: float = LISTING_TIMEOUT_S,
) -> tuple[list[SessionCandidate], Any]:
    """Every session the enablement of ``agent_id`` in ``project_id`` covers, as its provider
    finds them on disk, and the ledger; :class:`NoListing` when they cannot be listed.
    ``state`` defaults to the owner's, ``host`` to the installed plugins."""
    from loopx_recall_core.plugin.manager import load_host
    from loopx_recall_core.recall.resolver import resolve_provider
    from loopx_recall_core.recall.sessions.ledger import SessionLedger
    from loopx_recall_core.state import StateStore

    state = state if state is not None else StateStore().read()
    host = host if host is not None else load_host

    enablements = [e for e in state.enablements
                   if e.agent_id == agent_id and e.project_id == project_id]  # fmt: skip
    if not enablements:
        raise NoListing(
            "nothing is enabled for this agent and project: run `loopx-recall capability enable`"
        )
    enablement = enablements[-1]
    provider = resolve_provider(host, enablement.provider_id).provider
    found = _listed(provider, enablement.binding, timeout)
    return found, SessionLedger()


def _listed(provider: Any, binding: Mapping[str, Any], timeout: float) -> list[SessionCandidate]:
    """What the provider's ``session_candidates`` lists within ``timeout`` seconds (and the
    host's grace); :class:`NoListing` when it cannot, fails, or lists something else."""
    lister = getattr(provider, "session_candidates", None)
    if not callable(lister):
        raise NoListing("the enabled provider cannot list sessions")
    try:
        found = call_with_deadline(
            lambda: list(lister(binding, timeout=timeout)), timeout + _HOST_GRACE_S
        )
    except Exception:  # noqa: BLE001 - a provider's failure or deadline, without its text
        raise NoListing("the provider could not list the sessions in time") from None
    if not all(isinstance(c, SessionCandidate) for c in found):
        raise NoListing("the provider listed something that is not a session")
    return found
