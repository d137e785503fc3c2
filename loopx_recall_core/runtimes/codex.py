# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Codex. Facts (checked against Codex 0.169.0 headless, /work/shared/AGENT_RUNTIMES.md,
the strings of the 0.169.0 binary, and https://developers.openai.com/codex/hooks):

* hooks: ``$CODEX_HOME/hooks.json`` (default ``~/.codex``), or inline ``[hooks]`` tables
  in ``config.toml`` beside it (:mod:`loopx_recall_core.recall.codex_toml`);
* ``SessionStart`` (``session_id`` = the thread, ``transcript_path`` = the rollout,
  ``cwd``, ``hook_event_name``, ``model``, ``permission_mode``, ``source``),
  ``PreToolUse`` (adds ``turn_id``, ``tool_name: "Bash"``, ``tool_input {command}``,
  ``tool_use_id``), ``PostToolUse`` (``tool_response`` is the output text: no exit
  status field, and no failure event);
* trust: Codex runs a non-managed hook only once it is trusted; ``codex exec`` skips an
  untrusted hook without a word. Trust is given in the TUI (at start-up "Hooks need
  review", or the ``/hooks`` command: "view and manage lifecycle hooks") or, for one
  headless run, ``codex exec --dangerously-bypass-hook-trust``. Codex records it in
  ``config.toml`` as ``[hooks.state."<hooks file>:<event>:<group>:<handler>"]
  trusted_hash = "sha256:..."`` (the 0.169.0 binary's strings ``hooks.state."``,
  ``".trusted_hash``; the key form as public tools write it). How the hash is computed is
  not documented, so we read only whether a record exists (:func:`trust_recorded`);
* the shell tool offered to the model is ``exec_command`` (``{"cmd": ...}``); older
  versions' ``shell`` (``{"command": [argv]}``) and ``local_shell`` calls stay in old
  rollouts; ``unified_exec`` names the same tool family in the binary;
* ``exec_command`` output in the rollout's ``function_call_output`` (0.169.0):
  ``Chunk ID: ..\\nWall time: .. seconds\\nProcess exited with code N\\nOriginal token
  count: N\\nOutput:\\n...``; older versions wrote ``Exit code: N`` first;
* the index names a Codex session ``codex:<thread id>``.
"""

from __future__ import annotations

from loopx_recall_core.runtimes._record import HookFile, OutputForm, Runtime, ShellTool

#: What `hook install codex` prints: how to trust the hooks it wrote.
TRUST = (
    "Codex runs these hooks only once you trust them, and skips untrusted ones without a "
    "word. Interactive: start `codex` and choose to trust them in its hooks review (or "
    "open it with /hooks). Headless: run `codex exec --dangerously-bypass-hook-trust ...`."
)

RECORD = Runtime(
    name="codex",
    title="Codex",
    index_prefix="codex:",
    config_env="CODEX_HOME",
    config_default=".codex",
    hook_files=(
        HookFile("user", "hooks.json", "json", "the Codex hooks file"),
        HookFile("user", "config.toml", "toml", "the Codex config file"),
    ),
    hook_events=("SessionStart", "PreToolUse", "PostToolUse"),
    failure_event=None,
    hook_matcher="Bash",
    payload_keys={
        "SessionStart": ("session_id", "transcript_path", "cwd", "hook_event_name", "source"),
        "PreToolUse": (
            "session_id",
            "cwd",
            "hook_event_name",
            "turn_id",
            "tool_name",
            "tool_input",
            "tool_use_id",
        ),
        "PostToolUse": (
            "session_id",
            "cwd",
            "hook_event_name",
            "turn_id",
            "tool_name",
            "tool_input",
            "tool_use_id",
            "tool_response",
        ),
        # the legacy `notify` program: one JSON argument
        "agent-turn-complete": ("type", "thread-id", "cwd"),
    },
    shell_tools=(
        ShellTool("Bash", "Codex 0.169.0 hook payloads (tool_name)"),
        ShellTool("exec_command", "Codex 0.169.0: the shell tool offered to the model"),
        ShellTool("shell", "older Codex rollouts (`{command: [argv]}`)"),
        ShellTool("local_shell", "Codex 0.169.0 binary: ResponseItem::LocalShellCall"),
        ShellTool("unified_exec", "Codex 0.169.0 binary: the unified exec tool family"),
    ),
    output_forms=(
        OutputForm(
            "codex-exit-code",
            r"\AExit code: (-?\d+)",
            "Exit code: 3\nWall time: 0.2 seconds\nOutput:\nerror: synthetic failure\n",
            "Codex before 0.169: exec output starts `Exit code: N`",
        ),
        OutputForm(
            "codex-process-exited",
            # the header lines before `Output:`; the status line is the first
            # `Process exited with code N` there (the template reads it the same way)
            (
                r"\A(?:Chunk ID|Wall time): (?:(?!\nOutput:\n)[\s\S])*?"
                r"\nProcess exited with code (-?\d+)"
            ),
            "Chunk ID: 6c585d\nWall time: 0.0000 seconds\nProcess exited with code 3\n"
            "Original token count: 5\nOutput:\nerror: synthetic failure\n",
            "Codex 0.169.0 rollout function_call_output of exec_command (observed)",
        ),
    ),
    trust=TRUST,
)
