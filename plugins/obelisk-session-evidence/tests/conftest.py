# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The Obelisk protocol double's fixtures, shared with the host's tests."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.obelisk_double.fixtures import archive_home, archive_now, obelisk_bin

__all__ = ["archive_home", "archive_now", "obelisk_bin"]
