# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The ``loopx`` command line: thin click groups over the library."""

from __future__ import annotations

import click

from loopx_recall_core import __version__
from loopx_recall_core.cli.capability import capability
from loopx_recall_core.cli.extension import extension
from loopx_recall_core.cli.external_evidence import external_evidence
from loopx_recall_core.cli.recall import recall

__all__ = ["cli", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="loopx")
def cli() -> None:
    """LoopX recall core: agent-turn-recall and external-evidence-research.

    Exit status: 0 ok, 1 rejected input or refused operation, 2 usage or environment
    problem.
    """


cli.add_command(capability)
cli.add_command(extension)
cli.add_command(external_evidence)
cli.add_command(recall)


def main() -> None:
    cli(prog_name="loopx")
