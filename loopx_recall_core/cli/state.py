# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall state path``: where your state folder is (your own private path)."""

from __future__ import annotations

import os

import click

from loopx_recall_core.cli import group_help
from loopx_recall_core.cli._common import Group, emit, format_option
from loopx_recall_core.state import state_root

__all__ = ["state"]


@click.group(cls=Group, help=group_help("state"))
def state() -> None:
    pass


@state.command("path")
@format_option()
def path(output_format: str) -> None:
    """Print the state folder: $LOOPX_RECALL_HOME, else the platform's user state folder.

    The path is your own and private (it holds your user name): no receipt, status or log
    names it; this command and `cleanup` print it on request (`recall qualify` names its
    report folder). Nothing is read or created, so it works when the state is damaged.
    """
    root = os.path.abspath(state_root())
    data = {
        "state_folder": root,
        "source": "LOOPX_RECALL_HOME" if os.environ.get("LOOPX_RECALL_HOME") else "platform",
        "exists": os.path.lexists(root),
    }
    emit(data, output_format, lambda d: d["state_folder"])
