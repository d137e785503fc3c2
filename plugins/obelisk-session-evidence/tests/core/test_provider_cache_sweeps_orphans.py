# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The provider cache sweeps the temporary files a dead writer left (older than an hour)
and leaves a fresh one, perhaps another writer's mid-write, alone."""

from __future__ import annotations

import os
import time

import pytest

from loopx_recall_core.plugin_api import ProviderCache

from ..hostile import standin_world


@pytest.fixture
def world(tmp_path, monkeypatch):
    return standin_world(tmp_path, monkeypatch)


def test_orphaned_cache_temp_files_are_swept(world):
    _, _, state = world
    cache = ProviderCache("obelisk-session-evidence")
    cache.store("probe", {"a": 1})
    folder = state / "providers" / "obelisk-session-evidence"
    orphan, fresh = folder / ".c-orphan", folder / ".c-live"
    for temp in (orphan, fresh):
        temp.write_text("{}")
    old = time.time() - 3600
    os.utime(orphan, (old, old))
    cache.store("probe", {"a": 2})
    assert not orphan.exists()
    assert fresh.exists()  # perhaps another writer's, mid-write
    assert cache.load("probe") == {"a": 2}
