# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Fixtures of the recall tests on hostile transcripts: the Obelisk protocol double, ready
for a HOME."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ..obelisk_double.fixtures import double_settings


@pytest.fixture
def double_ready(world):
    """The double, for the test's ``world`` HOME, rebuilds its index before every query."""
    double_settings(Path(os.environ["HOME"]))
