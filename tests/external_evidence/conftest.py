# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Builders for valid external-evidence inputs, and the JavaScript wire oracle."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

from loopx_recall_core.external_evidence import admit, observe_receipt, plan

ORACLE = Path(__file__).with_name("loopx_reference.mjs")
SOURCE_A = "https://example.com/a"
SOURCE_B = "urn:isbn:0451450523"
SOURCE_C = "git+ssh://example.org/repo.git"


class Make:
    """Valid inputs for each step; every argument overrides one field."""

    source_a = SOURCE_A
    source_b = SOURCE_B
    source_c = SOURCE_C

    def provider(
        self,
        provider_id: str = "host:external-research",
        kind: str = "method",
        *,
        ready: bool = True,
        **fields: Any,
    ) -> dict[str, Any]:
        row = {
            "provider_id": provider_id,
            "provider_kind": kind,
            "protocol": "external_evidence_research_v0",
            "declared": True,
            "installed": ready,
            "enabled": ready,
            "ready": ready,
            "unavailable_reason": None if ready else "not_installed",
        }
        row.update(fields)
        return row

    def inventory_only(self, connector_id: str = "official-docs") -> dict[str, Any]:
        return self.provider(
            f"connector:{connector_id}",
            "connector",
            ready=False,
            unavailable_reason="connector_registry_is_inventory_not_readiness",
        )

    def providers(self) -> list[dict[str, Any]]:
        return [self.inventory_only(), self.provider()]

    def request(self, **fields: Any) -> dict[str, Any]:
        request = {
            "objective": "Inspect current behaviour of the retry API",
            "user_activity": "Choosing a retry library",
            "decision": "Whether to adopt library X",
            "evidence_kinds": ["current_behavior", "maintainer_statement"],
            "constraints": ["public sources only"],
            "source_refs": [SOURCE_A],
            "search_terms": ["retry backoff"],
        }
        request.update(fields)
        return {key: value for key, value in request.items() if value is not ...}

    def plan(
        self,
        request: dict[str, Any] | None = None,
        providers: list[dict[str, Any]] | None = None,
        preferred: str | None = None,
    ) -> dict[str, Any]:
        return plan(
            self.request() if request is None else request,
            self.providers() if providers is None else providers,
            preferred,
        )

    def source(self, ref: str = SOURCE_A, **fields: Any) -> dict[str, Any]:
        source = {
            "source_ref": ref,
            "source_family": "vendor documentation",
            "basis": "observed",
            "finding": "Retries use exponential backoff with jitter.",
            "limitation": "Only the latest release was read.",
            "publication_date": "2026-01-15",
            "accessed_at": "2026-03-01T10:00:00Z",
            "content_digest": "sha256:" + "a" * 64,
        }
        source.update(fields)
        return {key: value for key, value in source.items() if value is not ...}

    def receipt(self, plan_record: dict[str, Any], **fields: Any) -> dict[str, Any]:
        selected = plan_record["selected_provider"]
        receipt = {
            "schema_version": "loopx_external_evidence_receipt_v0",
            "plan_id": plan_record["plan_id"],
            "request_id": plan_record["request"]["request_id"],
            "provider_id": selected["provider_id"],
            "provider_kind": selected["provider_kind"],
            "status": "succeeded",
            "sources": [
                self.source(SOURCE_A),
                self.source(SOURCE_B, basis="stated", limitation=None),
                self.source(SOURCE_C, basis="tested", content_digest="sha256:" + "b" * 64),
            ],
            "summary": "Two sources agree that retries back off exponentially.",
            "limitations": ["No load test was run."],
            "completed_at": "2026-03-01T10:05:00Z",
        }
        receipt.update(fields)
        return {key: value for key, value in receipt.items() if value is not ...}

    def decision(
        self, disposition: str = "admit", refs: Sequence[str] = (SOURCE_A, SOURCE_C), **fields: Any
    ) -> dict[str, Any]:
        decision = {
            "disposition": disposition,
            "reason": "Direct, recent, first-party evidence.",
            "admitted_source_refs": list(refs),
        }
        decision.update(fields)
        return decision

    def lifecycle(
        self, *, providers: list[dict[str, Any]] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
        """(plan, receipt, observation, admission) for the default valid inputs."""
        plan_record = self.plan(providers=providers)
        receipt = self.receipt(plan_record)
        return (
            plan_record,
            receipt,
            observe_receipt(plan_record, receipt),
            admit(plan_record, receipt, self.decision()),
        )


@pytest.fixture(scope="session")
def make() -> Make:
    return Make()


def leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterable[tuple[tuple[Any, ...], Any]]:
    """Every (path, leaf) of a JSON-like value (empty lists and objects are leaves too)."""
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))
    else:
        yield path, value


def replaced(value: Any, path: Sequence[Any], new: Any) -> Any:
    """A deep copy of ``value`` with the leaf at ``path`` replaced by ``new``."""
    copied = copy.deepcopy(value)
    target = copied
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return copied


@pytest.fixture(scope="session")
def tree_tools() -> tuple[Callable[..., Any], Callable[..., Any]]:
    return leaves, replaced


@pytest.fixture(scope="session")
def oracle() -> Callable[[list[dict[str, Any]]], list[dict[str, Any]]]:
    """Run cases through the JavaScript statement of the contract (one node process)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")

    def run(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
        payload = "".join(json.dumps(case, ensure_ascii=True) + "\n" for case in cases)
        completed = subprocess.run(
            [node, str(ORACLE)],
            input=payload,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
            check=True,
        )
        # Not splitlines(): it also splits on U+2028, U+0085 and friends inside strings.
        return [json.loads(line) for line in completed.stdout.split("\n") if line]

    return run
