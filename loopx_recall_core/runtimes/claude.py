# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Claude Code. Facts (checked against Claude Code 2.1.328 headless, /work/shared/
AGENT_RUNTIMES.md, and https://code.claude.com/docs/en/hooks):

* user settings: ``$CLAUDE_CONFIG_DIR/settings.json`` when that variable is set (then
  ``~/.claude/settings.json`` is NOT read: a probe with hooks in both ran only that one),
  else ``~/.claude/settings.json``; project-local ``<root>/.claude/settings.local.json``
  (not committed) is read too;
* ``SessionStart`` (``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name``,
  ``source``), ``PreToolUse`` (``tool_name: "Bash"``, ``tool_input {command,
  description}``, ``tool_use_id``), ``PostToolUse`` after a success (``tool_response``)
  and ``PostToolUseFailure`` after a failure (``error: "Exit code 3\\n..."``);
* a failed Bash call's ``tool_result`` has ``is_error: true`` and content starting
  ``Exit code N``;
* the index names a Claude session by its own ``sessionId`` (no prefix); Obelisk 0.2.4
  indexes only ``~/.claude/projects`` (it does not read ``CLAUDE_CONFIG_DIR``).

Hooks (checked 2026, https://code.claude.com/docs/en/hooks; the guard and the claiming
hook rely on these):

* command hooks are configured under ``hooks`` in ``~/.claude/settings.json`` (user),
  ``.claude/settings.json`` (project, shared) or ``.claude/settings.local.json`` (project,
  not committed), as ``{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type":
  "command", "command": ...}]}]}}``;
* the hook reads one JSON object on stdin: ``session_id``, ``transcript_path``, ``cwd``,
  ``permission_mode``, ``hook_event_name``, and for ``PreToolUse`` ``tool_name``,
  ``tool_input`` (Bash: ``command``, ``description``, ``timeout``) and ``tool_use_id``.
  Exit 0: stdout JSON is processed; exit 2: a blocking error (stderr to Claude); any
  other code: a non-blocking error;
* ``PreToolUse`` output: ``{"hookSpecificOutput": {"hookEventName": "PreToolUse",
  "permissionDecision": "allow"|"deny"|"ask", "permissionDecisionReason": ...,
  "additionalContext": ...}}``; for ``deny`` the reason is shown to Claude,
  ``additionalContext`` is added to Claude's context before the tool runs. ``allow``
  skips the user's permission prompt, so the guard's ``warn`` never sends it: it sends
  ``additionalContext`` alone and the normal permission flow goes on;
* after the call: ``PostToolUse`` after a call that succeeded (input: the ``PreToolUse``
  fields plus ``tool_response``) and ``PostToolUseFailure`` after one that failed (plus
  ``error`` and ``is_interrupt`` instead of ``tool_response``); an empty stdout with exit
  0 is accepted; the matcher is the tool name (``Bash``);
* a command hook's ``timeout`` is in seconds, 600 s when omitted; at the timeout the
  hook's output is discarded (the 2.1.328 bundle's own message: "Its output was
  discarded. Raise the hook's \"timeout\" to allow more time.");
* ``cwd``: every hook payload carries the session's working folder, so a user-scope hook
  (which runs in every repository) can tell where it is.
"""

from __future__ import annotations

from loopx_recall_core.runtimes._record import HookFile, OutputForm, Runtime, ShellTool, Transcripts

RECORD = Runtime(
    name="claude",
    title="Claude Code",
    index_prefix="",
    config_env="CLAUDE_CONFIG_DIR",
    config_default=".claude",
    hook_files=(
        HookFile("user", "settings.json", "json", "the Claude Code settings file"),
        HookFile(
            "project-local", ".claude/settings.local.json", "json", "the Claude Code settings file"
        ),
    ),
    hook_events=("SessionStart", "PreToolUse", "PostToolUse", "PostToolUseFailure"),
    end_events=("Stop", "SessionEnd"),
    end_events_source=(
        "Claude Code 2.1.328, observed headless (`claude -p`, the real-runtime lane's scripted "
        "model): `Stop` after each turn (session_id, transcript_path, cwd, prompt_id, "
        "permission_mode, effort, hook_event_name, stop_hook_active, last_assistant_message, "
        "background_tasks, session_crons), then `SessionEnd` at exit (session_id, "
        "transcript_path, cwd, prompt_id, hook_event_name, reason: \"other\"), about 0.1 s "
        "apart; docs.claude.com/en/docs/claude-code/hooks lists both"
    ),
    failure_event="PostToolUseFailure",
    hook_timeout_s=600.0,
    hook_matcher="Bash",
    payload_keys={
        "SessionStart": ("session_id", "transcript_path", "cwd", "hook_event_name", "source"),
        "Stop": ("session_id", "transcript_path", "cwd", "hook_event_name", "stop_hook_active"),
        "SessionEnd": ("session_id", "transcript_path", "cwd", "hook_event_name", "reason"),
        "PreToolUse": (
            "session_id",
            "cwd",
            "hook_event_name",
            "tool_name",
            "tool_input",
            "tool_use_id",
        ),
        "PostToolUse": (
            "session_id",
            "cwd",
            "hook_event_name",
            "tool_name",
            "tool_input",
            "tool_use_id",
            "tool_response",
        ),
        "PostToolUseFailure": (
            "session_id",
            "cwd",
            "hook_event_name",
            "tool_name",
            "tool_input",
            "tool_use_id",
            "error",
            "is_interrupt",
        ),
    },
    shell_tools=(ShellTool("Bash", "Claude Code 2.1.328 transcripts and hook payloads"),),
    output_forms=(
        OutputForm(
            "claude-exit-code",
            r"\AExit code (-?\d+)",
            "Exit code 3\nerror: synthetic failure",
            "Claude Code 2.1.328: a failed Bash tool_result (is_error) starts `Exit code N`",
        ),
    ),
    transcripts=Transcripts(
        folder=".claude/projects",
        layout="cwd",
        name="{id}.jsonl",
        session_from="file-name",
        # the index reads this folder only (Obelisk 0.2.4 does not read CLAUDE_CONFIG_DIR)
        source=(
            "Claude Code 2.1.328 headless: ~/.claude/projects/<the cwd, every character but "
            "A-Za-z0-9 as '-'>/<sessionId>.jsonl, whatever CLAUDE_CONFIG_DIR says"
        ),
    ),
    trust=None,
    post_tool_status=None,
)
