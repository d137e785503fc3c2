# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall extension install`` explains a missing pip and an externally managed Python."""

from __future__ import annotations

import subprocess

import pytest

from loopx_recall_core import __version__
from loopx_recall_core.plugin import _pip
from loopx_recall_core.plugin._pip import PipFailed


def _fake_run(probe_rc, install_rc=0, stderr=""):
    calls = []

    def run(args, **kwargs):
        calls.append(args)
        if args[-1] == "--version":
            return subprocess.CompletedProcess(args, probe_rc, b"", b"")
        if args[3] == "install":
            constraints = args[args.index("-c") + 1]
            with open(constraints) as handle:
                calls.append(handle.read())
        return subprocess.CompletedProcess(args, install_rc, None, stderr)

    return run, calls


def test_missing_pip_is_explained(monkeypatch):
    run, _ = _fake_run(probe_rc=1)
    monkeypatch.setattr(subprocess, "run", run)
    with pytest.raises(PipFailed, match="ensurepip"):
        _pip.pip_install("x", upgrade=False, editable=False)


def test_externally_managed_is_explained(monkeypatch):
    run, _ = _fake_run(0, 1, "error: externally-managed-environment\n")
    monkeypatch.setattr(subprocess, "run", run)
    with pytest.raises(PipFailed, match="virtual environment"):
        _pip.pip_install("x", upgrade=False, editable=False)


def test_host_version_is_pinned(monkeypatch):
    run, calls = _fake_run(0)
    monkeypatch.setattr(subprocess, "run", run)
    _pip.pip_install("./plugin", upgrade=True, editable=True)
    install = calls[1]
    assert install[3:] == ["install", "--disable-pip-version-check", "-c", install[6],
                           "--upgrade", "-e", "./plugin"]
    assert calls[2] == f"loopx-recall-core=={__version__}\n"
