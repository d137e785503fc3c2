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

What the runtimes document about their hooks, and what the guard relies on (payloads,
outputs, where hooks are configured, trust, the bound a hook runs within), with the
sources beside each fact: the runtime records, :mod:`loopx_recall_core.runtimes.claude`
and :mod:`loopx_recall_core.runtimes.codex`. Both runtimes get the same two answers:
``additionalContext`` alone (warn) or ``deny`` with a reason.
"""
