# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``capability status``: the ``loopx_capability_status_v0`` record, the read model of an
agent-turn-recall enablement (its provider's readback, its Stage 0 verdict, its claimed
sessions, its guard's sets and installed hooks).

It reads recall's records (:mod:`loopx_recall_core.recall`) and the guard's
(:mod:`loopx_recall_core.guard`), so it stands above both; turning the capability on and
off is :mod:`loopx_recall_core.recall.enablement`. The record has its own time bound
(issue 29): the provider's readback, then the runtime's identity with what is left.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any

import attrs

from loopx_recall_core.plugin.catalogue import did_you_mean, find_known
from loopx_recall_core.plugin.manager import READBACK_DEADLINE_S, PluginHost, safe_readback
from loopx_recall_core.recall.enablement import CAPABILITY
from loopx_recall_core.recall.resolver import resolve_provider
from loopx_recall_core.recall.stage_gate import _HOST_GRACE_S as IDENTITY_GRACE_S
from loopx_recall_core.recall.stage_gate import stage_two_verdict
from loopx_recall_core.runtimes import HOOK_RUNTIMES
from loopx_recall_core.state import Enablement, StateStore

__all__ = ["STATUS_DEADLINE_S", "TRUTH_CONTRACT", "readback_budget", "status_record"]

AGENT_IDENTITY = {
    "claimed": "only the sessions claimed for this agent and project in the session ledger "
    "(by the runtime hooks or `loopx-recall session claim`) count as this agent",
    "runtime": "every session of these runtimes in this repository counts as this agent: "
    "other agents' sessions on the same runtime and repository can be returned",
}
INSTALL_HINT = (
    "no session is claimed yet: install the runtime hook with `loopx-recall hook install "
    f"{'|'.join(HOOK_RUNTIMES)} --agent-id A --project-id J` (or claim one with "
    "`loopx-recall session claim`)"
)

TRUTH_CONTRACT = {
    "grants_new_action_authority": False,
    "external_writes_performed": False,
    "raw_content_captured": False,
    "cross_agent_access": False,
    "cross_project_access": False,
}
# ``cross_agent_access`` is true in a status record as soon as one enablement it lists uses
# runtime identity: that is what such an enablement can return.


#: ``capability status`` answers within 5 s whatever the runtime does (issue 29): the
#: provider's readback gets STATUS_READBACK_S, the runtime identity what is left.
STATUS_DEADLINE_S = 4.0
STATUS_READBACK_S = 3.0


def readback_budget(provider: Any, binding: Mapping[str, Any] | None) -> float:
    """The readback's bound: STATUS_READBACK_S, or longer when the provider says its
    readback needs longer now (an optional ``readback_seconds(binding)``: e.g. the measured
    cost of one query of its runtime, issue 41), never past READBACK_DEADLINE_S. A provider
    without the method, or whose answer is not a number, gets STATUS_READBACK_S."""
    ask = getattr(provider, "readback_seconds", None)
    try:
        wanted = float(ask(binding)) if callable(ask) else 0.0
    except Exception:  # noqa: BLE001 - a broken provider keeps the default bound
        wanted = 0.0
    if wanted != wanted:  # NaN
        wanted = 0.0
    return min(max(STATUS_READBACK_S, wanted), READBACK_DEADLINE_S)


def _qualification_row(
    store: StateStore,
    provider_id: str,
    provider: Any,
    binding: Mapping[str, Any] | None,
    timeout: float,
) -> dict[str, Any]:
    version, identity, verdict = stage_two_verdict(store, provider_id, provider, binding, timeout)
    return {
        "provider_version": version,
        "runtime_version": identity.runtime_version if identity else None,
        "binary_digest": identity.binary_digest if identity else None,
        "verdict": None
        if verdict is None
        else {
            "passed": verdict.passed,
            "recorded_at": verdict.recorded_at,
            "report_digest": verdict.report_digest,
            "failed_gates": list(verdict.failed_gates),
        },
        "stage_2_allowed": bool(verdict and verdict.passed),
    }


def _public_enablement(
    enablement: Enablement,
    show_private: bool,
    claimed: int,
    forgotten: int = 0,
    # (set summaries, installed hooks, the state folder: the guard's last silence)
    guard_files: tuple[Any, ...] | None = None,
) -> dict[str, Any]:
    binding = dict(enablement.binding)
    private = binding.pop("private", None)
    binding.pop("agent_identity", None)  # a provider's old statement; the host's is below
    mode = enablement.session_mode
    sessions: dict[str, Any] = {
        "mode": mode,
        "identity": AGENT_IDENTITY[mode],
        "claimed_sessions": claimed,
        #: sessions forgotten by anyone: out of every agent's recall (a count, never ids)
        "forgotten_sessions": forgotten,
        "cross_agent_access": mode == "runtime",
    }
    if enablement.agent_sessions is None:
        sessions["mode_source"] = (
            "enabled before claimed sessions existed: runtime identity; enable again with "
            "--agent-sessions claimed to narrow it"
        )
    if mode == "claimed" and claimed == 0:
        sessions["hint"] = INSTALL_HINT
    row = {
        "agent_id": enablement.agent_id,
        "project_id": enablement.project_id,
        "repository_id": enablement.repository_id,
        "surface": enablement.surface,
        "stage": enablement.stage,
        "limits": attrs.asdict(enablement.limits),
        "binding": binding,
        "agent_sessions": sessions,
    }
    if show_private and private is not None:
        row["private"] = private
    if guard_files is not None:
        from loopx_recall_core.guard.stats import guard_status

        ids = (enablement.agent_id, enablement.project_id)
        root = guard_files[2] if len(guard_files) > 2 else None
        row["guard"] = guard_status(guard_files[0], *ids, enablement.guard, root,
                                    enablement.provider_id)  # fmt: skip
        row["guard"]["hooks"] = dict(guard_files[1].get(ids, {}))
    return row


def _not_installed(provider_id: str, state: Any) -> str:
    """Why a provider is not ready when it is not installed; a slip for a known or enabled
    provider's name says which one was meant."""
    meant = did_you_mean(provider_id, {e.provider_id for e in state.enablements}).strip(" ()")
    return f"provider not installed; {meant}" if meant else "provider not installed"


def status_record(
    store: StateStore | None = None,
    host: PluginHost | None = None,
    *,
    provider_id: str,
    project_id: str | None,
    agent_id: str | None,
    show_private: bool = False,
) -> dict[str, Any]:
    """The ``loopx_capability_status_v0`` record (public-safe unless ``show_private``);
    the owner's state and the installed plugins unless given."""
    from loopx_recall_core.plugin import manager as plugins

    store = store if store is not None else StateStore()
    host = host if host is not None else plugins.load_host()
    state = store.read()
    enablements = [
        e
        for e in state.enablements
        if e.provider_id == provider_id
        and (project_id is None or e.project_id == project_id)
        and (agent_id is None or e.agent_id == agent_id)
    ]
    known = find_known(provider_id)
    entry = resolve_provider(host, provider_id).entry()
    provider_row: dict[str, Any] = {
        "provider_id": provider_id,
        "distribution": known.distribution if known else None,
        "version": None,
        "declared": entry is not None or known is not None,
        "installed": entry is not None,
        "enabled": bool(enablements),
        "ready": False,
        "unavailable_reason": None if entry is not None else _not_installed(provider_id, state),
    }
    runtime: dict[str, Any] = {}
    freshness = None
    qualification = None
    if entry is not None:
        key, provider = entry
        binding = enablements[0].binding if enablements else None
        # status has its own bound (issue 29): the readback, then the runtime's identity
        # with what is left, so a runtime that never answers costs STATUS_DEADLINE_S; a
        # provider whose queries are slow gets the time it says one takes (issue 41)
        readback_s = readback_budget(provider, binding)
        deadline = time.monotonic() + STATUS_DEADLINE_S - STATUS_READBACK_S + readback_s
        readback = safe_readback(host, key, provider, binding, deadline=readback_s)
        record = host.record(key)
        provider_row.update(
            distribution=record.distribution if record else provider_row["distribution"],
            version=readback.version,
            declared=readback.declared,
            installed=readback.installed,
            ready=readback.ready,
            unavailable_reason=readback.unavailable_reason,
        )
        runtime = dict(readback.runtime)
        freshness = readback.freshness
        left = deadline - time.monotonic() - IDENTITY_GRACE_S
        qualification = _qualification_row(store, provider_id, provider, binding, left)
    from loopx_recall_core.recall.sessions.ledger import SessionLedger  # only with an enablement

    ledger = SessionLedger(store.root)
    views = [ledger.view(agent_id=e.agent_id, project_id=e.project_id) for e in enablements]
    from loopx_recall_core.guard.repository_scope import repository_roots
    from loopx_recall_core.guard.stats import set_summaries
    from loopx_recall_core.recall.hook_health import installed_hooks

    roots = (root for e in enablements for root in repository_roots(e.binding))
    files = (set_summaries(store.root), installed_hooks(roots), store.root)  # read once
    rows = [
        _public_enablement(e, show_private, len(claims), len(forgotten), files)
        for e, (claims, forgotten) in zip(enablements, views, strict=True)
    ]
    record = {
        "schema_version": "loopx_capability_status_v0",
        "capability": CAPABILITY,
        "provider": provider_row,
        "runtime": {**runtime, "freshness": freshness},
        "qualification": qualification,
        "enablements": rows,
        "hooks_without_enablement": _hooks_without_enablement(state, project_id, agent_id),
        "truth_contract": {
            **TRUTH_CONTRACT,
            "cross_agent_access": any(row["agent_sessions"]["cross_agent_access"] for row in rows),
        },
    }
    if show_private:
        record["private"] = {"state_folder": os.path.abspath(store.root)}
    return record


def _hooks_without_enablement(
    state: Any, project_id: str | None, agent_id: str | None
) -> list[dict[str, str]]:
    """Our hooks (user files, and project-local ones at the enablements' roots and this
    folder's repository) naming an agent and project that no enablement of any provider
    has: they still run at every session (after ``capability disable``, say), with the
    command that removes them. Runtime, ids and command only: no path."""
    from loopx_recall_core import cleanup

    enabled = {(e.agent_id, e.project_id) for e in state.enablements}
    found = []
    for item in cleanup.inventory():
        for agent, project in item.pairs:
            if (agent, project) in enabled or project_id not in (None, project):
                continue
            if agent_id not in (None, agent):
                continue
            row = {"runtime": item.runtime, "agent_id": agent, "project_id": project,
                   "remove_with": cleanup.uninstall_command(item.runtime, item.scope)}  # fmt: skip
            if row not in found:
                found.append(row)
    return found
