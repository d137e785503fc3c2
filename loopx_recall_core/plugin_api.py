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
:mod:`loopx_recall_core.provider_protocols`). The host stays authoritative: whatever a provider
returns is checked again, and whatever it raises is contained. Import nothing else from
``loopx_recall_core``: the rest of the house may move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from loopx_recall_core import hookimpl
    from loopx_recall_core.canonical import digest
    from loopx_recall_core.contracts import (
        EvidenceItem,
        HistoricalEvidenceRequestV0,
        HistoricalEvidenceResultV0,
        ScopeApplied,
    )
    from loopx_recall_core.decisive_lines import OUTPUT_WINDOW, joined_output
    from loopx_recall_core.jsonio import JsonInputError
    from loopx_recall_core.jsonio import loads as loads_json
    from loopx_recall_core.private_marker import PRIVATE_MARKER, file_holds_marker, holds_marker
    from loopx_recall_core.provider_cache import ProviderCache, enabled_bindings
    from loopx_recall_core.provider_protocols import (
        ENTRY_POINT_GROUP,
        ExternalEvidenceProvider,
        PagedRecallProvider,
        QualifiableRecallProvider,
        QualificationRuntime,
        RecallProvider,
        SessionListingProvider,
    )
    from loopx_recall_core.provider_records import (
        FAULT_KINDS,
        BindingOption,
        CorpusScope,
        ProviderFailure,
        ProviderReadback,
        RuntimeIdentity,
        SessionCandidate,
    )
    from loopx_recall_core.redaction import redact, redact_snippet
    from loopx_recall_core.runtimes import (
        CONFIG_ENVS,
        HISTORY_SOURCES,
        cwd_folder_name,
        index_session_name,
        transcript_folder,
        transcript_runtime,
        transcripts_of,
    )
    from loopx_recall_core.snippet_rules import (
        SHELL_TOOLS,
        format_tool_snippet,
        one_line_command,
        shell_command,
    )
    from loopx_recall_core.transcript_rules import (
        claude_project_folder,
        epoch_ms,
        exit_code,
        under,
        window_start_ms,
    )

#: Where each name lives: a name is imported on first use (PEP 562), so a plugin that
#: imports ``hookimpl`` at load time pays for the contracts only when it uses them
#: (``capability status`` loads every plugin).
_SOURCES = {
    "hookimpl": "loopx_recall_core",
    "digest": "loopx_recall_core.canonical",
    "EvidenceItem": "loopx_recall_core.contracts",
    "HistoricalEvidenceRequestV0": "loopx_recall_core.contracts",
    "HistoricalEvidenceResultV0": "loopx_recall_core.contracts",
    "ScopeApplied": "loopx_recall_core.contracts",
    "ENTRY_POINT_GROUP": "loopx_recall_core.provider_protocols",
    "ExternalEvidenceProvider": "loopx_recall_core.provider_protocols",
    "PagedRecallProvider": "loopx_recall_core.provider_protocols",
    "QualifiableRecallProvider": "loopx_recall_core.provider_protocols",
    "QualificationRuntime": "loopx_recall_core.provider_protocols",
    "RecallProvider": "loopx_recall_core.provider_protocols",
    "SessionListingProvider": "loopx_recall_core.provider_protocols",
    "OUTPUT_WINDOW": "loopx_recall_core.decisive_lines",
    "joined_output": "loopx_recall_core.decisive_lines",
    "JsonInputError": "loopx_recall_core.jsonio",
    "loads_json": "loopx_recall_core.jsonio",
    "FAULT_KINDS": "loopx_recall_core.provider_records",
    "BindingOption": "loopx_recall_core.provider_records",
    "CorpusScope": "loopx_recall_core.provider_records",
    "ProviderCache": "loopx_recall_core.provider_cache",
    "ProviderFailure": "loopx_recall_core.provider_records",
    "ProviderReadback": "loopx_recall_core.provider_records",
    "RuntimeIdentity": "loopx_recall_core.provider_records",
    "SessionCandidate": "loopx_recall_core.provider_records",
    "enabled_bindings": "loopx_recall_core.provider_cache",
    "CONFIG_ENVS": "loopx_recall_core.runtimes",
    "HISTORY_SOURCES": "loopx_recall_core.runtimes",
    "index_session_name": "loopx_recall_core.runtimes",
    "cwd_folder_name": "loopx_recall_core.runtimes",
    "transcript_folder": "loopx_recall_core.runtimes",
    "transcript_runtime": "loopx_recall_core.runtimes",
    "transcripts_of": "loopx_recall_core.runtimes",
    "PRIVATE_MARKER": "loopx_recall_core.private_marker",
    "file_holds_marker": "loopx_recall_core.private_marker",
    "holds_marker": "loopx_recall_core.private_marker",
    "redact": "loopx_recall_core.redaction",
    "redact_snippet": "loopx_recall_core.redaction",
    "SHELL_TOOLS": "loopx_recall_core.snippet_rules",
    "format_tool_snippet": "loopx_recall_core.snippet_rules",
    "one_line_command": "loopx_recall_core.snippet_rules",
    "shell_command": "loopx_recall_core.snippet_rules",
    "claude_project_folder": "loopx_recall_core.transcript_rules",
    "epoch_ms": "loopx_recall_core.transcript_rules",
    "exit_code": "loopx_recall_core.transcript_rules",
    "under": "loopx_recall_core.transcript_rules",
    "window_start_ms": "loopx_recall_core.transcript_rules",
}
_RENAMED = {"loads_json": "loads"}


def __getattr__(name: str) -> Any:
    if name not in _SOURCES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_SOURCES[name]), _RENAMED.get(name, name))
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_SOURCES})


__all__ = [
    "CONFIG_ENVS",
    "ENTRY_POINT_GROUP",
    "FAULT_KINDS",
    "HISTORY_SOURCES",
    "OUTPUT_WINDOW",
    "PRIVATE_MARKER",
    "SHELL_TOOLS",
    "BindingOption",
    "CorpusScope",
    "EvidenceItem",
    "ExternalEvidenceProvider",
    "HistoricalEvidenceRequestV0",
    "HistoricalEvidenceResultV0",
    "JsonInputError",
    "PagedRecallProvider",
    "ProviderCache",
    "ProviderFailure",
    "ProviderReadback",
    "QualifiableRecallProvider",
    "QualificationRuntime",
    "RecallProvider",
    "RuntimeIdentity",
    "ScopeApplied",
    "SessionCandidate",
    "SessionListingProvider",
    "claude_project_folder",
    "cwd_folder_name",
    "digest",
    "enabled_bindings",
    "epoch_ms",
    "exit_code",
    "file_holds_marker",
    "format_tool_snippet",
    "holds_marker",
    "hookimpl",
    "index_session_name",
    "joined_output",
    "loads_json",
    "one_line_command",
    "redact",
    "redact_snippet",
    "shell_command",
    "transcript_folder",
    "transcript_runtime",
    "transcripts_of",
    "under",
    "window_start_ms",
]
