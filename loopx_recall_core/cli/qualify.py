# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall recall qualify``: the Stage 0 offline qualification of a recall provider."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import click

from loopx_recall_core.cli._common import (
    Command,
    EnvironmentProblem,
    Rejected,
    dumps,
    format_option,
)
from loopx_recall_core.qualification import DEFAULT_CASES, DEFAULT_SEED, MAX_CASES, MIN_CASES

__all__ = ["qualify"]


@contextlib.contextmanager
def _progress(total: int, cases: int) -> Iterator[Callable[[int], None]]:
    """A progress bar on a terminal; elsewhere (CI, pipes, logs) one line per tenth of the
    run, so a minute-long qualification never looks hung."""
    if sys.stderr.isatty():
        with click.progressbar(length=total, label="qualifying", file=sys.stderr) as bar:
            yield bar.update
        return
    started = time.monotonic()
    what = f"{cases} cases + {total - cases} fault probes"
    click.echo(f"qualifying: 0/{total} ({what})", err=True)
    done = 0
    shown = 0

    def update(steps: int) -> None:
        nonlocal done, shown
        done = min(total, done + steps)
        tenth = done * 10 // total
        if tenth > shown:
            shown = tenth
            elapsed = time.monotonic() - started
            click.echo(f"qualifying: {done}/{total} done, {elapsed:.0f} s elapsed", err=True)

    yield update


@click.command("qualify", cls=Command)
@click.option(
    "--provider",
    "provider_id",
    help="The recall provider to qualify (must be installed; default: the one installed "
    "provider that offers qualification).",
)
@click.option(
    "--cases",
    type=click.IntRange(MIN_CASES, MAX_CASES),
    default=DEFAULT_CASES,
    show_default=True,
    help="Corpus size.",
)
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True, help="Corpus seed.")
@click.option(
    "--report",
    "report_dir",
    type=click.Path(file_okay=False),
    help="Folder for report.json, report.md and report.svg (default: qualification-report "
    "in the state folder, never the current directory).",
)
@format_option()
def qualify(
    provider_id: str | None, cases: int, seed: int, report_dir: str | None, output_format: str
) -> None:
    """Run the matched corpus through three arms and judge the promotion gates.

    Arms: (a) current context only, (b) the provider through the typed Replan policy,
    (c) every in-scope raw transcript read directly (the cost ceiling). Writes the report
    files, prints the verdict and records it in state for this provider version (the
    stage-2 enable gate reads it). Exit 0 when every gate passes, 1 when one fails (the
    failing gates are named), 2 when the provider is missing or not ready. The corpus is
    synthetic and public-safe; the report holds counts, rates, codes and digests only.
    """
    from loopx_recall_core.plugins import ProviderNotChosen, load_host
    from loopx_recall_core.qualification.harness import (
        QualificationError,
        qualifiable_provider,
        run_qualification,
        total_steps,
    )
    from loopx_recall_core.qualification.report import (
        ReportError,
        check_report_folder,
        render_text,
        write_report,
    )
    from loopx_recall_core.qualification.result import record_verdict
    from loopx_recall_core.state import StateStore

    # The verdict is recorded at the end: find an unusable state folder before the run.
    store = StateStore()
    store.check_writable()
    folder = Path(report_dir) if report_dir is not None else store.root / "qualification-report"
    host = load_host()
    try:
        # refused before the run starts: no progress line for a provider that is not there
        provider_id, _provider = qualifiable_provider(host, provider_id)
    except ProviderNotChosen as exc:
        # none to qualify is a missing provider (2); several is a choice to make (1)
        raise (Rejected if exc.found else EnvironmentProblem)(str(exc)) from None
    except QualificationError as exc:
        raise EnvironmentProblem(str(exc)) from None
    try:
        # as with the state folder: an unusable report folder is found before the run
        check_report_folder(folder)
    except ReportError as exc:
        raise EnvironmentProblem(f"cannot write the report: {exc}") from None
    try:
        with _progress(total_steps(cases), cases) as update:
            result = run_qualification(
                provider_id=provider_id, cases=cases, seed=seed, host=host, progress=update
            )
    except QualificationError as exc:
        raise EnvironmentProblem(str(exc)) from None
    try:
        names = write_report(result.report, folder)
    except ReportError as exc:
        raise EnvironmentProblem(f"cannot write the report: {exc}") from None
    record_verdict(result, store)
    if output_format == "json":
        click.echo(dumps(result.report))
    else:
        click.echo(render_text(result.report))
        # The folder you named is yours to know; the default one is shown (it is in the
        # state folder, which `loopx-recall state path` shows too).
        where = "the --report folder" if report_dir is not None else str(folder)
        click.echo(f"wrote {', '.join(names)} in {where}; verdict recorded in state")
    if not result.passed:
        raise SystemExit(1)
