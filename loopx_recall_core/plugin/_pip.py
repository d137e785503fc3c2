# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""pip as a child process, for installing and removing extensions
(:mod:`loopx_recall_core.plugin.distributions`)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

from loopx_recall_core import __version__

__all__ = ["PipFailed", "pip_install", "pip_uninstall"]


class PipFailed(Exception):
    """pip is missing, refused by the environment or failed: an environment problem; the
    message is safe to print (pip's own text went to stderr, never into it)."""


_EXTERNALLY_MANAGED = "externally-managed-environment"


def _pip(args: list[str]) -> None:
    probe = subprocess.run(
        [sys.executable, "-m", "pip", "--version"], capture_output=True, check=False
    )
    if probe.returncode != 0:
        raise PipFailed(
            "pip is not available for this Python: run `python -m ensurepip --upgrade`, or "
            "install loopx-recall-core into a virtual environment that has pip"
        )
    # pip's own progress goes to the operator's terminal (stderr); it is pip's text about
    # packages, never copied into our messages.
    completed = subprocess.run(
        [sys.executable, "-m", "pip", *args],
        stdout=sys.stderr,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    sys.stderr.write(completed.stderr)
    if completed.returncode != 0:
        if _EXTERNALLY_MANAGED in completed.stderr:
            raise PipFailed(
                "this Python environment is externally managed (PEP 668): install "
                "loopx-recall-core in a virtual environment (python -m venv) or with pipx, "
                "then run `loopx-recall extension install` from there"
            )
        raise PipFailed(f"pip failed (exit status {completed.returncode}); see above")


def pip_install(target: str, *, upgrade: bool, editable: bool) -> None:
    """Install ``target`` without ever changing the running loopx-recall-core version."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as constraints:
        constraints.write(f"loopx-recall-core=={__version__}\n")
    try:
        args = ["install", "--disable-pip-version-check", "-c", constraints.name]
        if upgrade:
            args.append("--upgrade")
        # "--": whatever the target looks like, pip reads it as a requirement or a path,
        # never as an option (the CLI refuses option-like targets before this)
        args += ["-e", target] if editable else ["--", target]
        _pip(args)
    finally:
        os.unlink(constraints.name)


def pip_uninstall(distribution: str) -> None:
    _pip(["uninstall", "--disable-pip-version-check", "-y", "--", distribution])
