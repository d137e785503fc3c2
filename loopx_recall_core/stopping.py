# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""How a stop signal travels: :class:`Stopped`, which plugin containment never swallows.

The command line turns SIGINT, SIGTERM and SIGHUP into :class:`Stopped` (a
:class:`SystemExit`, so ``finally`` blocks and atexit handlers still run). Plugin
containment catches everything a plugin raises, its own ``sys.exit()`` included, except
:data:`UNCONTAINED`: a signal that arrives while plugin code runs stops the command. This
module imports nothing, so the command line's start-up does not pay for it.
"""

from __future__ import annotations

__all__ = ["UNCONTAINED", "Stopped"]


class Stopped(SystemExit):
    """The command was stopped by a signal; its code is ``128 + signal number``."""


#: What containment of plugin code re-raises instead of recording the plugin as broken.
UNCONTAINED: tuple[type[BaseException], ...] = (KeyboardInterrupt, Stopped)
