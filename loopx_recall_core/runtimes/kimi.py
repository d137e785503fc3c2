# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Kimi CLI: a history source only (the index holds its sessions as ``kimi:<id>``; we
install no hooks and write no transcripts for it). Its shell tool's name is not recorded
here: no transcript of it has been checked."""

from __future__ import annotations

from loopx_recall_core.runtimes._record import Runtime

RECORD = Runtime(
    name="kimi",
    title="Kimi CLI",
    index_prefix="kimi:",
    config_env=None,
    config_default=None,
    hook_files=(),
    hook_events=(),
    end_events=(),
    end_events_source=(
        "none used: we install no hooks for this runtime (a history source only), so its "
        "sessions' guard sets are made at a guarded session's start, never at its end"
    ),
    failure_event=None,
    hook_timeout_s=None,
    hook_matcher="",
    payload_keys={},
    shell_tools=(),
    output_forms=(),
    transcripts=None,
    trust=None,
    post_tool_status=None,
)
