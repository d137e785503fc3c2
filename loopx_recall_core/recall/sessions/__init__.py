# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""An agent's runtime sessions: the ledger of claimed sessions (:mod:`.ledger`) and the
runtimes' session hooks that claim them (:mod:`.runtime_hooks`: ``loopx-recall hook
claude|codex``; not pluggy hooks, which live in :mod:`loopx_recall_core.hookspecs`)."""
