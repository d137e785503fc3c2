# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""`recall qualify` where the secret detector cannot run (its library missing or broken):
one line naming the detector and exit 2, before any provider is asked; never a traceback
(the fault probes once crashed on the empty search terms a withheld text leaves)."""

from __future__ import annotations

import sys

from click.testing import CliRunner

from loopx_recall_core import redaction
from loopx_recall_core.cli import cli


def test_qualify_without_the_detector_says_so_in_one_line(monkeypatch, loopx_home):
    monkeypatch.setitem(sys.modules, "betterleaks", None)  # `import betterleaks` fails
    assert not redaction.detector_ready()
    result = CliRunner().invoke(cli, ["recall", "qualify", "--cases", "20"])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert "secret detector" in lines[0]
    assert "betterleaks" in lines[0]
    assert "Traceback" not in result.output


def test_the_detector_is_ready_where_it_is_installed():
    assert redaction.detector_ready()
