# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""One ``recall qualify``: the checks made before the run (a usable state folder, a
provider to qualify whose runtime is ready, a writable report folder), the run
(:func:`.harness.run_qualification`), the report files and the recorded verdict."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import attrs

from loopx_recall_core.plugin.manager import load_host
from loopx_recall_core.qualification import harness
from loopx_recall_core.qualification.harness import QualificationError, total_steps
from loopx_recall_core.qualification.report import ReportError, check_report_folder, write_report
from loopx_recall_core.qualification.result import QualificationResult, record_verdict
from loopx_recall_core.state import StateStore

__all__ = ["Qualified", "qualify"]

#: Given the run's total steps, a context whose value is called with each step done.
Progress = Callable[[int], AbstractContextManager[Callable[[int], None]]]


@attrs.frozen(kw_only=True)
class Qualified:
    """What one qualify produced: the result, and the report files written in ``folder``."""

    result: QualificationResult
    folder: Path
    names: list[str]


def qualify(
    *,
    provider_id: str | None,
    cases: int,
    seed: int,
    report_dir: Path | None,
    progress: Progress,
) -> Qualified:
    """Qualify the named provider (default: the one installed that offers qualification),
    write the report into ``report_dir`` (default: ``qualification-report`` in the state
    folder, never the current directory) and record the verdict.

    Refused before the run, so that no progress is shown for it:
    :class:`~loopx_recall_core.plugin.manager.ProviderNotChosen` (none or several to qualify) and
    :class:`.harness.QualificationError` (not installed, not ready, an unusable report
    folder); an unusable state folder is
    :class:`~loopx_recall_core.state.StateError`.
    """
    store = StateStore()
    store.check_writable()  # the verdict is recorded at the end: found before the run
    folder = report_dir if report_dir is not None else store.root / "qualification-report"
    host = load_host()
    provider_id, _provider = harness.qualifiable_provider(host, provider_id)
    try:
        check_report_folder(folder)
    except ReportError as exc:
        raise QualificationError(f"cannot write the report: {exc}") from None
    with progress(total_steps(cases)) as update:
        result = harness.run_qualification(
            provider_id=provider_id, cases=cases, seed=seed, host=host, progress=update
        )
    try:
        names = write_report(result.report, folder)
    except ReportError as exc:
        raise QualificationError(f"cannot write the report: {exc}") from None
    record_verdict(result, store)
    return Qualified(result=result, folder=folder, names=names)
