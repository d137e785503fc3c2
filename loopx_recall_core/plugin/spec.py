# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Hook specifications: the contract between the loopx host and provider plugins.

A plugin is a module (or object) registered through an entry point in the group
``loopx_recall_core.providers``. It implements one or both hooks below with the
:data:`~loopx_recall_core.plugin_api.hookimpl` marker (a plugin imports nothing but
:mod:`loopx_recall_core.plugin_api`)::

    from loopx_recall_core.plugin_api import hookimpl

    @hookimpl
    def loopx_recall_providers():
        return [MyProvider()]

The host stays authoritative: a provider never decides scope, admission, limits or what is
public. Whatever it returns is re-verified, and anything it raises is contained.

This module holds the hook specifications alone; the provider objects' Protocols are in
:mod:`loopx_recall_core.plugin.protocols`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from loopx_recall_core.plugin.protocols import ExternalEvidenceProvider, RecallProvider

#: The pluggy project name: the hook specs' marker and ``hookimpl`` share it.
PROJECT_NAME = "loopx_recall_core"

hookspec = pluggy.HookspecMarker(PROJECT_NAME)


@hookspec
def loopx_recall_providers() -> Sequence[RecallProvider]:
    """Contribute agent-turn-recall providers.

    :return: the provider objects this plugin offers (usually one).

    Called once per host start, after the plugin was loaded. Must be cheap: do not start
    subprocesses or touch the network here; do that in ``readback`` or ``retrieve``.
    """


@hookspec
def loopx_external_evidence_providers() -> Sequence[ExternalEvidenceProvider]:
    """Contribute external-evidence-research providers.

    :return: the provider objects this plugin offers.

    Their rows in ``loopx-recall external-evidence discover`` reflect each provider's
    ``readback()`` at that moment, never a static "supported" flag.
    """
