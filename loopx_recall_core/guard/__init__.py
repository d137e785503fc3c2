# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The repetition guard: warn at the moment an agent is about to repeat a failed command.

Flow (RFC Stage 2 with the runtime's own hook as the caller; default off):

* ``SessionStart`` (``loopx-recall hook claude|codex``, which also claims the session) or
  the first guarded call without a set: ONE admitted ``resume_or_handoff_gap`` request
  (evidence ``prior_failure`` and ``tool_outcome``, the current session excluded, the
  enablement's limits) runs in a detached process under a lock (:mod:`.prefetch`); its
  private result is kept as the session's prior-outcome set (:mod:`.store`: 0600, a TTL,
  removed on release). A receipt is written as for any recall.
* ``Stop`` and ``SessionEnd`` (the same claiming command; ``hook install --guard`` adds
  them, the runtime records name them): the agent's set is made again, detached, with
  the ended session's calls, so the next session's first call is guarded; a session whose
  transcript holds the private marker has every set holding it dropped before the hook
  returns (:func:`.prefetch.start_for_hook`).
* ``PreToolUse`` (``loopx-recall guard claude|codex``, :mod:`.hotpath`): claimed session,
  guard on, set present -> the replan comparison
  (:mod:`loopx_recall_core.recall.replan.relation`, one code path) -> a repeat of an
  unsuperseded failure is answered in the runtime's documented output (:mod:`.decide`).
  Anything else prints nothing and exits 0. No provider process, no index read, no
  network, no click or pluggy on this path.
* ``PostToolUse`` (and Claude Code's ``PostToolUseFailure``; the same command, which reads
  ``hook_event_name``): the call that ran is recorded content-free (the set's receipt
  digest, the verdict of what ran, failed or not), and a warning still awaiting its
  follow-up is settled there (``repeated`` / ``avoided``) unless it is the warned call
  itself completing. Never any output, never a prefetch, the same deadline.
* Every event: the payload's ``cwd`` must be inside the enablement's repository
  (:mod:`.repository_scope`: the binding's recorded roots, symlinks resolved, no git); a user-scope
  hook elsewhere is silent and logs ``outside_repository`` (the SessionStart hook claims
  nothing there either).

What the runtimes document, and what we rely on (checked 2026; sources beside each fact):

* Claude Code (https://code.claude.com/docs/en/hooks): command hooks are configured under
  ``hooks`` in ``~/.claude/settings.json`` (user), ``.claude/settings.json`` (project,
  shared) or ``.claude/settings.local.json`` (project, not committed), as
  ``{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
  "command": ...}]}]}}``. The hook reads one JSON object on stdin: ``session_id``,
  ``transcript_path``, ``cwd``, ``permission_mode``, ``hook_event_name``, and for
  ``PreToolUse`` ``tool_name``, ``tool_input`` (Bash: ``command``, ``description``,
  ``timeout``) and ``tool_use_id``. Exit 0: stdout JSON is processed; exit 2: a blocking
  error (stderr to Claude); any other code: a non-blocking error. ``PreToolUse`` output:
  ``{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision":
  "allow"|"deny"|"ask", "permissionDecisionReason": ..., "additionalContext": ...}}``;
  for ``deny`` the reason is shown to Claude, ``additionalContext`` is added to Claude's
  context before the tool runs. ``allow`` skips the user's permission prompt, so the
  guard's ``warn`` never sends it: it sends ``additionalContext`` alone and the normal
  permission flow goes on.
* Codex (https://developers.openai.com/codex/hooks; the schemas in openai/codex
  ``codex-rs/hooks/schema/generated/pre-tool-use.command.{input,output}.schema.json``):
  hooks are on by default (``[features] hooks = false`` turns them off; ``codex_hooks`` is
  the deprecated key); they live in ``~/.codex/hooks.json`` or ``<repo>/.codex/hooks.json``
  (or inline ``[hooks]`` tables in ``config.toml``), shaped as Claude Code's. The
  ``PreToolUse`` input is ``session_id``, ``transcript_path`` (nullable), ``cwd``,
  ``hook_event_name``, ``model``, ``permission_mode``, ``tool_name`` (``Bash`` for shell
  calls), ``tool_input`` (``{"command": str}``) and ``tool_use_id``. The output is the same
  ``hookSpecificOutput`` shape (``hookEventName``, ``permissionDecision``,
  ``permissionDecisionReason``, ``additionalContext``); ``deny`` blocks the call, a bare
  ``allow`` has been rejected as unsupported by released versions (openai/codex#20756,
  #20702), ``additionalContext`` without a decision is accepted. So both runtimes get the
  same two answers: ``additionalContext`` alone (warn) or ``deny`` with a reason.
* After the call (Claude Code docs; Codex ``post-tool-use.command.input.schema.json``):
  Claude Code runs ``PostToolUse`` after a call that succeeded (input: the ``PreToolUse``
  fields plus ``tool_response``) and ``PostToolUseFailure`` after one that failed (plus
  ``error`` and ``is_interrupt`` instead of ``tool_response``); Codex runs ``PostToolUse``
  (input exactly ``cwd``, ``hook_event_name``, ``model``, ``permission_mode``,
  ``session_id``, ``tool_input``, ``tool_name``, ``tool_response``, ``tool_use_id``,
  ``transcript_path``, ``turn_id``) and has no failure event. Both accept an empty stdout
  with exit 0; the matcher is the tool name (``Bash``).
* Codex ``SessionStart`` payloads carry ``session_id`` (the thread), ``transcript_path``,
  ``cwd``, ``hook_event_name``, ``model`` and ``source`` (``startup``, ``resume``,
  ``clear``). Non-managed Codex hooks must be reviewed and trusted once before they run;
  ``hook install codex`` says so. Where Codex reads hooks from, and the ``config.toml``
  form: :mod:`loopx_recall_core.recall.codex_toml`.
* ``cwd``: both runtimes send the session's working folder in every hook payload, so a
  user-scope hook (which runs in every repository) can tell where it is.
"""
