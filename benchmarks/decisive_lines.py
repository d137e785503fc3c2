# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Does the evidence carry the error? The decisive line of real failing tool outputs, in
the snippet and in the guard's warning, against today's first-lines cut (the yardstick).

Inputs: the outputs captured from the real tools in ``tests/core/decisive_lines/captured/``
(how each was made, and its hand-chosen decisive line, in its README and ``cases.json``),
each stored the way each supported runtime stores a shell call's output (Claude Code's
``Exit code N`` line, Codex 0.169's ``Chunk ID:``...``Output:`` header, older Codex's
``Exit code: N``/``Wall time:``/``Output:``).

For each, both in the same run:

* now: the provider's two windows of the output (the template's ``output`` and
  ``output_tail``, :data:`OUTPUT_WINDOW` characters each), ``format_tool_snippet`` at the
  default snippet cap (800), and ``warning_text`` with a next success, as the guard shows it;
* yardstick (main at bfa7012): the first ``max_snippet_chars`` characters of the output
  after the header and outcome lines, and a warning of the first three non-blank lines
  of them cut to 180 characters.

A case counts as carried when its decisive line (terminal colours aside) is inside the text.
Also the time to make one snippet (now and yardstick), median of all cases.

Run: .venv/bin/python benchmarks/decisive_lines.py   (prints figures; not a test)
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CAPTURED = ROOT / "tests" / "core" / "decisive_lines" / "captured"
sys.path.insert(0, str(ROOT))

from loopx_recall_core.decisive_lines import OUTPUT_WINDOW, joined_output  # noqa: E402
from loopx_recall_core.guard.decide import Match, warning_text  # noqa: E402
from loopx_recall_core.snippet_rules import format_tool_snippet  # noqa: E402
from tests.core.decisive_lines.runtime_forms import FORMS  # noqa: E402

SNIPPET_CHARS = 800
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
TOOL = {"claude": "Bash", "codex": "exec_command", "codex_old": "shell"}


def windows(content: str) -> str:
    """What the template returns of a tool result (its SQL, evaluated in Python)."""
    head = content[:OUTPUT_WINDOW]
    tail = content[max(OUTPUT_WINDOW, len(content) - OUTPUT_WINDOW) :] or None
    return joined_output(head, tail if len(content) > OUTPUT_WINDOW else None, len(content))


def yardstick(tool: str, command: str, code: int, content: str) -> tuple[str, str]:
    """Today's snippet and warning error part (main at bfa7012)."""
    text = f"{tool}: {command}\noutcome: failed (exit {code})"
    snippet = text + "\n" + content[:SNIPPET_CHARS][: SNIPPET_CHARS - len(text) - 1]
    lines = [line for line in snippet.split("\n")[2:] if line.strip()]
    error = " | ".join(line.strip() for line in lines[:3])
    error = error if len(error) <= 180 else error[:179] + "…"
    return snippet, "Failed: " + command + "\nError: " + error


def main() -> None:
    cases = json.loads((CAPTURED / "cases.json").read_text())
    now = time.time()
    rows = []
    timings_now, timings_old = [], []
    for case in cases:
        raw = (CAPTURED / f"{case['name']}.out").read_text()
        label = case["decisive"]
        for form, wrap in FORMS.items():
            content = wrap(raw, case["exit_code"])
            tool = TOOL[form]
            started = time.perf_counter()
            snippet = format_tool_snippet(
                tool, case["command"], outcome=False, exit_code=None,
                output=windows(content), max_chars=SNIPPET_CHARS,
            )  # fmt: skip
            timings_now.append(time.perf_counter() - started)
            warning = warning_text(
                Match(
                    "repeats_prior_failure",
                    {"snippet": snippet, "at": "2026-01-01T00:00:00Z"},
                    [{"snippet": f"{tool}: {case['command']} --retry-with-fix"}],
                ),
                now,
            )
            started = time.perf_counter()
            old_snippet, old_warning = yardstick(tool, case["command"], case["exit_code"], content)
            timings_old.append(time.perf_counter() - started)
            rows.append(
                {
                    "case": case["name"],
                    "held_out": bool(case.get("held_out")),
                    "form": form,
                    "snippet": label in ANSI.sub("", snippet),
                    "warning": label in warning and len(warning) <= 600,
                    "old_snippet": label in ANSI.sub("", old_snippet),
                    "old_warning": label in ANSI.sub("", old_warning),
                }
            )
    total = len(rows)

    def rate(key: str, form: str | None = None) -> str:
        chosen = [r for r in rows if form is None or r["form"] == form]
        hits = sum(r[key] for r in chosen)
        return f"{hits}/{len(chosen)} ({100 * hits / len(chosen):.1f}%)"

    print(f"{len(cases)} captured outputs x {len(FORMS)} runtime forms = {total} cases")
    print(f"{'':18}{'snippet':>18}{'warning':>18}{'both':>18}")
    for form in (*FORMS, None):
        for row in rows:
            row["both"] = row["snippet"] and row["warning"]
            row["old_both"] = row["old_snippet"] and row["old_warning"]
        name = form or "all"
        print(f"now   {name:12}{rate('snippet', form):>18}{rate('warning', form):>18}"
              f"{rate('both', form):>18}")  # fmt: skip
        print(f"today {name:12}{rate('old_snippet', form):>18}{rate('old_warning', form):>18}"
              f"{rate('old_both', form):>18}")  # fmt: skip
    for held_out in (False, True):
        part = [r for r in rows if r["held_out"] is held_out]
        hits = sum(r["both"] for r in part)
        old = sum(r["old_both"] for r in part)
        name = "held out (captured after the rules were fixed)" if held_out else "written with"
        print(f"{name}: now {hits}/{len(part)}, today {old}/{len(part)}")
    missed = sorted({r["case"] for r in rows if not (r["snippet"] and r["warning"])})
    print("missed now:", ", ".join(missed) or "none")
    print(
        f"time per snippet: now {statistics.median(timings_now) * 1e6:.0f} us, "
        f"yardstick {statistics.median(timings_old) * 1e6:.0f} us (median)"
    )
    ceiling(cases)


def ceiling(cases: list[dict]) -> None:
    """A result at the ceilings: 64 failures whose outputs fill both windows (4,000
    characters each), vs the redactor alone over the same text and the first-lines cut."""
    from loopx_recall_core.redaction import redact

    texts = [(CAPTURED / f"{case['name']}.out").read_text() for case in cases]
    full = [windows((text * 40)[: 3 * OUTPUT_WINDOW]) for text in texts][:64]

    def median_ms(work) -> float:
        runs = []
        for _ in range(7):
            started = time.perf_counter()
            for text in full:
                work(text)
            runs.append(time.perf_counter() - started)
        return statistics.median(runs) * 1000

    now = median_ms(
        lambda text: format_tool_snippet(
            "Bash", "pytest", outcome=False, exit_code=1, output=text, max_chars=SNIPPET_CHARS
        )
    )
    alone = median_ms(redact)
    head = "Bash: pytest\noutcome: failed (exit 1)\n"
    cut = median_ms(lambda text: (head + text)[:SNIPPET_CHARS])
    print(
        f"64 failures x {len(full[0]):,} characters (a result at the ceilings): {now:.1f} ms, "
        f"of which the redactor alone {alone:.1f} ms; first-lines cut {cut:.2f} ms (median of 7)"
    )


if __name__ == "__main__":
    main()
