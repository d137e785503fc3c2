# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The ``loopx`` console script, which never shadows LoopX.

LoopX (the PyPI distribution ``loopx``) owns the ``loopx`` command and offers no way to
register outside commands into it. We ship a ``loopx`` script only so that the RFC's
commands (``loopx-recall extension install ...``, ``loopx-recall capability enable ...``) work where
LoopX is absent. When LoopX is installed in the same environment, every invocation goes,
unchanged, to LoopX's own ``loopx`` entry point: LoopX's tools launch ``loopx`` by name
and must always reach LoopX.
"""

from __future__ import annotations

import sys
from importlib import metadata

__all__ = ["LOOPX_DISTRIBUTION", "loopx_entry_point", "main"]

LOOPX_DISTRIBUTION = "loopx"


def loopx_entry_point() -> metadata.EntryPoint | None:
    """LoopX's own ``loopx`` console script, when LoopX is installed here."""
    try:
        distribution = metadata.distribution(LOOPX_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None
    for entry_point in distribution.entry_points:
        if entry_point.group == "console_scripts" and entry_point.name == "loopx":
            return entry_point
    return None


def main() -> None:
    entry_point = loopx_entry_point()
    if entry_point is not None:
        sys.exit(entry_point.load()())
    from loopx_recall_core.cli import main as ours

    ours(prog_name="loopx")
