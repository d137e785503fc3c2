# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Run a corpus through the three arms, probe faults, judge the gates, build the report.

Stage 0 is offline: no product registration happens. The harness builds stage-2
:class:`~loopx_recall_core.state.Enablement` objects in memory (one per expected scope,
bound by the provider's own ``bind``), keeps private results in a throw-away store, and
points the provider at each family's archive by setting ``HOME`` and ``OBELISK_HOME``
for the duration of that family (single-threaded; restored afterwards). The index is
built by the provider's ``readback`` (its query refreshes the index) before any case
runs; the ``stale`` family then writes its late transcripts and runs with the double's
``stale`` fault (its settings file under the family's ``HOME``), so the index stays
behind as it would while another writer holds it (every other family runs with no fault
switch; the fault probes set their own). Your own transcripts and index are never read
or written: both ``HOME`` and ``OBELISK_HOME`` point into a temporary folder removed
afterwards. Only :func:`record_verdict` writes state.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import attrs

from loopx_recall_core import __version__
from loopx_recall_core.canonical import digest
from loopx_recall_core.contracts import HistoricalEvidenceRequestV0
from loopx_recall_core.plugins import PluginHost, load_host
from loopx_recall_core.recall.outcome import RecallOutcome
from loopx_recall_core.recall.qualify._env import double_fault, environment
from loopx_recall_core.recall.qualify.arms import (
    ARMS,
    CaseRecord,
    current_context,
    native_history,
    provider_arm,
)
from loopx_recall_core.recall.qualify.corpus import (
    DEFAULT_CASES,
    DEFAULT_SEED,
    FAMILIES,
    Case,
    Corpus,
    build_corpus,
)
from loopx_recall_core.recall.qualify.faults import (
    RUNTIME_FAULTS,
    FaultProbe,
    run_probes,
)
from loopx_recall_core.recall.qualify.materialize import FamilyArchive, write_family
from loopx_recall_core.recall.qualify.measures import arm_measures, detection, paired_test
from loopx_recall_core.recall.qualify.verdict import THRESHOLDS, evaluate
from loopx_recall_core.recall.service import find_recall_provider
from loopx_recall_core.recall.service import recall as service_recall
from loopx_recall_core.recall.store import PrivateStore
from loopx_recall_core.state import (
    DEFAULT_CEILINGS,
    Enablement,
    LimitCeilings,
    QualificationVerdict,
    StateStore,
)

__all__ = [
    "REPORT_SCHEMA",
    "QualificationError",
    "QualificationResult",
    "record_verdict",
    "run_qualification",
    "total_steps",
]

REPORT_SCHEMA = "loopx_qualification_report_v0"
REQUEST_TIMEOUT_S = 10.0
_RUNTIME_KEYS = ("runtime_version", "template_version", "template_digest")
_PROBE_STEPS = len(RUNTIME_FAULTS) + 4


class QualificationError(Exception):
    """The qualification cannot run (provider missing or not ready); safe to print."""


@attrs.frozen(kw_only=True)
class QualificationResult:
    report: dict[str, Any]

    @property
    def passed(self) -> bool:
        return bool(self.report["verdict"]["passed"])

    @property
    def failed_gates(self) -> tuple[str, ...]:
        return tuple(self.report["verdict"]["failed_gates"])

    @property
    def report_digest(self) -> str:
        return self.report["report_digest"]


def total_steps(cases: int) -> int:
    """Progress units :func:`run_qualification` reports for ``cases`` cases."""
    return cases + _PROBE_STEPS


def _enablement(provider: Any, case: Case, files: FamilyArchive) -> tuple[Enablement, dict]:
    scope = case.scope
    options = {
        "history_source": list(scope.sources),
        "repository_root": [str(files.repos[name]) for name in scope.repos],
        "window_days": scope.window_days,
    }
    try:
        binding = dict(provider.bind(options, cwd=str(files.repos[case.home_repo])))
    except Exception as exc:  # noqa: BLE001 - a provider's failure, reported by class only
        raise QualificationError(
            f"the provider did not bind the corpus scope ({type(exc).__name__})"
        ) from None
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


def _family_summary(records: dict[str, list[CaseRecord]], family: str) -> dict[str, Any]:
    summary = {}
    for arm in ARMS:
        rows = [r for r in records[arm] if r.family == family]
        found = detection(rows)

        def rate(label: str, rows: list[CaseRecord] = rows) -> float | None:
            cases = [r for r in rows if r.label == label]
            return None if not cases else round(sum(r.flagged for r in cases) / len(cases), 4)

        summary[arm] = {
            "cases": len(rows),
            "recall": found["recall"],
            "precision": found["precision"],
            "false_match_near_miss": rate("near_miss"),
            "false_match_novel": rate("novel"),
        }
    return summary


def _case_rows(records: dict[str, list[CaseRecord]]) -> list[dict[str, Any]]:
    rows = []
    for a, b, c in zip(records["a"], records["b"], records["c"], strict=True):
        rows.append(
            {
                "case_id": a.case_id,
                "family": a.family,
                "label": a.label,
                "tags": list(a.tags),
                "index_behind": a.index_behind,
                "a": {"flagged": a.flagged},
                "b": {
                    "flagged": b.flagged,
                    "verdict": b.verdict,
                    "reason": b.reason,
                    "freshness": b.freshness,
                    "truncated": b.truncated,
                    "context_chars": b.context_chars,
                    "provider_calls": b.provider_calls,
                    "latency_ms": b.latency_ms,
                },
                "c": {"flagged": c.flagged, "context_chars": c.context_chars},
            }
        )
    return rows


def _report(
    corpus: Corpus,
    provider: Any,
    runtime: dict[str, Any],
    records: dict[str, list[CaseRecord]],
    probes: list[FaultProbe],
    duration_s: float,
) -> dict[str, Any]:
    arms = {arm: arm_measures(records[arm], indexed=arm == "b") for arm in ARMS}
    paired = paired_test(records["a"], records["b"])
    gates = evaluate(arms, paired, probes, max_total_chars=DEFAULT_CEILINGS["max_total_chars"])
    tags: dict[str, int] = {}
    for case in corpus.cases:
        for tag in case.tags:
            tags[tag] = tags.get(tag, 0) + 1
    report: dict[str, Any] = {
        "schema_version": REPORT_SCHEMA,
        "provider": {
            "provider_id": str(provider.provider_id),
            "provider_version": str(getattr(provider, "provider_version", "unknown")),
            "runtime": {k: runtime[k] for k in _RUNTIME_KEYS if k in runtime},
        },
        "host": {"loopx_recall_core": __version__},
        "corpus": {
            "version": corpus.version,
            "seed": corpus.seed,
            "cases": len(corpus.cases),
            "digest": corpus.digest,
            **corpus.counts(),
            "tags": dict(sorted(tags.items())),
        },
        "settings": {
            "limits": dict(DEFAULT_CEILINGS),
            "window_days": corpus.cases[0].scope.window_days,
            "request_timeout_s": REQUEST_TIMEOUT_S,
            "thresholds": dict(THRESHOLDS),
        },
        "arms": arms,
        "paired_test": paired,
        "by_family": {name: _family_summary(records, name) for name in FAMILIES},
        "faults": [{**attrs.asdict(p), "passed": p.passed} for p in probes],
        "gates": [attrs.asdict(g) for g in gates],
        "verdict": {
            "passed": all(g.passed for g in gates),
            "failed_gates": [g.name for g in gates if not g.passed],
        },
        "cases": _case_rows(records),
        "duration_s": round(duration_s, 1),
        "generated_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    report["report_digest"] = digest(json.dumps(report, sort_keys=True, ensure_ascii=False))
    return report


class _Run:
    """State of one qualification run: the provider, the throw-away store, the records."""

    def __init__(self, provider_id: str, provider: Any, host: PluginHost, root: Path) -> None:
        self.provider_id = provider_id
        self.provider = provider
        self.host = host
        self.store = PrivateStore(root=root / "loopx")
        self.records: dict[str, list[CaseRecord]] = {arm: [] for arm in ARMS}
        self.probes: list[FaultProbe] = []
        self.runtime: dict[str, Any] = {}

    def recall(self, enablement: Enablement, timeout: float) -> Any:
        def run(request: HistoricalEvidenceRequestV0) -> RecallOutcome:
            return service_recall(
                request,
                provider_id=self.provider_id,
                host=self.host,
                enablements=[enablement],
                store=self.store,
                timeout=timeout,
            )

        return run

    def family(
        self, files: FamilyArchive, cases: list[Case], progress: Callable[[int], None]
    ) -> None:
        """Build the index, write the late content, run every case, probe once."""
        bound = {c.case_id: _enablement(self.provider, c, files) for c in cases}
        try:
            readback = self.provider.readback(bound[cases[0].case_id][0].binding)
        except Exception as exc:  # noqa: BLE001 - a provider's failure, reported by class only
            raise QualificationError(
                f"provider {self.provider_id!r} readback failed ({type(exc).__name__})"
            ) from None
        if not readback.ready:
            raise QualificationError(
                f"provider {self.provider_id!r} is not ready: {readback.unavailable_reason}"
            )
        self.runtime = dict(readback.runtime)
        files.write_late()
        stale = "stale" if files.family.name == "stale" else None
        with double_fault(files.home, stale):
            for case in cases:
                view = files.view(case)
                enablement = bound[case.case_id][0]
                recall = self.recall(enablement, REQUEST_TIMEOUT_S)
                self.records["a"].append(current_context(view))
                self.records["b"].append(
                    provider_arm(
                        view, provider_id=self.provider_id, enablement=enablement, recall=recall
                    )
                )
                self.records["c"].append(native_history(view, files.home))
                progress(1)
        if files.family.name == "baseline" and not self.probes:
            enablement, options = bound[cases[0].case_id]
            self.probes = run_probes(
                files.view(cases[0]),
                home=files.home,
                provider_id=self.provider_id,
                provider=self.provider,
                enablement=enablement,
                bind_options=options,
                recall=lambda request, timeout: self.recall(enablement, timeout)(request),
                progress=progress,
            )


def run_qualification(
    *,
    provider_id: str = "obelisk-session-evidence",
    cases: int = DEFAULT_CASES,
    seed: int = DEFAULT_SEED,
    host: PluginHost | None = None,
    progress: Callable[[int], None] = lambda _n: None,
) -> QualificationResult:
    """Build the corpus, run it, and return the report (nothing is written)."""
    corpus = build_corpus(seed=seed, cases=cases)
    host = host or load_host()
    provider = find_recall_provider(host, provider_id)
    if provider is None:
        raise QualificationError(f"provider {provider_id!r} is not installed")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="loopx-qualify-") as folder:
        root = Path(folder)
        run = _Run(provider_id, provider, host, root)
        now = datetime.now(UTC).replace(microsecond=0)
        for family in corpus.families:
            family_cases = [c for c in corpus.cases if c.archive == family.key]
            files = write_family(family, root, now)
            # The corpus decides the faults: none, or "stale" for the stale family.
            with environment(HOME=str(files.home), OBELISK_HOME=str(files.index_home)):
                run.family(files, family_cases, progress)
    duration = time.perf_counter() - started
    report = _report(corpus, provider, run.runtime, run.records, run.probes, duration)
    return QualificationResult(report=report)


def record_verdict(
    result: QualificationResult, store: StateStore | None = None
) -> QualificationVerdict:
    """Record the verdict for the report's provider id + version (replacing an older one)."""
    store = store or StateStore()
    provider = result.report["provider"]
    verdict = QualificationVerdict(
        provider_id=provider["provider_id"],
        provider_version=provider["provider_version"],
        passed=result.passed,
        report_digest=result.report_digest,
        recorded_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        failed_gates=result.failed_gates,
    )
    key = (verdict.provider_id, verdict.provider_version)
    with store.update() as box:
        kept = tuple(q for q in box[0].qualifications if (q.provider_id, q.provider_version) != key)
        box[0] = attrs.evolve(box[0], qualifications=(*kept, verdict))
    return verdict
