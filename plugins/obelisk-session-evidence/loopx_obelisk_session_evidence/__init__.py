# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""obelisk-session-evidence: an agent-turn-recall provider over the unmodified Obelisk CLI."""

PROVIDER_ID = "obelisk-session-evidence"

#: Written once here (pyproject.toml reads it), so loading the plugin costs no
#: importlib.metadata lookup: ``capability status`` loads every plugin.
__version__ = "0.1.0"
