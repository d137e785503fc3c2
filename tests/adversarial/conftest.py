# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Fixtures of the adversarial tests: the Obelisk protocol double, ready for a HOME."""

from __future__ import annotations

import pytest

from tests.obelisk_double.fixtures import obelisk_bin

__all__ = ["double_ready", "obelisk_bin"]


@pytest.fixture
def double_ready(monkeypatch):
    """The double rebuilds its index before every query (no build grace)."""
    monkeypatch.setenv("OBELISK_DOUBLE_BUILD_GRACE_MS", "0")
