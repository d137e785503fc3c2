# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A recall provider plugin that is not Obelisk-shaped: it runs no executable and keeps no
index; it reads one JSON-lines "journal" file per session from a folder.

Its ``capability enable`` options are its own: ``--journal-dir`` (the folder, private),
``--journal-label`` (repeatable, which journals count) and ``--max-age-hours``. The only
thing it shares with the Obelisk plugin is the ``provider_id``: the v0 wire contract allows
exactly one. Like a real plugin it imports nothing from the host but
``loopx_recall_core.plugin_api`` (``tests/core/test_house.py`` checks it), and it is installed
for the end-to-end test as a distribution with a real entry point
(``tests/core/test_fake_provider_e2e.py``).

A journal line: ``{"session": "<ref>", "label": "<label>", "type": "<evidence type>",
"at": "<ISO 8601>", "text": "..."}``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from loopx_recall_core.plugin_api import (
    BindingOption,
    EvidenceItem,
    HistoricalEvidenceRequestV0,
    HistoricalEvidenceResultV0,
    ProviderFailure,
    ProviderReadback,
    ScopeApplied,
    digest,
    hookimpl,
)

#: The v0 wire contract's one provider id (``contracts/historical.py``); nothing else here
#: is Obelisk's.
PROVIDER_ID = "obelisk-session-evidence"
VERSION = "0.0.1-journal"


class JournalProvider:
    provider_id = PROVIDER_ID
    provider_version = VERSION

    def binding_options(self) -> Sequence[BindingOption]:
        return [
            BindingOption(name="journal-dir", help="Folder of *.jsonl journals.", private=True),
            BindingOption(name="journal-label", help="Journal label to read.", multiple=True),
            BindingOption(name="max-age-hours", help="Oldest entry read.", is_int=True),
        ]

    def bind(self, options: Mapping[str, Any], *, cwd: str) -> Mapping[str, Any]:
        folder = options.get("journal_dir")
        if not folder or not Path(folder).is_dir():
            raise ValueError("--journal-dir must name an existing folder")
        labels = sorted(options.get("journal_label") or ())
        if not labels:
            raise ValueError("name at least one --journal-label")
        return {
            "repository_id": "journal-" + digest({"cwd": os.path.realpath(cwd)})[7:23],
            "labels": labels,
            "max_age_hours": options.get("max_age_hours") or 24 * 30,
            "private": {"journal_dir": os.path.realpath(folder)},
        }

    def readback(self, binding: Mapping[str, Any] | None) -> ProviderReadback:
        if binding is None:
            return ProviderReadback(provider_id=PROVIDER_ID, version=VERSION, ready=True)
        folder = Path(binding.get("private", {}).get("journal_dir", ""))
        if not folder.is_dir():
            return ProviderReadback(
                provider_id=PROVIDER_ID,
                version=VERSION,
                ready=False,
                unavailable_reason="journal folder missing",
            )
        return ProviderReadback(
            provider_id=PROVIDER_ID,
            version=VERSION,
            ready=True,
            freshness="fresh",
            runtime={"journals": len(list(folder.glob("*.jsonl")))},
        )

    def retrieve(
        self,
        request: HistoricalEvidenceRequestV0,
        binding: Mapping[str, Any],
        *,
        timeout: float,
        exclude_sessions: Sequence[str] = (),
    ) -> HistoricalEvidenceResultV0:
        folder = Path(binding.get("private", {}).get("journal_dir", ""))
        if not folder.is_dir():
            raise ProviderFailure("provider_unavailable")
        since = datetime.now(UTC) - timedelta(hours=int(binding["max_age_hours"]))
        terms = [term.lower() for term in request.query_terms]
        claimed = None
        if binding.get("agent_sessions") == "claimed":
            # The host names a claimed session ``<runtime>:<id>`` (a Claude one by its id).
            claimed = {
                c["session_id"] if c["runtime"] == "claude" else f"{c['runtime']}:{c['session_id']}"
                for c in binding.get("claimed_sessions", ())
            }
        limits = request.limits
        found: list[EvidenceItem] = []
        for path in sorted(folder.glob("*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                entry = json.loads(line)
                if claimed is not None:
                    # this journal's agents ran in Codex
                    entry["session"] = f"codex:{entry['session']}"
                    if entry["session"] not in claimed:
                        continue
                if (
                    entry["label"] in binding["labels"]
                    and entry["type"] in request.evidence_types
                    and entry["session"] not in exclude_sessions
                    and datetime.fromisoformat(entry["at"]) >= since
                    and any(term in entry["text"].lower() for term in terms)
                ):
                    found.append(
                        EvidenceItem(
                            session_ref=entry["session"],
                            evidence_type=entry["type"],
                            observed_at=entry["at"],
                            snippet=entry["text"][: limits.max_snippet_chars],
                        )
                    )
        kept: list[EvidenceItem] = []
        sessions: set[str] = set()
        total = 0
        for item in found:
            fresh_session = item.session_ref not in sessions
            if (
                len(kept) >= limits.max_items
                or (fresh_session and len(sessions) >= limits.max_sessions)
                or total + len(item.snippet) > limits.max_total_chars
            ):
                continue
            kept.append(item)
            sessions.add(item.session_ref)
            total += len(item.snippet)
        scope = request.scope
        return HistoricalEvidenceResultV0(
            schema_version="historical_evidence_result_v0",
            request_id=request.request_id,
            provider_id=PROVIDER_ID,
            provider_version=VERSION,
            index_revision=f"journal-{len(found)}",
            scope_applied=ScopeApplied(
                agent_id=scope.agent_id,
                project_id=scope.project_id,
                repository_id=scope.repository_id,
                cross_agent_used=False,
            ),
            freshness="fresh",
            items=tuple(kept),
            truncated=len(kept) < len(found),
            omitted_count=len(found) - len(kept),
        )


@hookimpl
def loopx_recall_providers() -> list[JournalProvider]:
    return [JournalProvider()]
