# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Codex. Facts (checked against Codex 0.169.0 headless, /work/shared/AGENT_RUNTIMES.md,
the strings of the 0.169.0 binary, and https://developers.openai.com/codex/hooks):

* hooks: ``$CODEX_HOME/hooks.json`` (default ``~/.codex``), or inline ``[hooks]`` tables
  in ``config.toml`` beside it (:mod:`loopx_recall_core.recall.toml_hooks`);
* ``SessionStart`` (``session_id`` = the thread, ``transcript_path`` = the rollout,
  ``cwd``, ``hook_event_name``, ``model``, ``permission_mode``, ``source``),
  ``PreToolUse`` (adds ``turn_id``, ``tool_name: "Bash"``, ``tool_input {command}``,
  ``tool_use_id``), ``PostToolUse`` (``tool_response`` is the output text: no exit
  status field, and no failure event);
* trust: Codex runs a non-managed hook only once it is trusted; ``codex exec`` skips an
  untrusted hook without a word. Trust is given in the TUI (at start-up "Hooks need
  review", or the ``/hooks`` command: "view and manage lifecycle hooks") or, for one
  headless run, ``codex exec --dangerously-bypass-hook-trust`` (both: the 0.169.0
  binary's strings, "Hooks need review", "Trust all and continue", "/hooks": "view and
  manage lifecycle hooks"; developers.openai.com/codex/hooks: "Non-managed command hooks
  must be reviewed and trusted before they run"). Codex records trust in ``config.toml``
  as ``[hooks.state."<hooks file>:<event in snake case>:<group>:<handler>"]
  trusted_hash = "sha256:..."``: checked here against 0.169.0's ``codex app-server``
  ``hooks/list``, which gave our hook the key ``<CODEX_HOME>/hooks.json:post_tool_use:0:0``
  and ``trustStatus`` ``untrusted`` without a record, ``trusted`` with its
  ``currentHash`` recorded and ``modified`` with another hash. The hash is Codex's own
  (undocumented), so status reads only whether a record exists
  (:func:`loopx_recall_core.recall.hook_health.installed_hooks`);
* the shell tool offered to the model is ``exec_command`` (``{"cmd": ...}``); older
  versions' ``shell`` (``{"command": [argv]}``) and ``local_shell`` calls stay in old
  rollouts; ``unified_exec`` names the same tool family in the binary;
* ``exec_command`` output in the rollout's ``function_call_output`` (0.169.0):
  ``Chunk ID: ..\\nWall time: .. seconds\\nProcess exited with code N\\nOriginal token
  count: N\\nOutput:\\n...``; older versions wrote ``Exit code: N`` first;
* the index names a Codex session ``codex:<thread id>``.

Hooks (checked 2026, https://developers.openai.com/codex/hooks; the schemas in
openai/codex ``codex-rs/hooks/schema/generated/pre-tool-use.command.{input,output}.schema.json``;
the guard and the claiming hook rely on these):

* hooks are on by default (``[features] hooks = false`` turns them off; ``codex_hooks``
  is the deprecated key); they live in ``~/.codex/hooks.json`` or
  ``<repo>/.codex/hooks.json`` (or inline ``[hooks]`` tables in ``config.toml``), shaped
  as Claude Code's;
* the ``PreToolUse`` input is ``session_id``, ``transcript_path`` (nullable), ``cwd``,
  ``hook_event_name``, ``model``, ``permission_mode``, ``tool_name`` (``Bash`` for shell
  calls), ``tool_input`` (``{"command": str}``) and ``tool_use_id``. The output is Claude
  Code's ``hookSpecificOutput`` shape (``hookEventName``, ``permissionDecision``,
  ``permissionDecisionReason``, ``additionalContext``); ``deny`` blocks the call, a bare
  ``allow`` has been rejected as unsupported by released versions (openai/codex#20756,
  #20702), ``additionalContext`` without a decision is accepted;
* after the call (``post-tool-use.command.input.schema.json``): ``PostToolUse``, input
  exactly ``cwd``, ``hook_event_name``, ``model``, ``permission_mode``, ``session_id``,
  ``tool_input``, ``tool_name``, ``tool_response``, ``tool_use_id``,
  ``transcript_path``, ``turn_id``; no failure event. An empty stdout with exit 0 is
  accepted; the matcher is the tool name (``Bash``);
* ``SessionStart`` payloads carry ``session_id`` (the thread), ``transcript_path``,
  ``cwd``, ``hook_event_name``, ``model`` and ``source`` (``startup``, ``resume``,
  ``clear``). Non-managed hooks must be reviewed and trusted once before they run;
  ``hook install codex`` says so (:data:`TRUST`);
* a hook handler's ``timeout`` is in seconds (``codex-rs/config/src/hook_config.rs``:
  ``#[serde(default, rename = "timeout")] timeout_sec: Option<u64>``); omitted, 600 s
  for most events (openai/codex#35382 quotes both); only ``SessionEnd`` and interrupts
  are capped shorter, neither is the guard's hook;
* ``cwd``: every hook payload carries the session's working folder.
"""

from __future__ import annotations

from loopx_recall_core.runtimes._record import HookFile, OutputForm, Runtime, ShellTool, Transcripts

#: What `hook install codex` prints: how to trust the hooks it wrote.
TRUST = (
    "Codex runs these hooks only once you trust them, and skips untrusted ones without a "
    "word. Interactive: start `codex` and choose to trust them in its hooks review (or "
    "open it with /hooks). Headless: run `codex exec --dangerously-bypass-hook-trust ...`."
)

#: How much of the rollout's end :func:`rollout_status` reads (the item it looks for is
#: the last line Codex wrote before the hook ran).
_TAIL_BYTES = 64 * 1024


def rollout_status(transcript_path: object, call_id: object) -> int | None:
    """The exit status of the shell call ``call_id``, from the end of its rollout.

    Fact (Codex 0.169.0, observed here with a PostToolUse hook that read the rollout as it
    ran): the hook's ``tool_response`` is the command's output alone (``"boom-line\\n"``
    for ``echo boom-line; exit 3``), while the rollout's last line at that moment is an
    ``event_msg`` ``item_completed`` whose ``item`` is ``{"type": "CommandExecution",
    "id": <the call id>, "status": "failed", "exit_code": 3, ...}``. Only a regular file
    named ``rollout-*.jsonl`` under ``$CODEX_HOME/sessions`` is read, its last 64 KiB;
    anything else, or no such item, is None (unknown)."""
    import json
    import os

    if not (isinstance(transcript_path, str) and isinstance(call_id, str) and call_id):
        return None
    sessions = os.path.realpath(os.path.join(os.environ.get("CODEX_HOME") or os.path.join(
        os.path.expanduser("~"), ".codex"), "sessions"))  # fmt: skip
    path = os.path.realpath(transcript_path)
    name = os.path.basename(path)
    if not (path.startswith(sessions + os.sep) and name.startswith("rollout-")
            and name.endswith(".jsonl")):  # fmt: skip
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        import stat

        if not stat.S_ISREG(info.st_mode):
            return None
        start = max(info.st_size - _TAIL_BYTES, 0)
        tail = os.pread(fd, info.st_size - start, start)
    except OSError:
        return None
    finally:
        os.close(fd)
    for line in reversed(tail.splitlines()):
        if call_id.encode() not in line or b'"item_completed"' not in line:
            continue
        try:
            item = json.loads(line)["payload"]["item"]
        except (ValueError, KeyError, TypeError):
            continue
        if isinstance(item, dict) and item.get("id") == call_id:
            code = item.get("exit_code")
            return code if isinstance(code, int) and not isinstance(code, bool) else None
    return None


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
    end_events=("Stop", "SessionEnd"),
    end_events_source=(
        "Codex 0.169.0, observed headless (`codex exec`, the real-runtime lane's scripted "
        "model): `Stop` after each turn (session_id, turn_id, transcript_path, cwd, "
        "hook_event_name, model, permission_mode, stop_hook_active, last_assistant_message), "
        "then `SessionEnd` at exit (session_id, transcript_path, cwd, hook_event_name, "
        "reason: \"other\"); the 0.169.0 binary's schemas stop.command.input and "
        "session-end.command.input (transcript_path may be null)"
    ),
    failure_event=None,
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
    transcripts=Transcripts(
        folder=".codex/sessions",
        layout="day",
        name="rollout-*-{id}.jsonl",
        session_from="first-line",
        source=(
            "Codex 0.169.0 headless: ~/.codex/sessions/YYYY/MM/DD/rollout-<local start time>-"
            "<thread id>.jsonl, the day the local date the session started; its first line a "
            "session_meta whose payload holds the thread id and the cwd"
        ),
    ),
    trust=TRUST,
    post_tool_status=rollout_status,
)
