# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""An agent's runtime sessions: the ledger of claimed sessions (:mod:`.ledger`). The
runtimes' session hook that claims them (``loopx-recall hook claude|codex``; not a pluggy
hook, which live in :mod:`loopx_recall_core.plugin.spec`) stands above recall and the guard:
:mod:`loopx_recall_core.session_hook`."""
