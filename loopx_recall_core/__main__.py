# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``python -m loopx_recall_core``: the same command line as ``loopx-recall``."""

import os
import sys

# `python -m` puts the working directory first on sys.path, where plugin discovery would
# find (and import) any *.dist-info planted in the folder an agent happens to work in.
# The console script has no such entry; neither has this.
if sys.path and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

from loopx_recall_core.cli import main

main()
