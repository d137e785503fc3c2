# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A runtime's transcript folder the provider may not read is skipped, not fatal: the
recall answers from what it can read."""

from __future__ import annotations

import os

import pytest
from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence

from ..hostile import answer, binding, configure, install_standin, request, standin_world, tool_row


@pytest.fixture
def world(tmp_path, monkeypatch):
    return standin_world(tmp_path, monkeypatch)


def test_unreadable_runtime_folders_are_skipped_not_fatal(world, monkeypatch):
    home, root, _ = world
    obelisk = install_standin(home)
    configure(home, answer=answer([tool_row(str(root))]))
    (home / ".codex" / "sessions").mkdir(parents=True)
    real = os.scandir

    def denied(path):
        if str(path).startswith(str(home / ".codex")):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(os, "scandir", denied)
    result = ObeliskSessionEvidence().retrieve(request(), binding(root, obelisk), timeout=10)
    assert len(result.items) == 1
