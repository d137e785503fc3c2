# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""An in-process recall provider that can misbehave on demand, registered through the hooks."""

from __future__ import annotations

import time
from typing import Any

import attrs

from loopx_recall_core import hookimpl
from loopx_recall_core.contracts import EvidenceItem, HistoricalEvidenceResultV0, ScopeApplied
from loopx_recall_core.plugin.manager import PluginHost
from loopx_recall_core.plugin.records import BindingOption, ProviderFailure, ProviderReadback

CANARY = "CANARY-FAKE-PROVIDER-SNIPPET-9d1e"


class FakeProvider:
    provider_id = "obelisk-session-evidence"
    provider_version = "0.9.0-fake"

    def __init__(
        self, mode: str = "ok", items: int = 2, snippet: str | None = None, session: str = "s"
    ) -> None:
        self.mode = mode
        self.items = items
        self.snippet = snippet  # what a transcript held, instead of the canary (when given)
        self.session = session  # the session refs' prefix
        self.calls = 0

    def binding_options(self) -> list[BindingOption]:
        return [BindingOption(name="history-source", help="runtime", multiple=True,
                              choices=("claude", "codex"))]

    def bind(self, options: dict[str, Any], *, cwd: str) -> dict[str, Any]:
        return {
            "repository_id": "repo-fake",
            "history_sources": list(options.get("history_source", ("codex",))),
            "private": {"repository_roots": [f"/home/alice/{CANARY}/repo"]},
        }

    def readback(self, binding: Any) -> ProviderReadback:
        if self.mode == "readback_raises":
            raise RuntimeError(CANARY)
        return ProviderReadback(
            provider_id=self.provider_id, version=self.provider_version, ready=True,
            freshness="fresh", runtime={"executable_found": True, "runtime_version": "0.2.4"},
        )

    def retrieve(self, request: Any, binding: Any, *, timeout: float, exclude_sessions=()) -> Any:
        self.calls += 1
        mode = self.mode
        if mode == "raise":
            raise RuntimeError(CANARY)
        if mode == "typed":
            raise ProviderFailure("unsupported_runtime_version")
        if mode == "hang":
            time.sleep(timeout + 30)
        scope = request.scope
        applied = ScopeApplied(
            agent_id=scope.agent_id, project_id=scope.project_id,
            repository_id="other-repo" if mode == "wrong_scope" else scope.repository_id,
            cross_agent_used=False,
        )
        limit = request.limits.max_snippet_chars
        snippet = (CANARY + " ") * 400 if mode == "oversize" else f"{CANARY} exit 1"[:limit]
        if self.snippet is not None:
            snippet = self.snippet[:limit]
        evidence_type = "summary" if mode == "unrequested_type" else request.evidence_types[0]
        items = tuple(
            EvidenceItem(
                session_ref=f"{self.session}{i}", evidence_type=evidence_type,
                snippet=snippet[:2000],
            )
            for i in range(self.items)
        )
        result = HistoricalEvidenceResultV0(
            schema_version="historical_evidence_result_v0",
            request_id=request.request_id, provider_id=self.provider_id,
            provider_version=self.provider_version, index_revision="build-1",
            scope_applied=applied, freshness="fresh", items=items,
            truncated=mode == "lies_truncated", omitted_count=0,
        )
        if mode == "dict":
            from loopx_recall_core.contracts import unstructure

            return unstructure(result)
        if mode == "garbage_dict":
            return {"schema_version": "historical_evidence_result_v0", "items": CANARY}
        if mode == "not_a_result":
            return [CANARY]
        return attrs.evolve(result)


def host_with(provider: FakeProvider) -> PluginHost:
    host = PluginHost()

    class Plugin:
        @hookimpl
        def loopx_recall_providers(self) -> list[FakeProvider]:
            return [provider]

    host.register(Plugin(), distribution="loopx-obelisk-session-evidence", version="0.9.0")
    return host
