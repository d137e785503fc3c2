# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Everything a provider plugin imports from the host, in one module.

A plugin is a module registered under the entry-point group ``loopx_recall_core.providers``
whose hooks return provider objects::

    from loopx_recall_core.plugin_api import hookimpl

    @hookimpl
    def loopx_recall_providers():
        return [MyProvider()]

A recall provider has ``provider_id``, ``provider_version``, ``binding_options()``,
``bind(options, cwd=...)``, ``readback(binding)`` and ``retrieve(request, binding,
timeout=..., exclude_sessions=...)`` (:class:`RecallProvider`, documented hook by hook in
:mod:`loopx_recall_core.plugin.protocols`). The host stays authoritative: whatever a provider
returns is checked again, and whatever it raises is contained. Import nothing else from
``loopx_recall_core``: the rest of the house may move.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: The one table of this module's names: each name a plugin imports, and where it lives (a
#: module, or ``(module, attribute)`` when the attribute is named otherwise there). A name
#: is imported on first use (PEP 562), so a plugin that imports ``hookimpl`` at load time
#: pays for the contracts only when it uses them (``capability status`` loads every
#: plugin). ``__all__`` is the table's names; the ``TYPE_CHECKING`` block below says the
#: same to type checkers, and tests/core/test_facades.py holds it equal to the table.
_SOURCES: dict[str, str | tuple[str, str]] = {
    "hookimpl": "loopx_recall_core",
    "digest": "loopx_recall_core.canonical",
    "EvidenceItem": "loopx_recall_core.contracts",
    "HistoricalEvidenceRequestV0": "loopx_recall_core.contracts",
    "HistoricalEvidenceResultV0": "loopx_recall_core.contracts",
    "ScopeApplied": "loopx_recall_core.contracts",
    "OUTPUT_WINDOW": "loopx_recall_core.decisive_lines",
    "joined_output": "loopx_recall_core.decisive_lines",
    "JsonInputError": "loopx_recall_core.jsonio",
    "loads_json": ("loopx_recall_core.jsonio", "loads"),
    "ProviderCache": "loopx_recall_core.plugin.cache",
    "enabled_bindings": "loopx_recall_core.plugin.cache",
    "ENTRY_POINT_GROUP": "loopx_recall_core.plugin.protocols",
    "ExternalEvidenceProvider": "loopx_recall_core.plugin.protocols",
    "PagedRecallProvider": "loopx_recall_core.plugin.protocols",
    "QualifiableRecallProvider": "loopx_recall_core.plugin.protocols",
    "QualificationRuntime": "loopx_recall_core.plugin.protocols",
    "RecallProvider": "loopx_recall_core.plugin.protocols",
    "SessionListingProvider": "loopx_recall_core.plugin.protocols",
    "FAULT_KINDS": "loopx_recall_core.plugin.records",
    "BindingOption": "loopx_recall_core.plugin.records",
    "CorpusScope": "loopx_recall_core.plugin.records",
    "ProviderFailure": "loopx_recall_core.plugin.records",
    "ProviderReadback": "loopx_recall_core.plugin.records",
    "RuntimeIdentity": "loopx_recall_core.plugin.records",
    "SessionCandidate": "loopx_recall_core.plugin.records",
    "PRIVATE_MARKER": "loopx_recall_core.private_marker",
    "file_holds_marker": "loopx_recall_core.private_marker",
    "holds_marker": "loopx_recall_core.private_marker",
    "redact": "loopx_recall_core.redaction",
    "redact_snippet": "loopx_recall_core.redaction",
    "CONFIG_ENVS": "loopx_recall_core.runtimes",
    "HISTORY_SOURCES": "loopx_recall_core.runtimes",
    "cwd_folder_name": "loopx_recall_core.runtimes",
    "index_session_name": "loopx_recall_core.runtimes",
    "transcript_folder": "loopx_recall_core.runtimes",
    "transcript_runtime": "loopx_recall_core.runtimes",
    "transcripts_of": "loopx_recall_core.runtimes",
    "SHELL_TOOLS": "loopx_recall_core.snippet_rules",
    "format_tool_snippet": "loopx_recall_core.snippet_rules",
    "one_line_command": "loopx_recall_core.snippet_rules",
    "shell_command": "loopx_recall_core.snippet_rules",
    "epoch_ms": "loopx_recall_core.transcript_rules",
    "exit_code": "loopx_recall_core.transcript_rules",
    "under": "loopx_recall_core.transcript_rules",
    "window_start_ms": "loopx_recall_core.transcript_rules",
}

__all__ = sorted(_SOURCES)

#: Older names a plugin may still import, each with the table's name that replaced it: they
#: keep working, with a DeprecationWarning, outside ``__all__`` (and type checkers read them
#: through ``__getattr__``). ``claude_project_folder`` named the ``"cwd"`` transcript
#: layout's folder after the one runtime that had it; the rule is the runtime records'
#: ``cwd_folder_name``. The old spelling is kept here, and only here, until plugins move.
_RENAMED: dict[str, str] = {"claude_project_folder": "cwd_folder_name"}

if TYPE_CHECKING:
    # ``X as X``: re-exported for type checkers; a name renamed here is bound below
    from loopx_recall_core import hookimpl as hookimpl
    from loopx_recall_core.canonical import digest as digest
    from loopx_recall_core.contracts import EvidenceItem as EvidenceItem
    from loopx_recall_core.contracts import (
        HistoricalEvidenceRequestV0 as HistoricalEvidenceRequestV0,
    )
    from loopx_recall_core.contracts import HistoricalEvidenceResultV0 as HistoricalEvidenceResultV0
    from loopx_recall_core.contracts import ScopeApplied as ScopeApplied
    from loopx_recall_core.decisive_lines import OUTPUT_WINDOW as OUTPUT_WINDOW
    from loopx_recall_core.decisive_lines import joined_output as joined_output
    from loopx_recall_core.jsonio import JsonInputError as JsonInputError
    from loopx_recall_core.jsonio import loads as _loads
    from loopx_recall_core.plugin.cache import ProviderCache as ProviderCache
    from loopx_recall_core.plugin.cache import enabled_bindings as enabled_bindings
    from loopx_recall_core.plugin.protocols import ENTRY_POINT_GROUP as ENTRY_POINT_GROUP
    from loopx_recall_core.plugin.protocols import (
        ExternalEvidenceProvider as ExternalEvidenceProvider,
    )
    from loopx_recall_core.plugin.protocols import PagedRecallProvider as PagedRecallProvider
    from loopx_recall_core.plugin.protocols import (
        QualifiableRecallProvider as QualifiableRecallProvider,
    )
    from loopx_recall_core.plugin.protocols import QualificationRuntime as QualificationRuntime
    from loopx_recall_core.plugin.protocols import RecallProvider as RecallProvider
    from loopx_recall_core.plugin.protocols import SessionListingProvider as SessionListingProvider
    from loopx_recall_core.plugin.records import FAULT_KINDS as FAULT_KINDS
    from loopx_recall_core.plugin.records import BindingOption as BindingOption
    from loopx_recall_core.plugin.records import CorpusScope as CorpusScope
    from loopx_recall_core.plugin.records import ProviderFailure as ProviderFailure
    from loopx_recall_core.plugin.records import ProviderReadback as ProviderReadback
    from loopx_recall_core.plugin.records import RuntimeIdentity as RuntimeIdentity
    from loopx_recall_core.plugin.records import SessionCandidate as SessionCandidate
    from loopx_recall_core.private_marker import PRIVATE_MARKER as PRIVATE_MARKER
    from loopx_recall_core.private_marker import file_holds_marker as file_holds_marker
    from loopx_recall_core.private_marker import holds_marker as holds_marker
    from loopx_recall_core.redaction import redact as redact
    from loopx_recall_core.redaction import redact_snippet as redact_snippet
    from loopx_recall_core.runtimes import CONFIG_ENVS as CONFIG_ENVS
    from loopx_recall_core.runtimes import HISTORY_SOURCES as HISTORY_SOURCES
    from loopx_recall_core.runtimes import cwd_folder_name as cwd_folder_name
    from loopx_recall_core.runtimes import index_session_name as index_session_name
    from loopx_recall_core.runtimes import transcript_folder as transcript_folder
    from loopx_recall_core.runtimes import transcript_runtime as transcript_runtime
    from loopx_recall_core.runtimes import transcripts_of as transcripts_of
    from loopx_recall_core.snippet_rules import SHELL_TOOLS as SHELL_TOOLS
    from loopx_recall_core.snippet_rules import format_tool_snippet as format_tool_snippet
    from loopx_recall_core.snippet_rules import one_line_command as one_line_command
    from loopx_recall_core.snippet_rules import shell_command as shell_command
    from loopx_recall_core.transcript_rules import epoch_ms as epoch_ms
    from loopx_recall_core.transcript_rules import exit_code as exit_code
    from loopx_recall_core.transcript_rules import under as under
    from loopx_recall_core.transcript_rules import window_start_ms as window_start_ms

    loads_json = _loads


def __getattr__(name: str) -> Any:
    if name in _RENAMED:
        import warnings

        new = _RENAMED[name]
        warnings.warn(
            f"plugin_api.{name} is deprecated; use plugin_api.{new}",
            DeprecationWarning,
            stacklevel=2,
        )
        return __getattr__(new)
    if name not in _SOURCES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    source = _SOURCES[name]
    module, attribute = (source, name) if isinstance(source, str) else source
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_SOURCES})
