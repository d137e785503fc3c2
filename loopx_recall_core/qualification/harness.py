# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Run a corpus through the three arms, probe faults, judge the gates, build the report.

Stage 0 is offline: no product registration happens. The harness builds stage-2
:class:`~loopx_recall_core.state.Enablement` objects in memory (one per expected scope,
bound by the provider's own ``bind`` with the options its qualification runtime gives for
a generic :class:`~loopx_recall_core.plugin.records.CorpusScope`), keeps private results in
a throw-away store, and points the provider at each family's archive by setting ``HOME``
(plus the variables the provider's runtime asks for) for the duration of that family;
restored afterwards. The provider's ``QualificationRuntime`` makes the archive queryable
with the user's configured runtime (``prepare``) and says which runtime that is (the
verdict is recorded for it); the ``stale`` family then writes its late transcripts and runs
with the provider's ``stale`` staging, so the index stays behind. Within one family the
cases run on a small thread pool (:data:`WORKERS`): a runtime whose query costs seconds
still qualifies in minutes. Your own transcripts and index are never read or written;
only :func:`.result.record_verdict` writes state. A provider's options, index and faults are all
behind its qualification runtime (``plugin.protocols.QualificationRuntime``).
"""

from __future__ import annotations

import contextlib
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import attrs

from loopx_recall_core.plugin.manager import PluginHost, load_host
from loopx_recall_core.plugin.records import CorpusScope, ProviderFailure, RuntimeIdentity
from loopx_recall_core.qualification._env import environment
from loopx_recall_core.qualification.arms import (
    ARMS,
    CaseRecord,
    current_context,
    native_history,
    provider_arm,
)
from loopx_recall_core.qualification.assemble import REPORT_SCHEMA, build_report
from loopx_recall_core.qualification.corpus import (
    DEFAULT_CASES,
    DEFAULT_SEED,
    Case,
    build_corpus,
)
from loopx_recall_core.qualification.faults import (
    RUNTIME_FAULTS,
    FaultProbe,
    run_probes,
)
from loopx_recall_core.qualification.guard_arm import GUARDED_FAMILIES, GuardStage
from loopx_recall_core.qualification.materialize import FamilyArchive, write_family
from loopx_recall_core.qualification.measures import (
    percentile,
)
from loopx_recall_core.qualification.result import QualificationResult
from loopx_recall_core.recall.resolver import resolve_provider
from loopx_recall_core.recall.service import RecallService
from loopx_recall_core.recall.store import PrivateStore
from loopx_recall_core.state import (
    DEFAULT_CEILINGS,
    Enablement,
    LimitCeilings,
)

__all__ = [
    "REPORT_SCHEMA",
    "QualificationError",
    "QualificationResult",
    "qualifiable_provider",
    "run_qualification",
    "total_steps",
]

#: A case's recall deadline: the product's own default (``recall history --timeout``).
REQUEST_TIMEOUT_S = 20.0
#: Cases run at once within one family (one HOME). A real runtime can spend most of a
#: query waiting (seconds per call), so a few more than the cores pays off.
WORKERS = 8
PREPARE_TIMEOUT_S = 600.0
_PROBE_STEPS = len(RUNTIME_FAULTS) + 4


class QualificationError(Exception):
    """The qualification cannot run (provider missing or not ready); safe to print."""


def total_steps(cases: int) -> int:
    """Progress units :func:`run_qualification` reports for ``cases`` cases."""
    return cases + _PROBE_STEPS


def _enablement(
    provider: Any,
    runtime: Any,
    case: Case,
    files: FamilyArchive,
    bound: dict[CorpusScope, tuple[dict, dict]],
) -> tuple[Enablement, dict]:
    """The case's enablement and bind options. ``bound`` keeps each scope's bind within a
    family: the cases of a family share a few scopes, and a bind asks git (~4 processes)."""
    scope = case.scope
    corpus = CorpusScope(
        runtimes=tuple(scope.sources),
        roots=tuple(str(files.repos[name]) for name in scope.repos),
        window_days=scope.window_days,
        cwd=str(files.repos[case.home_repo]),
    )
    if corpus not in bound:
        try:
            options = dict(runtime.bind_options(corpus))
            bound[corpus] = (options, dict(provider.bind(options, cwd=corpus.cwd)))
        except Exception as exc:  # noqa: BLE001 - a provider's failure, reported by class only
            raise QualificationError(
                f"the provider did not bind the corpus scope ({type(exc).__name__})"
            ) from None
    options, binding = (dict(part) for part in bound[corpus])
    situation = case.situation
    enablement = Enablement(
        capability="agent-turn-recall",
        provider_id=str(provider.provider_id),
        surface="replan-history",
        agent_id=situation["agent_id"],
        project_id=situation["project_id"],
        repository_id=situation["repository_id"],
        stage=2,
        limits=LimitCeilings(**DEFAULT_CEILINGS),
        binding=binding,
    )
    return enablement, options


def _report(*args: Any, **kwargs: Any) -> dict[str, Any]:
    return build_report(*args, request_timeout_s=REQUEST_TIMEOUT_S, workers=WORKERS, **kwargs)


def _provider_error(provider_id: str, what: str, exc: Exception) -> QualificationError:
    reason = exc.reason if isinstance(exc, ProviderFailure) else type(exc).__name__
    return QualificationError(f"provider {provider_id!r} {what} failed ({reason})")


class _LockedStore(PrivateStore):
    """The throw-away store, one writer at a time (saving prunes the agent's folder)."""

    _lock = threading.Lock()

    def save(self, agent_id: str, request_id: str, record: dict[str, Any]) -> str:
        with self._lock:
            return super().save(agent_id, request_id, record)


class _Run:
    """State of one qualification run: the provider, the throw-away store, the records."""

    def __init__(
        self, provider_id: str, provider: Any, host: PluginHost, root: Path, shards: int
    ) -> None:
        self.provider_id = provider_id
        self.provider = provider
        self.host = host
        self.store = _LockedStore(root=root / "loopx")
        self.records: dict[str, list[CaseRecord]] = {arm: [] for arm in ARMS}
        self.probes: list[FaultProbe] = []
        self.identity: RuntimeIdentity | None = None
        self.bare_ms: list[float] = []
        self._progress_lock = threading.Lock()
        (root / "guard").mkdir(mode=0o700)
        self.guard = GuardStage(root / "guard", shards)

    def recall(self, enablement: Enablement, timeout: float) -> RecallService:
        return RecallService(
            provider_id=self.provider_id,
            host=self.host,
            enablements=[enablement],
            store=self.store,
            timeout=timeout,
            # Stage 0 is what earns the verdict: its synthetic stage-2 enablements
            # cannot need one
            require_verdict=False,
        )

    def _prepare(self, runtime: Any) -> None:
        try:
            identity = runtime.prepare(timeout=PREPARE_TIMEOUT_S)
        except Exception as exc:  # noqa: BLE001 - a provider's failure, reported by code only
            raise _provider_error(self.provider_id, "prepare", exc) from None
        if self.identity is not None and identity != self.identity:
            raise QualificationError(
                f"provider {self.provider_id!r}: the runtime changed during the run"
            )
        self.identity = identity

    def _bare(self, runtime: Any) -> None:
        """One bare runtime call, timed: the floor the recall's latency is judged against."""
        try:
            elapsed = runtime.bare_call(timeout=REQUEST_TIMEOUT_S)
        except Exception as exc:  # noqa: BLE001 - a provider's failure, reported by code only
            raise _provider_error(self.provider_id, "bare runtime call", exc) from None
        with self._progress_lock:
            self.bare_ms.append(round(elapsed * 1000.0, 1))

    @property
    def floor(self) -> dict[str, Any]:
        """The bare calls' latency, each made beside a case's recall (same load, same time)."""
        calls = self.bare_ms or [0.0]
        return {"calls": len(self.bare_ms), "p50_ms": percentile(calls, 50),
                "p95_ms": percentile(calls, 95)}  # fmt: skip

    def _case(self, files: FamilyArchive, case: Case, enablement: Enablement) -> tuple:
        view = files.view(case)
        recall = self.recall(enablement, REQUEST_TIMEOUT_S)
        return (
            current_context(view),
            provider_arm(view, recall=recall),
            native_history(view, files.home),
        )

    def family(
        self,
        files: FamilyArchive,
        cases: list[Case],
        runtime: Any,
        progress: Callable[[int], None],
    ) -> None:
        """Prepare the archive, write the late content, run every case, probe once."""
        scopes: dict[CorpusScope, tuple[dict, dict]] = {}
        bound = {c.case_id: _enablement(self.provider, runtime, c, files, scopes) for c in cases}
        self._prepare(runtime)
        files.write_late()
        try:
            stages = dict(runtime.fault_probes())
        except Exception as exc:  # noqa: BLE001 - a provider's failure, reported by class only
            raise _provider_error(self.provider_id, "fault_probes", exc) from None

        def one(index: int, case: Case, staged: Callable[[Any], Any]) -> tuple:
            enablement = bound[case.case_id][0]
            enablement = attrs.evolve(enablement, binding=dict(staged(enablement.binding)))
            # A bare runtime call beside each recall, alternating order: the latency gate
            # then compares like with like, whatever else loads the machine.
            if index % 2:
                self._bare(runtime)
            result = self._case(files, case, enablement)
            if not index % 2:
                self._bare(runtime)
            with self._progress_lock:
                progress(1)
            return result

        # The corpus decides the faults: none, or an index kept behind for the stale family.
        stale = stages.get("stale") if files.family.name == "stale" else None
        with _staged(stale) as staged, ThreadPoolExecutor(max_workers=WORKERS) as pool:
            for a, b, c in pool.map(lambda pair: one(*pair, staged), enumerate(cases)):
                self.records["a"].append(a)
                self.records["b"].append(b)
                self.records["c"].append(c)
        # The guard families: one prefetch per scope, every payload through the hook's
        # decision, a few through the hook process (:mod:`.guard_arm`).
        enablements = {key: pair[0] for key, pair in bound.items()}
        self.guard.family(files, cases, enablements, lambda e: self.recall(e, REQUEST_TIMEOUT_S))
        if files.family.name == "baseline" and not self.probes:
            enablement, options = bound[cases[0].case_id]
            self.probes = run_probes(
                files.view(cases[0]),
                stages=stages,
                provider_id=self.provider_id,
                provider=self.provider,
                enablement=enablement,
                bind_options=options,
                recall_for=self.recall,
                progress=progress,
            )


@contextlib.contextmanager
def _staged(stage: Callable[[], Any] | None) -> Iterator[Callable[[Any], Any]]:
    if stage is None:
        yield lambda binding: binding
        return
    with stage() as rewrite:
        yield rewrite


def qualifiable_provider(host: PluginHost, provider_id: str | None = None) -> tuple[str, Any]:
    """``(provider_id, provider)`` to qualify, picked by
    :func:`~loopx_recall_core.recall.resolver.resolve_provider` (``ProviderNotChosen``:
    none or several offer qualification). :class:`QualificationError` when it is not
    installed, offers no qualification runtime, or its runtime is not ready."""
    provider_id, provider = _qualifiable(host, provider_id)
    _ready_runtime(provider_id, provider)
    return provider_id, provider


def _qualifiable(host: PluginHost, provider_id: str | None) -> tuple[str, Any]:
    resolved = resolve_provider(host, provider_id, qualifying=True)
    provider_id, provider = resolved.provider_id, resolved.provider
    if provider is None:
        raise QualificationError(f"provider {provider_id!r} is not installed")
    if not callable(getattr(provider, "qualification_runtime", None)):
        raise QualificationError(f"provider {provider_id!r} offers no qualification runtime")
    return provider_id, provider


def _ready_runtime(provider_id: str, provider: Any) -> dict[str, Any]:
    """The runtime's facts; a runtime that cannot be reached would only measure failures."""
    try:
        readback = provider.readback(None)
    except Exception as exc:  # noqa: BLE001 - a provider's failure, reported by class only
        raise _provider_error(provider_id, "readback", exc) from None
    if not readback.ready:
        reason = readback.unavailable_reason
        raise QualificationError(f"provider {provider_id!r} is not ready: {reason}")
    return dict(readback.runtime)


def run_qualification(
    *,
    provider_id: str | None = None,
    cases: int = DEFAULT_CASES,
    seed: int = DEFAULT_SEED,
    host: PluginHost | None = None,
    progress: Callable[[int], None] = lambda _n: None,
) -> QualificationResult:
    """Build the corpus, run it, and return the report (nothing is written).

    ``provider_id`` is resolved and checked by :func:`qualifiable_provider`.
    """
    corpus = build_corpus(seed=seed, cases=cases)
    host = host or load_host()
    provider_id, provider = _qualifiable(host, provider_id)
    facts = _ready_runtime(provider_id, provider)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="loopx-qualify-") as folder:
        root = Path(folder)
        shards = sum(1 for f in corpus.families if f.name in GUARDED_FAMILIES)
        run = _Run(provider_id, provider, host, root, shards)
        now = datetime.now(UTC).replace(microsecond=0)
        for family in corpus.families:
            family_cases = [c for c in corpus.cases if c.archive == family.key]
            files = write_family(family, root, now)
            try:
                runtime = provider.qualification_runtime(files.home)
                variables = dict(runtime.environment)
            except Exception as exc:  # noqa: BLE001 - a provider's failure, by class only
                raise _provider_error(provider_id, "qualification runtime", exc) from None
            if not all(
                isinstance(k, str) and k and "=" not in k and (v is None or isinstance(v, str))
                for k, v in variables.items()
            ):
                raise QualificationError(
                    f"provider {provider_id!r} asked for an environment that is not "
                    "names to text or None"
                )
            with environment(**{**variables, "HOME": str(files.home)}):
                run.family(files, family_cases, runtime, progress)
    duration = time.perf_counter() - started
    report = _report(
        corpus,
        provider,
        facts,
        run.records,
        run.probes,
        duration,
        identity=run.identity,
        floor=run.floor,
        guard=run.guard,
    )
    return QualificationResult(report=report)
