# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The recall service: admission -> provider (with a deadline) -> host verification ->
private store + public receipt. Nothing raises out of :func:`recall`: every failure is a
typed empty outcome with a receipt, and the work lane continues.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import attrs

from loopx_recall_core.contracts import (
    ContractError,
    HistoricalEvidenceReceiptV0,
    HistoricalEvidenceRequestV0,
    HistoricalEvidenceResultV0,
    result_problems,
    structure,
    unstructure,
)
from loopx_recall_core.hookspecs import RecallProvider, SessionListingProvider
from loopx_recall_core.plugins import (
    DeadlineExceeded,
    PluginHost,
    call_with_deadline,
    find_recall_entry,
)
from loopx_recall_core.providers_api import ProviderFailure
from loopx_recall_core.recall.admission import STAGE_TRIGGERS, Admitted, admit
from loopx_recall_core.recall.coverage import unclaimed_sessions
from loopx_recall_core.recall.ledger import Claim, SessionLedger, Tombstone
from loopx_recall_core.recall.outcome import REASON_CODES, RecallOutcome
from loopx_recall_core.recall.receipts import failure_receipt, result_receipt
from loopx_recall_core.recall.stage_gate import stage_two_verdict
from loopx_recall_core.recall.store import PrivateStore
from loopx_recall_core.redaction import redact_snippet
from loopx_recall_core.state import Enablement, StateStore

__all__ = ["DEFAULT_TIMEOUT_S", "RecallService", "find_recall_provider", "recall"]

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = 20.0
_HOST_GRACE_S = 1.0


def find_recall_provider(host: PluginHost, provider_id: str) -> RecallProvider | None:
    """The loaded recall provider with ``provider_id``, if any plugin contributes it."""
    entry = find_recall_entry(host, provider_id)
    return entry[1] if entry is not None else None


def _claimed_refs(claims: Sequence[Claim | Tombstone]) -> frozenset[str]:
    """The names a result may give the claimed sessions, runtime by runtime: a Claude
    session by its own id, the others by the runtime-prefixed id session indexes use
    (``codex:<thread id>``). A bare id is never accepted for a prefixed runtime, so a claim
    for one runtime cannot admit another runtime's session of the same name."""
    return frozenset(
        c.session_id if c.runtime == "claude" else f"{c.runtime}:{c.session_id}" for c in claims
    )


def _still_qualified(
    store: PrivateStore,
    provider_id: str,
    provider: RecallProvider,
    enablement: Enablement,
    timeout: float,
) -> bool:
    """Whether a passing Stage 0 verdict exists for the runtime the enablement resolves to
    now (checked at every stage-2 request, not only when stage 2 was enabled), asking the
    provider for its runtime within ``timeout`` seconds (the request's own deadline)."""
    _, _, verdict = stage_two_verdict(
        StateStore(store.root), provider_id, provider, enablement.binding, timeout
    )
    return bool(verdict and verdict.passed)


def _verify(
    request: HistoricalEvidenceRequestV0,
    returned: object,
    claimed: frozenset[str] | None = None,
    forgotten: frozenset[str] = frozenset(),
) -> tuple[HistoricalEvidenceResultV0 | None, str | None]:
    """The result if it honestly answers ``request``, else the rejection reason.

    ``claimed`` (claimed-session mode): the only sessions the items may come from, and a
    result that says it used another agent's sessions is out of scope. ``forgotten``:
    sessions no item may come from (``session forget``)."""
    if isinstance(returned, Mapping):
        try:
            returned = structure(dict(returned), HistoricalEvidenceResultV0)
        except ContractError:
            return None, "contract_violation"
    if not isinstance(returned, HistoricalEvidenceResultV0):
        return None, "contract_violation"
    problems = result_problems(request, returned)
    if any(p.startswith(("$.scope_applied", "$.request_id")) for p in problems):
        return None, "scope_violation"
    if problems:
        return None, "contract_violation"
    if claimed is not None and (
        returned.scope_applied.cross_agent_used
        or any(item.session_ref not in claimed for item in returned.items)
    ):
        return None, "scope_violation"
    if any(item.session_ref in forgotten for item in returned.items):
        return None, "scope_violation"
    return returned, None


def _redacted(
    request: HistoricalEvidenceRequestV0, result: HistoricalEvidenceResultV0
) -> HistoricalEvidenceResultV0:
    """``result`` with every snippet through the one redactor, still within the request's
    limits: a marker longer than its secret never takes a snippet past
    ``max_snippet_chars``, and if the grown snippets together pass ``max_total_chars``,
    each grown one is cut back to its own length (the total is then the provider's)."""
    limits = request.limits
    snippets = [redact_snippet(item.snippet, limits.max_snippet_chars) for item in result.items]
    if sum(map(len, snippets)) > limits.max_total_chars:
        snippets = [
            new if len(new) <= len(old.snippet) else redact_snippet(old.snippet, len(old.snippet))
            for old, new in zip(result.items, snippets, strict=True)
        ]
    items = tuple(
        attrs.evolve(item, snippet=snippet)
        for item, snippet in zip(result.items, snippets, strict=True)
    )
    return attrs.evolve(result, items=items)


def recall(
    request: HistoricalEvidenceRequestV0,
    *,
    provider_id: str,
    host: PluginHost,
    enablements: list[Enablement] | tuple[Enablement, ...],
    store: PrivateStore | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
    surface: str = "replan-history",
    current_sessions: tuple[str, ...] = (),
    require_verdict: bool = True,
) -> RecallOutcome:
    """Run one historical-evidence request end to end; never raises for provider faults.

    ``current_sessions`` names the sessions the agent is running in right now (e.g. the
    running Codex thread or Claude session id): they are not history, and the provider
    receives them as its ``exclude_sessions`` argument, with every forgotten session
    (``session forget``, read from the session ledger; an item of one rejects the result).

    The host decides whose sessions count (the enablement's ``agent_sessions``) and says so
    in the binding it hands over: ``agent_sessions`` (``claimed`` or ``runtime``) and, when
    claimed, ``claimed_sessions`` (``[{"runtime", "session_id"}]`` read from the session
    ledger for this agent and project, runtime-native ids). It re-checks every item's
    session against that list, and sets ``scope_applied.cross_agent_used`` itself: true
    exactly when the identity is the runtime's.

    A stage-2 trigger also needs a passing Stage 0 verdict for the runtime the enablement
    resolves to now (``require_verdict``; only the Stage 0 bench itself, which earns the
    verdict, turns it off): a binary swapped since stage 2 was enabled is refused.

    The private store's problems (an unusable state folder) raise
    :class:`~loopx_recall_core.state.StateError`: they are the owner's environment, not
    the provider's, and are checked before the provider runs.
    """
    deadline = time.monotonic() + timeout  # one deadline for the whole request
    store = store or PrivateStore()
    key = store.receipt_key()
    decision = admit(request, enablements, provider_id=provider_id, surface=surface)
    if not isinstance(decision, Admitted):
        return _finish(request, provider_id, "unknown", "refused", decision.reason, store, key)
    request = decision.request
    provider = find_recall_provider(host, provider_id)
    if provider is None:
        return _finish(
            request, provider_id, "unknown", "failed", "provider_not_installed", store, key
        )
    version = str(getattr(provider, "provider_version", "unknown") or "unknown")
    enablement = decision.enablement
    if require_verdict and request.trigger not in STAGE_TRIGGERS[1]:
        # Stage 2 was granted for the runtime qualified at enable time; the binding may
        # resolve to another binary now (an update, another PATH): no verdict, no stage 2.
        qualified = _still_qualified(
            store, provider_id, provider, enablement, deadline - time.monotonic()
        )
        if time.monotonic() >= deadline:
            return _finish(request, provider_id, version, "failed", "provider_timeout", store, key)
        if not qualified:
            return _finish(
                request, provider_id, version, "refused", "trigger_not_admitted_at_stage",
                store, key,
            )  # fmt: skip
    binding = dict(enablement.binding)
    mode = enablement.session_mode
    binding["agent_sessions"] = mode
    claimed = None
    claims, tombstones = SessionLedger(store.root).view(
        agent_id=enablement.agent_id, project_id=enablement.project_id
    )
    forgotten = _claimed_refs(tombstones)  # out of every recall: excluded, then re-checked
    excluded = (*current_sessions, *sorted(forgotten))
    if mode == "claimed":
        binding["claimed_sessions"] = [
            {"runtime": c.runtime, "session_id": c.session_id} for c in claims
        ]
        claimed = _claimed_refs(claims)
    remaining = deadline - time.monotonic()
    try:
        returned = call_with_deadline(
            lambda: provider.retrieve(
                request, binding, timeout=remaining, exclude_sessions=excluded
            ),
            remaining + _HOST_GRACE_S,
        )
    except DeadlineExceeded:
        return _finish(request, provider_id, version, "failed", "provider_timeout", store, key)
    except ProviderFailure as failure:
        reason = failure.reason if failure.reason in REASON_CODES else "provider_failed"
        return _finish(request, provider_id, version, "failed", reason, store, key)
    except Exception as exc:  # noqa: BLE001 - fail open for the work lane
        log.warning("recall provider raised %s", type(exc).__name__)
        return _finish(request, provider_id, version, "failed", "provider_failed", store, key)
    result, rejection = _verify(request, returned, claimed, forgotten)
    if result is None:
        outcome = _finish(request, provider_id, version, "failed", rejection, store, key)
        return attrs.evolve(outcome, agent_sessions=mode)
    if mode == "runtime" and not result.scope_applied.cross_agent_used:
        # The host knows what a provider cannot: under runtime identity, other agents'
        # sessions were not excluded.
        result = attrs.evolve(
            result, scope_applied=attrs.evolve(result.scope_applied, cross_agent_used=True)
        )
    # One choke point: what is stored, returned and digested is the redacted result, so
    # the receipt verifies against the stored record (``recall receipt``).
    result = _redacted(request, result)
    unclaimed = None
    if mode == "claimed" and isinstance(provider, SessionListingProvider):
        result, unclaimed = _covered(result, provider, binding, store, deadline)
    log.info("recall succeeded: %d items", len(result.items))
    receipt = result_receipt(request, result, key=key)
    outcome = _outcome(store, request, "succeeded", None, receipt, result)
    return attrs.evolve(outcome, agent_sessions=mode, unclaimed_sessions=unclaimed)


def _covered(
    result: HistoricalEvidenceResultV0,
    provider: SessionListingProvider,
    binding: Mapping[str, Any],
    store: PrivateStore,
    deadline: float,
) -> tuple[HistoricalEvidenceResultV0, int | None]:
    """The result with its freshness lowered when sessions in scope are unclaimed (or
    cannot be listed): absence is not evidence then. Also how many are unclaimed."""
    unclaimed = unclaimed_sessions(
        provider, binding, SessionLedger(store.root), timeout=deadline - time.monotonic()
    )
    count = None if unclaimed is None else len(unclaimed)
    if result.freshness == "fresh" and count != 0:
        result = attrs.evolve(result, freshness="unknown" if count is None else "incomplete")
    return result, count


@attrs.define(kw_only=True)
class RecallService:
    """:func:`recall` bound to a provider, a plugin host and the enablements: what the
    command line and the Stage 0 bench hand to Replan (called with a request, it returns
    the outcome and never raises for a provider's fault).

    ``host`` may be a loader, called once on the first need: a Replan that admits
    nothing never imports a plugin.
    """

    provider_id: str
    host: PluginHost | Callable[[], PluginHost]
    enablements: Sequence[Enablement]
    store: PrivateStore | None = None
    timeout: float = DEFAULT_TIMEOUT_S
    current_sessions: tuple[str, ...] = ()
    require_verdict: bool = True

    def plugin_host(self) -> PluginHost:
        if not isinstance(self.host, PluginHost):
            self.host = self.host()
        return self.host

    def __call__(self, request: HistoricalEvidenceRequestV0) -> RecallOutcome:
        return recall(
            request,
            provider_id=self.provider_id,
            host=self.plugin_host(),
            enablements=tuple(self.enablements),
            store=self.store,
            timeout=self.timeout,
            current_sessions=self.current_sessions,
            require_verdict=self.require_verdict,
        )


def _finish(
    request: HistoricalEvidenceRequestV0,
    provider_id: str,
    version: str,
    status: str,
    reason: str | None,
    store: PrivateStore,
    key: bytes,
) -> RecallOutcome:
    reason = reason or "provider_failed"
    receipt = failure_receipt(
        request,
        provider_id=provider_id,
        provider_version=version,
        status=status,
        reason=reason,
        key=key,
    )
    log.info("recall %s: %s", status, reason)
    return _outcome(store, request, status, reason, receipt, None)


def _outcome(
    store: PrivateStore,
    request: HistoricalEvidenceRequestV0,
    status: str,
    reason: str | None,
    receipt: HistoricalEvidenceReceiptV0,
    result: HistoricalEvidenceResultV0 | None,
) -> RecallOutcome:
    """Keep the full record owner-local, hand back status, reason, receipt and its ref."""
    record: dict[str, Any] = {
        "schema_version": "loopx_private_recall_v0",
        "stored_at": datetime.now(UTC).isoformat(),
        "status": status,
        "request": unstructure(request),
        "receipt": unstructure(receipt),
    }
    if reason is not None:
        record["reason"] = reason
    if result is not None:
        record["result"] = unstructure(result)
    # A request for an agent and project with no enablement leaves nothing behind: no
    # private record is kept for a scope the owner never opened.
    unopened = status == "refused" and reason == "not_enabled"
    private_ref = (
        None if unopened else store.save(request.scope.agent_id, request.request_id, record)
    )
    return RecallOutcome(
        status=status, reason=reason, receipt=receipt, result=result, private_ref=private_ref
    )
