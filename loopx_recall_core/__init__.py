# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""loopx-recall-core: the agent-turn-recall and external-evidence-research capabilities.

Provider plugins implement the hooks in :mod:`loopx_recall_core.plugin.spec` with
:data:`hookimpl` and register through the ``loopx_recall_core.providers`` entry point group.

``__version__`` is the one place the version is written (pyproject.toml reads it from
here), so reading it costs no ``importlib.metadata``; ``hookimpl`` is made on first use
(PEP 562), so importing the package does not import pluggy either.
"""

from __future__ import annotations

from typing import Any

__all__ = ["__version__", "hookimpl"]

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name != "hookimpl":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import pluggy

    # the hook specs' project name is this package's name (plugin.spec.PROJECT_NAME); spelt
    # here as __name__ so the package's face imports nothing of the house above it
    value = pluggy.HookimplMarker(__name__)
    globals()[name] = value
    return value
