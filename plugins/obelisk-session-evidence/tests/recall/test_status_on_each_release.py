# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``capability status`` on each supported runtime, the real ones of the lane included
(issue 41: on a 0.2.4-line build status said ``ready: false``, ``provider readback timed
out``, with neither the version nor the freshness, while recall worked): ready, the version
the binary itself prints, and fresh, right after enabling and again after a recall."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from ..conftest import CAPABILITY

pytestmark = pytest.mark.real_obelisk


def _status(loopx) -> dict:
    out = loopx("capability", "status", *CAPABILITY, "--project-id", "proj-j", "--format", "json")
    return json.loads(out.stdout)


def test_status_is_ready_fresh_and_names_the_version(loopx, enable_alpha, obelisk_bin,
                                                     archive_home):  # fmt: skip
    env = {"PATH": os.environ["PATH"], "HOME": str(archive_home.home),
           "LOOPX_RECALL_NODE22": os.environ["LOOPX_RECALL_NODE22"]}  # fmt: skip
    printed = subprocess.run([str(obelisk_bin), "--version"], env=env, capture_output=True,
                             text=True, timeout=60, check=True).stdout  # fmt: skip
    version = printed.splitlines()[0].strip()
    enable_alpha("claude")
    for _ in ("after enable", "after a recall"):
        status = _status(loopx)
        assert status["provider"]["ready"] is True, status
        assert status["provider"]["unavailable_reason"] is None
        assert status["runtime"]["runtime_version"] == version
        assert status["runtime"]["freshness"] == "fresh", status
        recall = loopx("recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j",
                       "--term", "pytest", "--format", "json")  # fmt: skip
        assert json.loads(recall.stdout)["status"] == "succeeded"
