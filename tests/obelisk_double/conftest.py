# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Expose the obelisk-double fixtures (kept in fixtures.py so other test dirs can import them)."""

import sys
from pathlib import Path

_REPO_ROOT = str(Path(__file__).resolve().parents[2])
if _REPO_ROOT not in sys.path:
    sys.path.insert(0, _REPO_ROOT)

from tests.obelisk_double.fixtures import archive_home, archive_now, obelisk_bin  # noqa: E402

__all__ = ["archive_home", "archive_now", "obelisk_bin"]
