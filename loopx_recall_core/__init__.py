# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""loopx-recall-core: the agent-turn-recall and external-evidence-research capabilities.

Provider plugins implement the hooks in :mod:`loopx_recall_core.hookspecs` with
:data:`hookimpl` and register through the ``loopx_recall_core.providers`` entry point group.
"""

from importlib.metadata import PackageNotFoundError, version

import pluggy

from loopx_recall_core.hookspecs import PROJECT_NAME

hookimpl = pluggy.HookimplMarker(PROJECT_NAME)

try:
    __version__ = version("loopx-recall-core")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

__all__ = ["__version__", "hookimpl"]
