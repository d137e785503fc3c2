# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The Obelisk version the provider trusts is probed again: after a failed query (which
status shows) and when the probe is older than its time to live."""

from __future__ import annotations

from pathlib import Path

import pytest
from loopx_obelisk_session_evidence import executable
from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence

from loopx_recall_core.plugin_api import ProviderFailure

from ..hostile import (
    answer,
    binding,
    configure,
    install_standin,
    request,
    standin_log,
    standin_world,
    tool_row,
)


@pytest.fixture
def world(tmp_path, monkeypatch):
    return standin_world(tmp_path, monkeypatch)


def test_a_failed_query_shows_in_status_and_the_version_is_probed_again(world):
    home, root, _ = world
    obelisk = install_standin(home)
    configure(home, answer=answer([tool_row(str(root))]))
    provider, bound = ObeliskSessionEvidence(), binding(root, obelisk)
    provider.retrieve(request(), bound, timeout=10)
    configure(home, answer="not our template")  # the runtime now answers garbage
    with pytest.raises(ProviderFailure):
        provider.retrieve(request(), bound, timeout=10)
    versions_before = _versions(home)
    status = provider.readback(bound)
    assert status.ready is False
    assert status.unavailable_reason == "the last call failed: malformed_output"
    assert _versions(home) == versions_before + 1  # the failure made it probe again


def _versions(home: Path) -> int:
    return sum(1 for entry in standin_log(home) if entry.get("argv") == ["--version"])


def test_a_version_probe_expires(world, monkeypatch):
    home, root, _ = world
    obelisk = install_standin(home)
    configure(home, answer=answer([tool_row(str(root))]))
    provider, bound = ObeliskSessionEvidence(), binding(root, obelisk)
    provider.retrieve(request(), bound, timeout=10)
    configure(home, answer=answer([tool_row(str(root))]), version="0.2.0")
    provider.retrieve(request(), bound, timeout=10)  # still trusted within the hour
    monkeypatch.setattr(executable, "VERSION_TTL_S", 0.0)
    with pytest.raises(ProviderFailure) as failure:
        provider.retrieve(request(), bound, timeout=10)
    assert failure.value.reason == "unsupported_runtime_version"
