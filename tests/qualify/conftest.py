# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The Obelisk double's fixtures for the qualification tests."""

import sys
from pathlib import Path

_REPO_ROOT = str(Path(__file__).resolve().parents[2])
if _REPO_ROOT not in sys.path:
    sys.path.insert(0, _REPO_ROOT)

from tests.obelisk_double.fixtures import obelisk_bin  # noqa: E402

__all__ = ["obelisk_bin"]
