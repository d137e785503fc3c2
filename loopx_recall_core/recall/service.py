# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The recall service: admission -> provider (with a deadline) -> host verification ->
private store + public receipt. Nothing raises out of :func:`recall`: every failure is a
typed empty outcome with a receipt, and the work lane continues.

Long because: one request (:meth:`RecallService.admitted`) and a run of pages made by one
provider call (:meth:`RecallService.pages`, the guard's whole-window set) go the same
path through the same private helpers (the verdict gate, the deadline, verification,
redaction, coverage, the record and receipt); split, the two would drift apart.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from loopx_recall_core.contracts import (
    ContractError,
    HistoricalEvidenceRequestV0,
    HistoricalEvidenceResultV0,
    result_problems,
    structure,
)
from loopx_recall_core.plugin.manager import DeadlineExceeded, PluginHost, call_with_deadline
from loopx_recall_core.plugin.protocols import (
    PagedRecallProvider,
    RecallProvider,
    SessionListingProvider,
)
from loopx_recall_core.plugin.records import ProviderFailure
from loopx_recall_core.recall.attempt import Attempt
from loopx_recall_core.recall.coverage import unclaimed_sessions
from loopx_recall_core.recall.next_steps import BEHIND_FALLBACK
from loopx_recall_core.recall.outcome import REASON_CODES, RecallOutcome
from loopx_recall_core.recall.request_admission import STAGE_TRIGGERS, Admitted, admit
from loopx_recall_core.recall.resolver import Host, LazyHost, Resolved
from loopx_recall_core.recall.sessions.ledger import Claim, SessionLedger, Tombstone
from loopx_recall_core.recall.stage_gate import stage_two_verdict
from loopx_recall_core.recall.store import PrivateStore
from loopx_recall_core.redaction import redact_snippet
from loopx_recall_core.runtimes import index_session_name
from loopx_recall_core.state import Enablement, StateStore

__all__ = ["DEFAULT_TIMEOUT_S", "RecallService"]

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = 20.0
_HOST_GRACE_S = 1.0
#: Outcomes after which text output shows the provider's ``unavailable_hint``: its runtime
#: is missing, or is a release it does not support (the hint then names both).
_HINTED = frozenset({"provider_unavailable", "unsupported_runtime_version"})


def _claimed_refs(claims: Sequence[Claim | Tombstone]) -> frozenset[str]:
    """The names a result may give the claimed sessions, runtime by runtime: a Claude
    session by its own id, the others by the runtime-prefixed id session indexes use
    (``codex:<thread id>``). A bare id is never accepted for a prefixed runtime, so a claim
    for one runtime cannot admit another runtime's session of the same name."""
    return frozenset(index_session_name(c.runtime, c.session_id) for c in claims)


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


@attrs.frozen
class _Scope:
    """What the host hands the provider about whose sessions count."""

    binding: dict[str, Any]
    claimed: frozenset[str] | None  # claimed mode: the only sessions items may come from
    forgotten: frozenset[str]
    excluded: tuple[str, ...]


def _session_scope(
    enablement: Enablement, store: PrivateStore, current_sessions: tuple[str, ...]
) -> _Scope:
    binding = dict(enablement.binding)
    mode = enablement.session_mode
    binding["agent_sessions"] = mode
    claims, tombstones = SessionLedger(store.root).view(
        agent_id=enablement.agent_id, project_id=enablement.project_id
    )
    forgotten = _claimed_refs(tombstones)  # out of every recall: excluded, then re-checked
    claimed = None
    if mode == "claimed":
        binding["claimed_sessions"] = [
            {"runtime": c.runtime, "session_id": c.session_id} for c in claims
        ]
        claimed = _claimed_refs(claims)
    return _Scope(binding, claimed, forgotten, (*current_sessions, *sorted(forgotten)))


def _retrieve(
    provider: RecallProvider,
    request: HistoricalEvidenceRequestV0,
    scope: _Scope,
    deadline: float,
) -> tuple[object, str | None]:
    """What the provider returned within the deadline, or the failure reason."""
    return _call(
        lambda remaining: provider.retrieve(
            request, scope.binding, timeout=remaining, exclude_sessions=scope.excluded
        ),
        deadline,
    )


def _call(ask: Callable[[float], object], deadline: float) -> tuple[object, str | None]:
    """What ``ask(remaining seconds)`` returned within the deadline, or the failure reason."""
    remaining = deadline - time.monotonic()
    try:
        returned = call_with_deadline(lambda: ask(remaining), remaining + _HOST_GRACE_S)
    except DeadlineExceeded:
        return None, "provider_timeout"
    except ProviderFailure as failure:
        return None, failure.reason if failure.reason in REASON_CODES else "provider_failed"
    except Exception as exc:  # noqa: BLE001 - fail open for the work lane
        log.warning("recall provider raised %s", type(exc).__name__)
        return None, "provider_failed"
    return returned, None


#: Freshness values that say the index may not hold the newest sessions in scope.
_BEHIND = ("stale", "incomplete", "unknown")


def _unavailable_hint(provider: RecallProvider, name: str = "unavailable_hint") -> str | None:
    """The provider's own sentence on getting its runtime (``refresh_hint``: on refreshing
    its index), if it gives one as text."""
    try:
        hint = getattr(provider, name, None)
    except Exception:  # noqa: BLE001 - a plugin that fails here gives no hint, no traceback
        return None
    return hint.strip()[:400] if isinstance(hint, str) and hint.strip() else None


def _host_checked(
    request: HistoricalEvidenceRequestV0, result: HistoricalEvidenceResultV0, mode: str
) -> HistoricalEvidenceResultV0:
    """The verified result as the host states it: under runtime identity other agents'
    sessions were not excluded (the host knows what a provider cannot), and every snippet
    through the one redactor, so the receipt verifies against the stored record."""
    if mode == "runtime" and not result.scope_applied.cross_agent_used:
        result = attrs.evolve(
            result, scope_applied=attrs.evolve(result.scope_applied, cross_agent_used=True)
        )
    return _redacted(request, result)


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


def _lazy_host(host: Host) -> LazyHost:
    return host if isinstance(host, LazyHost) else LazyHost(host)


@attrs.frozen(kw_only=True)
class RecallService:
    """One recall provider (its id resolved once, by
    :func:`~loopx_recall_core.recall.resolver.resolve_provider`, and fixed), its plugin
    host and the enablements: what the command line, the guard and the Stage 0 bench hand
    to Replan. Called with a request, it admits it and returns the outcome; it never
    raises for a provider's fault.

    ``host`` may be a loader, called once on the first need: a Replan that admits
    nothing never imports a plugin. The owner's receipt key is read once per service.

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
    verdict, turns it off): a binary swapped since stage 2 was enabled is refused. The
    private store's problems (an unusable state folder) raise
    :class:`~loopx_recall_core.state.StateError`: they are the owner's environment, not
    the provider's, and are checked before the provider runs.
    """

    provider_id: str
    host: LazyHost = attrs.field(converter=_lazy_host)
    enablements: tuple[Enablement, ...] = attrs.field(converter=tuple)
    store: PrivateStore | None = None
    timeout: float = DEFAULT_TIMEOUT_S
    current_sessions: tuple[str, ...] = ()
    require_verdict: bool = True
    _memo: dict[str, Any] = attrs.field(factory=dict, init=False, eq=False, repr=False)

    @classmethod
    def of(cls, resolved: Resolved, **kwargs: Any) -> RecallService:
        """The service for a resolved provider (its id and its host)."""
        return cls(provider_id=resolved.provider_id, host=resolved.host, **kwargs)

    def plugin_host(self) -> PluginHost:
        return self.host()

    def provider(self) -> RecallProvider | None:
        """The loaded provider with this service's id (None: no plugin contributes it)."""
        return Resolved(provider_id=self.provider_id, host=self.host).provider

    def private_store(self) -> PrivateStore:
        if "store" not in self._memo:
            self._memo["store"] = self.store or PrivateStore()
        return self._memo["store"]

    def receipt_key(self) -> bytes:
        """The owner's receipt key (read once; an unusable state folder raises
        :class:`~loopx_recall_core.state.StateError`)."""
        if "key" not in self._memo:
            self._memo["key"] = self.private_store().receipt_key()
        return self._memo["key"]

    def id_key(self) -> bytes | None:
        """The key Replan's request ids use: the owner's, when anything is enabled (request
        ids in public output then cannot confirm a guess); with nothing enabled nothing is
        admitted, and no key file is made."""
        return self.receipt_key() if self.enablements else None

    def __call__(
        self, request: HistoricalEvidenceRequestV0, *, surface: str = "replan-history"
    ) -> RecallOutcome:
        """Admit ``request``, then :meth:`admitted`; a refusal is a typed outcome."""
        key = self.receipt_key()
        self.private_store().begin()  # unless the caller read it before the state
        decision = admit(request, self.enablements, provider_id=self.provider_id, surface=surface)
        if not isinstance(decision, Admitted):
            attempt = Attempt(
                request=request, provider_id=self.provider_id, store=self.private_store(), key=key
            )
            return attempt.refuse(decision.reason)
        return self.admitted(decision)

    def _attempt(self, request: HistoricalEvidenceRequestV0) -> Attempt:
        return Attempt(
            request=request,
            provider_id=self.provider_id,
            store=self.private_store(),
            key=self.receipt_key(),
        )

    def _ready(
        self, decision: Admitted, attempt: Attempt, deadline: float
    ) -> tuple[RecallProvider | None, RecallOutcome | None]:
        """The provider, or the outcome that ends the recall before it is asked."""
        provider = self.provider()
        if provider is None:
            return None, attempt.fail("provider_not_installed")
        attempt.version = str(getattr(provider, "provider_version", "unknown") or "unknown")
        if self.require_verdict and decision.request.trigger not in STAGE_TRIGGERS[1]:
            # Stage 2 was granted for the runtime qualified at enable time; the binding may
            # resolve to another binary now (an update, another PATH): no verdict, no stage 2.
            qualified = _still_qualified(
                attempt.store, self.provider_id, provider, decision.enablement,
                deadline - time.monotonic(),
            )  # fmt: skip
            if time.monotonic() >= deadline:
                return None, attempt.fail("provider_timeout")
            if not qualified:
                return None, attempt.refuse("trigger_not_admitted_at_stage")
        return provider, None

    def pages(self, requests: Sequence[HistoricalEvidenceRequestV0]) -> list[RecallOutcome]:
        """Recall a run of page requests (the same but for their ids) in ONE provider call
        (:class:`~loopx_recall_core.plugin.protocols.PagedRecallProvider`): one outcome per page
        answered, each verified, redacted and recorded with its receipt as any recall; any
        refusal or failure, or one page that breaks its request, is one outcome for the
        first request and nothing else is kept. A provider without pages answers the first
        request alone."""
        deadline = time.monotonic() + self.timeout
        self.private_store().begin()  # before the ledger is read (owner_decisions)
        decisions = [admit(r, self.enablements, provider_id=self.provider_id) for r in requests]
        if not decisions or not all(isinstance(d, Admitted) for d in decisions):
            return [self(requests[0])] if requests else []
        admitted = [d for d in decisions if isinstance(d, Admitted)]
        attempt = self._attempt(admitted[0].request)
        provider, ended = self._ready(admitted[0], attempt, deadline)
        if ended is not None or provider is None:
            return [ended or attempt.fail("provider_not_installed")]
        if not isinstance(provider, PagedRecallProvider):
            return [self.admitted(admitted[0])]
        enablement = admitted[0].enablement
        scope = _session_scope(enablement, attempt.store, self.current_sessions)
        asked = [d.request for d in admitted]
        returned, failure = _call(
            lambda remaining: provider.retrieve_pages(
                asked, scope.binding, timeout=remaining, exclude_sessions=scope.excluded
            ),
            deadline,
        )
        if failure is not None:
            return [attempt.fail(failure)]
        if not isinstance(returned, Sequence) or not 0 < len(returned) <= len(asked):
            return [attempt.fail("contract_violation")]
        results = []
        seen: set[tuple[str, str | None, str]] = set()
        for request, page in zip(asked, returned, strict=False):
            result, rejection = _verify(request, page, scope.claimed, scope.forgotten)
            refs = [(i.session_ref, i.message_ref, i.evidence_type)
                    for i in result.items] if result else []  # fmt: skip
            if result is None or seen.intersection(refs):
                return [attempt.fail(rejection or "contract_violation")]
            seen.update(refs)
            results.append(_host_checked(request, result, enablement.session_mode))
        unclaimed = None
        if results and enablement.session_mode == "claimed" and isinstance(
            provider, SessionListingProvider
        ):
            first, unclaimed = _covered(results[0], provider, scope.binding, attempt.store,
                                        deadline)  # fmt: skip
            results = [attrs.evolve(r, freshness=first.freshness) for r in results]
        outcomes = []
        for request, result in zip(asked, results, strict=False):
            page_attempt = self._attempt(request)
            page_attempt.version, page_attempt.mode = attempt.version, enablement.session_mode
            outcomes.append(page_attempt.succeed(result, unclaimed))
        return outcomes

    def admitted(self, decision: Admitted) -> RecallOutcome:
        """Recall an admitted request (Replan admits once, then calls this): the provider
        within the deadline, the host's checks, the private record and the receipt."""
        deadline = time.monotonic() + self.timeout  # one deadline for the whole request
        self.private_store().begin()  # before the ledger is read (owner_decisions)
        request, enablement = decision.request, decision.enablement
        attempt = self._attempt(request)
        provider, ended = self._ready(decision, attempt, deadline)
        if ended is not None or provider is None:
            return ended or attempt.fail("provider_not_installed")
        scope = _session_scope(enablement, attempt.store, self.current_sessions)
        returned, failure = _retrieve(provider, request, scope, deadline)
        if failure is not None:
            hint = _unavailable_hint(provider) if failure in _HINTED else None
            return attempt.fail(failure, hint=hint)
        attempt.mode = enablement.session_mode  # what the provider answered is judged by it
        result, rejection = _verify(request, returned, scope.claimed, scope.forgotten)
        if result is None:
            return attempt.fail(rejection)
        result = _host_checked(request, result, attempt.mode)
        behind = result.freshness in _BEHIND  # the provider's own word, before coverage
        unclaimed = None
        if attempt.mode == "claimed" and isinstance(provider, SessionListingProvider):
            result, unclaimed = _covered(result, provider, scope.binding, attempt.store, deadline)
        outcome = attempt.succeed(result, unclaimed)
        if behind:  # the index is behind (with or without unclaimed sessions): say so
            hint = _unavailable_hint(provider, "refresh_hint") or BEHIND_FALLBACK
            outcome = attrs.evolve(outcome, unavailable_hint=hint)
        return outcome
