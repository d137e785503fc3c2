# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""What a provider object offers the host: the five provider Protocols, and the entry-point
group plugins register under.

The hooks that return these objects are in :mod:`loopx_recall_core.plugin.spec`; the records
they exchange are in :mod:`loopx_recall_core.plugin.records`. Plugins import all of it
from :mod:`loopx_recall_core.plugin_api`. This module stays light (no attrs, no contracts
at import time): the plugin host checks providers against these Protocols on every start.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from pathlib import Path

    from loopx_recall_core.contracts import HistoricalEvidenceRequestV0, HistoricalEvidenceResultV0
    from loopx_recall_core.plugin.records import (
        BindingOption,
        CorpusScope,
        ProviderReadback,
        RuntimeIdentity,
        SessionCandidate,
    )

__all__ = [
    "ENTRY_POINT_GROUP",
    "ExternalEvidenceProvider",
    "FaultStage",
    "PagedRecallProvider",
    "QualifiableRecallProvider",
    "QualificationRuntime",
    "RecallProvider",
    "SessionListingProvider",
]

#: The entry-point group a provider plugin registers under.
ENTRY_POINT_GROUP = "loopx_recall_core.providers"


@runtime_checkable
class RecallProvider(Protocol):
    """What an agent-turn-recall provider object offers the host.

    ``provider_id`` is stable and unique (``obelisk-session-evidence`` for the first one).
    """

    provider_id: str
    #: The provider distribution's version: receipts carry it and Stage 0 verdicts key on it.
    provider_version: str

    def binding_options(self) -> Sequence[BindingOption]:
        """Options this provider adds to ``loopx-recall capability enable`` (may be empty)."""

    def bind(self, options: Mapping[str, Any], *, cwd: str) -> Mapping[str, Any]:
        """Validate enable-time options and return the binding to store.

        The binding must contain ``repository_id`` (a content-free identity) and may hold
        private values (paths) under ``private``; those are stored owner-local only.
        Raise ``ValueError`` with a message free of private values on bad options.
        """

    def readback(self, binding: Mapping[str, Any] | None) -> ProviderReadback:
        """Lifecycle readback: version, readiness, and runtime facts (public-safe only).

        Called by ``loopx-recall capability status`` and ``loopx-recall extension list``;
        ``binding`` is the stored enablement binding when one exists, else None. Must not
        raise for an absent runtime: report ``ready=False`` with a reason instead.
        """

    def retrieve(
        self,
        request: HistoricalEvidenceRequestV0,
        binding: Mapping[str, Any],
        *,
        timeout: float,
        exclude_sessions: Sequence[str] = (),
    ) -> HistoricalEvidenceResultV0:
        """Answer one admitted request within ``timeout`` seconds.

        ``exclude_sessions`` are the sessions the agent runs in right now, named as the
        caller knows them (a runtime's own id or the index's): they are not history and
        must not come back.

        Called only after host admission. The request's scope is already exactly the
        enabled agent/project/repository. The provider must stay within the binding,
        respect ``request.limits`` and report ``truncated``/``omitted_count`` honestly; the
        host re-checks all of it and rejects the whole result on any violation.
        It may raise: the host turns every exception into a typed empty outcome.

        Optional: a ``unavailable_hint`` string attribute says, in one sentence free of
        private values, how to get the provider's runtime; text output shows it after a
        ``provider_unavailable`` outcome.
        """


@runtime_checkable
class SessionListingProvider(RecallProvider, Protocol):
    """A :class:`RecallProvider` that can list the sessions a binding covers.

    ``session_candidates(binding, timeout=...)`` returns the sessions of the bound runtimes
    in the bound repository and window that it finds on disk (what the index has not seen
    yet counts too; when a file's date is older than the window, the messages' times its
    index holds say whether the session is in it), within ``timeout`` seconds, as
    :class:`~loopx_recall_core.plugin.records.SessionCandidate` records. The host compares
    them with its session ledger: with claimed agent sessions, an unclaimed one means the
    answer's coverage is incomplete (absence is never evidence then), and the owner can
    list and claim them (``loopx-recall session candidates``). It reads transcripts only
    to name their sessions (and, for the owner's terminal, the first words of the first
    prompt); it may raise, and then coverage is unknown.
    """

    def session_candidates(
        self, binding: Mapping[str, Any], *, timeout: float
    ) -> Sequence[SessionCandidate]: ...


@runtime_checkable
class PagedRecallProvider(RecallProvider, Protocol):
    """A :class:`RecallProvider` that can answer a run of pages in ONE call: the bounded
    way the guard's prior-outcome set covers a whole window (every shell call of the
    agent's claimed sessions in the repository and window), which one v0 result (at most
    64 items) cannot carry.

    ``retrieve_pages(requests, binding, timeout=..., exclude_sessions=...)`` gets admitted
    requests that differ only in their ids (the same scope, trigger, terms, types and
    limits; at most the host's page bound, ``loopx_recall_core.guard.prefetch.MAX_PAGES``)
    and returns one to ``len(requests)`` ``historical_evidence_result_v0`` records (the first
    may be empty), in order: page
    ``n`` answers ``requests[n]`` within its limits, the pages together are the answer in
    the provider's ranking (newest first), none repeats an item of another, and fewer
    pages than requests means there was no more. Every page but the last says what
    follows it as omitted (``truncated``). One provider process makes all of them, within
    ``timeout``. The host verifies, redacts and records each page as the answer to its
    own request (a receipt each), rejects them all on any violation, and keeps them only
    as private state: what reaches the agent is the guard's one warning (600 characters).
    A provider without this method is asked the usual way, one page.
    """

    def retrieve_pages(
        self,
        requests: Sequence[HistoricalEvidenceRequestV0],
        binding: Mapping[str, Any],
        *,
        timeout: float,
        exclude_sessions: Sequence[str] = (),
    ) -> Sequence[HistoricalEvidenceResultV0]: ...


#: ``fault_probes()`` values: a context manager that stages the fault for the duration of
#: the block (e.g. writes a stand-in executable) and yields how to rewrite a binding so that
#: calls made with it meet the fault.
FaultStage = Callable[
    [], contextlib.AbstractContextManager[Callable[[Mapping[str, Any]], Mapping[str, Any]]]
]


@runtime_checkable
class QualificationRuntime(Protocol):
    """The provider's side of Stage 0 (``loopx-recall recall qualify``) for ONE synthetic
    archive under ``home``. The host owns the corpus, the arms, the measures, the gates and
    the verdict; it knows nothing of how the provider is bound, indexed or broken, and asks
    this object instead. The host sets ``HOME`` to ``home`` (plus :attr:`environment`)
    while it uses the object; it may call ``retrieve`` from a few threads at once.
    """

    #: Variables to set (a value) or remove (None) while the runtime works on the archive,
    #: besides ``HOME``: e.g. a runtime's own index-location variable, so that nothing of
    #: the user's is read or written.
    environment: Mapping[str, str | None]

    def bind_options(self, scope: CorpusScope) -> Mapping[str, Any]:
        """The ``bind`` options (as ``capability enable`` would pass them) for ``scope``."""

    def prepare(self, *, timeout: float) -> RuntimeIdentity:
        """Make the archive queryable with the user's configured runtime (build its index)
        and return which runtime that is. Raise ``ProviderFailure`` when it cannot."""

    def bare_call(self, *, timeout: float) -> float:
        """Seconds one minimal runtime call takes (no evidence work): the latency floor
        the host's latency gate is relative to. Raise ``ProviderFailure`` on failure."""

    def fault_probes(self) -> Mapping[str, FaultStage]:
        """The faults of ``plugin.records.FAULT_KINDS`` this provider can stage, by name.

        Staging must not need a test double: a provider typically yields a binding that
        points at a small stand-in executable. A fault it cannot stage is left out (the
        host then reports that probe as not exercised, and the gate fails).
        """


@runtime_checkable
class QualifiableRecallProvider(RecallProvider, Protocol):
    """A :class:`RecallProvider` that can be qualified (Stage 0) and gated on (stage 2).

    ``provider_version`` is what verdicts are recorded for, together with the runtime
    identity. ``qualification_runtime(home)`` returns the provider's
    :class:`QualificationRuntime` for a synthetic archive under ``home``;
    ``runtime_identity(binding, timeout=...)`` names the runtime a binding resolves to NOW
    (None when there is none, or when finding out takes longer than ``timeout`` seconds:
    a probe it starts is killed by then): ``capability enable --stage 2`` and every
    stage-2 request need a passing verdict for it, and it runs inside the request's own
    deadline. Both must be cheap and must not raise.
    """

    provider_version: str

    def qualification_runtime(self, home: Path) -> QualificationRuntime: ...

    def runtime_identity(
        self, binding: Mapping[str, Any] | None, *, timeout: float
    ) -> RuntimeIdentity | None: ...


@runtime_checkable
class ExternalEvidenceProvider(Protocol):
    """An external-evidence-research provider (``method`` or ``connector``).

    It only declares itself; execution stays with its owner. ``readback()`` returns the
    live lifecycle: ``{"declared", "installed", "enabled", "ready", "unavailable_reason"}``.
    """

    provider_id: str
    provider_kind: str

    def readback(self) -> Mapping[str, Any]:
        """Current lifecycle booleans and reason, read at discovery time (never cached)."""
