# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``python -m loopx_recall_core``: the same command line as ``loopx-recall``."""

from loopx_recall_core.cli import main

main()
