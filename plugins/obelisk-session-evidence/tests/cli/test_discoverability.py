# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The real provider's options in ``capability enable --help`` (the host's side, with a fake
provider, is in the repository's tests/cli/test_discoverability.py)."""

from __future__ import annotations

from click.testing import CliRunner

from loopx_recall_core.testing import cli

ENABLE = ["capability", "enable", "agent-turn-recall", "--provider", "obelisk-session-evidence"]


def test_enable_help_lists_the_real_obelisk_providers_options(tmp_path):
    env = {
        "LOOPX_RECALL_HOME": str(tmp_path / "loopx-home"),
        "LOOPX_RECALL_LOAD_PLUGINS": "loopx-obelisk-session-evidence",
    }
    result = CliRunner().invoke(
        cli, [*ENABLE, "--help"], env=env, catch_exceptions=False, prog_name="loopx-recall"
    )
    assert "Traceback" not in result.output
    assert result.exit_code == 0, result.output
    section = result.output.split("Options of provider obelisk-session-evidence:", 1)[1]
    for option in ("--history-source", "--repository-root", "--window-days", "--obelisk-bin"):
        assert option in section
    assert "claude|codex|kimi|pi" in section
