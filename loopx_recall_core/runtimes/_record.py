# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The shape of a runtime record (:mod:`loopx_recall_core.runtimes`). Plain named tuples:
the guard's hot path reads them, so nothing here may import more than the standard
library's ``re`` and ``typing``."""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["HookFile", "OutputForm", "Runtime", "ShellTool"]


class ShellTool(NamedTuple):
    """A tool whose input is a shell command, as a transcript or hook payload names it."""

    name: str
    #: Where the name was seen (a document, an observed run, the runtime's own binary).
    source: str


class OutputForm(NamedTuple):
    """One way a runtime writes a shell call's exit status into its output text.
    ``pattern`` matches at the start of the text, group 1 the status; ``sample`` is a
    failed call's output in this form (exit 3, content synthetic), which the tests check
    the host and the plugin's query template both read as a failure."""

    name: str
    pattern: re.Pattern[str]
    sample: str
    source: str


class HookFile(NamedTuple):
    """Where a runtime reads hooks for one install scope: ``path`` is relative to the
    runtime's config folder (``scope == "user"``) or to the repository root
    (``"project-local"``); ``form`` is ``json`` or ``toml``."""

    scope: str
    path: str
    form: str
    #: What messages call it ("the Claude Code settings file").
    what: str


class Runtime(NamedTuple):
    """Everything the host knows about one agent runtime."""

    #: The name everywhere: CLI arguments, the ledger, the index's ``source`` column.
    name: str
    #: The product's own name, for messages.
    title: str
    #: How the index names its sessions: ``prefix + <runtime's own id>``.
    index_prefix: str
    #: The runtime's config folder: the environment variable that moves it, and its
    #: default under the home folder (None: we install no hooks for this runtime).
    config_env: str | None
    config_default: str | None
    #: The files we install hooks into, by scope (empty: a history source only).
    hook_files: tuple[HookFile, ...]
    #: The events we install, in order; the command hook reads ``hook_event_name``.
    hook_events: tuple[str, ...]
    #: The event the runtime fires after a failed call (None: it fires PostToolUse only).
    failure_event: str | None
    #: The matcher our tool hooks use (the shell tool's name in hook payloads).
    hook_matcher: str
    #: The payload keys we read, per event (documentation and the tests' doubles).
    payload_keys: dict[str, tuple[str, ...]]
    shell_tools: tuple[ShellTool, ...]
    output_forms: tuple[OutputForm, ...]
    #: How to trust freshly installed hooks (None: the runtime runs them as written).
    trust: str | None
