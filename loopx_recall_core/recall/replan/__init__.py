# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Replan integration: typed situation -> admission -> recall -> route comparison -> legality.

Retrieval refines Replan reasoning; it never settles a Replan and adds no terminal state.
:func:`replan` is the one entry point; it is pure apart from the ``recall`` callable,
which it calls once and only when the situation is admitted.

Modules: :mod:`.situation_admission` (trigger conditions, stage gate via the host's
request admission),
:mod:`.terms` (query terms), :mod:`.routes` (normalization), :mod:`.snippets` (reads the
snippet convention providers follow, :mod:`loopx_recall_core.snippet_rules`),
:mod:`.comparison` (verdicts), :mod:`.legality`.

:mod:`.flow` holds :func:`replan`, also reachable here: it is imported on first use, so a
sub-module (e.g. :mod:`.shell`) loads without the contracts.
"""

from typing import Any


def __getattr__(name: str) -> Any:
    # ``loopx_recall_core.recall.replan.replan`` stays the documented entry point; it is
    # imported on first use (PEP 562), so importing a sub-module stays cheap.
    if name in {"replan", "ReplanReport"}:
        from loopx_recall_core.recall.replan import flow

        return getattr(flow, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
