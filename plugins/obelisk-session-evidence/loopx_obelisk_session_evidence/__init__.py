# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""obelisk-session-evidence: an agent-turn-recall provider over the unmodified Obelisk CLI."""

from importlib.metadata import PackageNotFoundError, version

PROVIDER_ID = "obelisk-session-evidence"

try:
    __version__ = version("loopx-obelisk-session-evidence")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"
