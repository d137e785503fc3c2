# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The qualification report: ``report.json``, ``report.md`` and ``report.svg``.

Public-safe by construction: the report is built only from case ids, labels, tags,
counts, rates, timings, reason codes, verdicts, versions and digests. No command, query
term, snippet, session reference or path reaches it (the tests plant canaries to check).
The chart is written by hand as SVG, so no plotting library is needed.

The folder is whatever ``--report`` names, possibly in a folder others can write (``/tmp``),
so it is held to the state folder's rules (:mod:`loopx_recall_core.private_files`): a new
folder (created 0700) or an existing one of the user's that group and others cannot
write, never a link; each file is written as a new temp file and renamed into place, and
a link or other non-file where a report file goes is refused.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from loopx_recall_core.private_files import (
    StateError,
    ensure_root,
    probe_writable,
    refuse_non_file,
    write_atomic,
)

__all__ = [
    "ARM_TITLES",
    "REPORT_FILES",
    "ReportError",
    "check_report_folder",
    "guard_lines",
    "render_markdown",
    "render_svg",
    "render_text",
    "write_report",
]

REPORT_FILES = ("report.json", "report.md", "report.svg")
_FOLDER = "the report folder (--report)"

ARM_TITLES = {
    "a": "(a) current context only",
    "b": "(b) provider, typed policy",
    "c": "(c) native history (ceiling)",
}
_COLORS = {"a": "#9e9e9e", "b": "#1f77b4", "c": "#ff7f0e"}


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.1f}%"


def _num(value: float | None, digits: int = 0) -> str:
    return "n/a" if value is None else f"{value:,.{digits}f}"


def _rate(part: int, whole: int) -> str:
    return "n/a" if whole == 0 else f"{part}/{whole} ({part / whole * 100:.0f}%)"


def _headline(arms: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    rows: list[tuple[str, list[str]]] = []

    def row(name: str, cell: Any) -> None:
        rows.append((name, [cell(arms[arm]) for arm in ("a", "b", "c")]))

    row("repeats flagged (recall)", lambda m: _pct(m["detection"]["recall"]))
    row("precision", lambda m: _pct(m["detection"]["precision"]))
    row("F1", lambda m: _num(m["detection"]["f1"], 3))
    row("repeated dead ends left", lambda m: _pct(m["detection"]["dead_end_rate"]))
    for label in ("near_miss", "novel"):
        row(f"false matches: {label}", lambda m, lb=label: _pct(m["false_match"][lb]["rate"]))
    row(
        "context chars p50 / p95 / max",
        lambda m: " / ".join(
            _num(m["context"][k]) for k in ("chars_p50", "chars_p95", "chars_max")
        ),
    )
    row("truncation rate", lambda m: _pct(m["context"]["truncation_rate"]))
    row("provider calls per case", lambda m: _num(m["provider_calls_per_case"], 2))
    row(
        "latency p50 / p95 (ms)",
        lambda m: f"{_num(m['latency']['p50_ms'], 1)} / {_num(m['latency']['p95_ms'], 1)}",
    )
    row(
        "stale/incomplete index detected",
        lambda m: (
            "n/a"
            if m["freshness"] is None
            else _rate(m["freshness"]["detected"], m["freshness"]["cases"])
        ),
    )
    row(
        "bait / out-of-scope rows returned",
        lambda m: f"{m['scope']['bait_rows']} / {m['scope']['out_of_scope_rows']}",
    )
    return rows


def guard_lines(report: Mapping[str, Any]) -> list[str]:
    """The guard families in a few lines (report.md and the terminal)."""
    guard = report.get("guard")
    if not guard:
        return ["guard families: not run"]
    kinds, hot, decision = guard["kinds"], guard["hot_path"], guard["decision"]
    warned = ", ".join(
        f"{kind} {kinds[kind]['warned']}/{kinds[kind]['cases']}"
        for kind in ("near_miss", "prior_success", "bait", "novel")
    )
    agreement = guard["agreement"]
    long = guard.get("long_history") or {}
    lines = [
        f"guard: repeats warned {_rate(kinds['repeat']['warned'], kinds['repeat']['cases'])}; "
        f"warnings on {warned}",
        f"guard sets: {guard['sets']['requests']} prefetch requests "
        f"({', '.join(f'{k} {v}' for k, v in guard['sets']['statuses'].items())}), at most "
        f"{_num(guard['sets']['items_max'])} items, {guard['sets']['bait_rows']} bait rows; "
        f"agrees with replan on {agreement['compared'] - agreement['disagreements']}/"
        f"{agreement['compared']} payloads",
        f"guard decision p50 / p95: {_num(decision['p50_ms'], 2)} / "
        f"{_num(decision['p95_ms'], 2)} ms in process",
        f"guard hook process p50 / p95: {_num(hot['p50_ms'], 1)} / {_num(hot['p95_ms'], 1)} ms "
        f"vs python -c pass {_num(hot['yardstick_p50_ms'], 1)} / "
        f"{_num(hot['yardstick_p95_ms'], 1)} ms; CPU p95 {_num(hot['cpu_p95_ms'], 1)} vs "
        f"{_num(hot['yardstick_cpu_p95_ms'], 1)} ms ({hot['runs']} paired runs, "
        f"{hot['answers_agreeing']} answered as decided, {hot['silent_decided']} silent past "
        "the deadline)",
    ]
    if long.get("shards"):
        lines.append(
            f"guard long history: warned {_rate(long['warned_of_found'], long['found_by_replan'])}"
            f" of the repeats replan (b) found, behind >= {long['newer_calls_min']} newer shell "
            f"calls ({long['newer_failed_min']} failed) in the same repository; "
            f"{long['warned']}/{long['repeats']} labelled repeats warned"
        )
    return lines


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cells) + " |" for cells in rows]
    return lines


def render_markdown(report: Mapping[str, Any]) -> str:
    provider, corpus, verdict = report["provider"], report["corpus"], report["verdict"]
    arms = report["arms"]
    lines = [
        f"# Stage 0 qualification: {provider['provider_id']} {provider['provider_version']}",
        "",
        f"**Verdict: {'PASS' if verdict['passed'] else 'FAIL'}**"
        + (
            f" (failing gates: {', '.join(verdict['failed_gates'])})"
            if not verdict["passed"]
            else ""
        ),
        "",
        f"Corpus `{corpus['version']}`, seed {corpus['seed']}, {corpus['cases']} cases "
        f"({', '.join(f'{k} {v}' for k, v in corpus['labels'].items())}), digest "
        f"`{corpus['digest']}`. Runtime: {provider['runtime'].get('runtime_version', 'n/a')}, "
        f"template {provider['runtime'].get('template_version', 'n/a')}. "
        f"Limits: max_items {report['settings']['limits']['max_items']}, max_total_chars "
        f"{report['settings']['limits']['max_total_chars']}.",
        "",
    ]
    header = ["measure", *(ARM_TITLES[a] for a in ("a", "b", "c"))]
    lines += _table(header, [[name, *cells] for name, cells in _headline(arms)])
    paired = report["paired_test"]
    lines += [
        "",
        f"Paired test on the {arms['b']['detection']['tp'] + arms['b']['detection']['fn']} "
        f"repeats: {paired['only_treatment']} flagged by (b) only, {paired['only_baseline']} "
        f"by (a) only, exact one-sided McNemar p = {paired['p_value']:.3g}.",
        "",
        "## Gates",
        "",
    ]
    lines += _table(
        ["gate", "result", "detail"],
        [[g["name"], "pass" if g["passed"] else "FAIL", g["detail"]] for g in report["gates"]],
    )
    lines += ["", "## Guard (PreToolUse path)", ""]
    lines += [f"- {line}" for line in guard_lines(report)]
    lines += ["", "## Fault probes", ""]
    lines += _table(
        ["probe", "surface", "observed", "typed", "fail-open", "gated", "result"],
        [
            [
                p["name"],
                p["surface"],
                f"`{p['observed']}`",
                "yes" if p["typed"] else "no",
                "yes" if p["fail_open"] else "no",
                "yes" if p["gated"] else "no (finding)",
                "pass" if p["passed"] else ("FAIL" if p["gated"] else "note"),
            ]
            for p in report["faults"]
        ],
    )
    lines += ["", "## By family (recall / false matches near_miss, novel)", ""]
    family_rows = []
    for family, per_arm in report["by_family"].items():
        cells = [f"{family} ({per_arm['b']['cases']})"]
        for arm in ("a", "b", "c"):
            m = per_arm[arm]
            cells.append(
                f"{_pct(m['recall'])} / {_pct(m['false_match_near_miss'])}, "
                f"{_pct(m['false_match_novel'])}"
            )
        family_rows.append(cells)
    lines += _table(["family (cases)", *(f"({a})" for a in ("a", "b", "c"))], family_rows)
    lines += [
        "",
        "How to read this report: docs/qualification.md. Chart: report.svg.",
        "",
    ]
    return "\n".join(lines)


def _bar_panel(
    x0: float,
    title: str,
    groups: list[tuple[str, list[tuple[str, float, str]]]],
    *,
    top: float,
    log: bool,
    line: float | None = None,
    line_label: str = "",
) -> list[str]:
    """One panel of vertical bars; values in 0..top (log10 scale when ``log``)."""
    width, base_y, top_y = 330.0, 250.0, 50.0
    scale = (base_y - top_y) / (math.log10(top) if log else top)

    def y(value: float) -> float:
        shown = math.log10(max(value, 1.0)) if log else value
        return base_y - shown * scale

    out = [
        f'<text x="{x0 + width / 2}" y="30" text-anchor="middle" font-size="13" '
        f'font-weight="bold">{escape(title)}</text>',
        f'<line x1="{x0 + 30}" y1="{base_y}" x2="{x0 + width - 10}" y2="{base_y}" stroke="#333"/>',
    ]
    slot = (width - 50) / len(groups)
    for index, (name, bars) in enumerate(groups):
        left = x0 + 40 + index * slot
        bar_width = (slot - 16) / len(bars)
        for offset, (arm, value, label) in enumerate(bars):
            bx = left + offset * bar_width
            by = y(value)
            out.append(
                f'<rect x="{bx:.1f}" y="{by:.1f}" width="{bar_width - 2:.1f}" '
                f'height="{base_y - by:.1f}" fill="{_COLORS[arm]}"/>'
            )
            out.append(
                f'<text x="{bx + (bar_width - 2) / 2:.1f}" y="{by - 4:.1f}" text-anchor="middle" '
                f'font-size="9">{escape(label)}</text>'
            )
        out.append(
            f'<text x="{left + (slot - 16) / 2:.1f}" y="{base_y + 16}" text-anchor="middle" '
            f'font-size="11">{escape(name)}</text>'
        )
    if line is not None:
        ly = y(line)
        out.append(
            f'<line x1="{x0 + 30}" y1="{ly:.1f}" x2="{x0 + width - 10}" y2="{ly:.1f}" '
            'stroke="#d62728" stroke-dasharray="4 3"/>'
        )
        out.append(
            f'<text x="{x0 + 32}" y="{ly - 4:.1f}" font-size="9" '
            f'fill="#d62728">{escape(line_label)}</text>'
        )
    return out


def render_svg(report: Mapping[str, Any]) -> str:
    """Detection (precision / recall / F1) and context size (p95, log scale) by arm."""
    arms = report["arms"]
    order = ("a", "b", "c")
    detection = []
    for key, name in (("precision", "precision"), ("recall", "recall"), ("f1", "F1")):
        bars = []
        for arm in order:
            value = arms[arm]["detection"][key]
            bars.append((arm, value or 0.0, "n/a" if value is None else f"{value:.2f}"))
        detection.append((name, bars))
    context = []
    for key, name in (("chars_p50", "p50"), ("chars_p95", "p95")):
        bars = []
        for arm in order:
            value = arms[arm]["context"][key]
            bars.append((arm, float(value or 0), "n/a" if value is None else f"{value:,.0f}"))
        context.append((name, bars))
    limit = report["settings"]["limits"]["max_total_chars"]
    ceiling = max([limit] + [b[1] for _, bars in context for b in bars])
    top = 10 ** math.ceil(math.log10(max(ceiling, 10)) + 0.01)
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="700" height="330" '
        'viewBox="0 0 700 330" font-family="sans-serif">',
        '<rect width="700" height="330" fill="white"/>',
        *_bar_panel(10, "Repeat detection by arm", detection, top=1.0, log=False),
        *_bar_panel(
            360,
            "Context chars per request (log scale)",
            context,
            top=top,
            log=True,
            line=limit,
            line_label=f"max_total_chars {limit:,}",
        ),
    ]
    for index, arm in enumerate(order):
        x = 40 + index * 220
        parts.append(f'<rect x="{x}" y="300" width="12" height="12" fill="{_COLORS[arm]}"/>')
        parts.append(f'<text x="{x + 16}" y="310" font-size="11">{escape(ARM_TITLES[arm])}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def render_text(report: Mapping[str, Any]) -> str:
    """The headline table, the gates and the verdict, for a terminal."""
    header = ["measure", *(f"({arm})" for arm in ("a", "b", "c"))]
    rows = [[name, *cells] for name, cells in _headline(report["arms"])]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        for row in [header, *rows]
    ]
    lines.append("")
    lines += guard_lines(report)
    lines.append("")
    lines += [
        f"{'pass' if g['passed'] else 'FAIL'}  {g['name']}: {g['detail']}" for g in report["gates"]
    ]
    provider, verdict = report["provider"], report["verdict"]
    lines.append("")
    lines.append(
        f"verdict for {provider['provider_id']} {provider['provider_version']}: "
        + ("PASS" if verdict["passed"] else "FAIL (" + ", ".join(verdict["failed_gates"]) + ")")
    )
    if verdict["failed_gates"] and set(verdict["failed_gates"]) <= _TIMED_GATES:
        lines.append(
            "the wall-clock latency follows this machine's load (other work on its cores): "
            "run `loopx-recall recall qualify` again when it is quieter"
        )
    return "\n".join(lines)


#: The gates that time a process by the wall clock: a busy machine alone can fail them.
_TIMED_GATES = frozenset({"bounded_latency"})


class ReportError(Exception):
    """The report cannot be written there; the message names the problem, never a path."""


def _file(name: str) -> str:
    return f"{name} in the report folder"


def check_report_folder(folder: Path) -> None:
    """Create ``folder`` (0700, with missing parents) or check it, and check that the report
    files can be written in it: :class:`ReportError` otherwise. Called before the run too,
    so that an unusable folder is found before the run is spent."""
    try:
        ensure_root(folder, _FOLDER)
        for name in REPORT_FILES:
            refuse_non_file(folder / name, _file(name))
        probe_writable(folder, _FOLDER)
    except StateError as exc:
        # the state folder's hint (`loopx-recall state path`) is not this folder's
        raise ReportError(exc.problem) from None


def write_report(report: Mapping[str, Any], folder: Path) -> list[str]:
    """Write the report files into ``folder`` (see :func:`check_report_folder`); returns
    their names."""
    texts = {
        "report.json": json.dumps(report, ensure_ascii=False, indent=2) + "\n",
        "report.md": render_markdown(report),
        "report.svg": render_svg(report),
    }
    check_report_folder(folder)
    try:
        for name in REPORT_FILES:
            data = texts[name].encode("utf-8")
            write_atomic(folder, name, data, prefix=".report-", what=_file(name))
    except StateError as exc:
        raise ReportError(exc.problem) from None
    return list(REPORT_FILES)
