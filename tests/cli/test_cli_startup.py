# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A command imports only what it uses (issue 14, item 3): checked on sys.modules of a
fresh interpreter, not on the clock, so the checks hold on a loaded machine too."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import _GROUPS, GROUP_HELP, cli

#: Never needed to print help or the version.
HEAVY = (
    "click",
    "importlib.metadata",
    "pluggy",
    "cattrs",
    "loopx_recall_core.plugin.manager",
    "loopx_recall_core.contracts",
    "loopx_recall_core.state",
    "loopx_obelisk_session_evidence",
)


def _modules_after(args: list[str], env: dict[str, str] | None = None) -> tuple[str, set[str]]:
    """Run ``loopx-recall ARGS`` in a fresh interpreter: its stdout and stderr, and the
    modules it had loaded when it was done."""
    code = (
        "import sys, json\n"
        "from loopx_recall_core.cli import main\n"
        f"sys.argv = ['loopx-recall', *{args!r}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.stdout.flush()\n"
        "sys.stderr.write('\\nMODULES ' + json.dumps(sorted(sys.modules)))\n"
    )
    full_env = {**os.environ, **(env or {})}
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=full_env, check=True
    )
    stderr, _sep, listed = proc.stderr.rpartition("\nMODULES ")
    return proc.stdout + stderr, set(json.loads(listed))


def _loaded(modules: set[str], prefix: str) -> bool:
    return any(m == prefix or m.startswith(prefix + ".") for m in modules)


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["--version"], []])
def test_help_and_version_import_no_group_contract_or_plugin(args):
    output, modules = _modules_after(args)
    assert output.strip()
    for name in HEAVY:
        assert not _loaded(modules, name), name
    for module, _attribute in _GROUPS.values():
        assert module not in modules


def test_version_is_the_installed_distributions():
    from importlib.metadata import version

    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"loopx-recall, version {version('loopx-recall-core')}\n"


def test_help_listing_matches_each_groups_own_help():
    # The root's --help lists the groups from GROUP_HELP without importing them; it must
    # print exactly what click prints from the groups themselves.
    import importlib

    for name, (module, attribute) in _GROUPS.items():
        group = getattr(importlib.import_module(module), attribute)
        first_paragraph = (group.help or "").split("\n\n")[0].strip()
        assert GROUP_HELP[name] == " ".join(first_paragraph.split()), name
        for limit in (20, 45, 60, 200):
            stand_in = click.Command(name, help=GROUP_HELP[name])
            assert stand_in.get_short_help_str(limit) == group.get_short_help_str(limit)

    lazy = CliRunner().invoke(cli, ["--help"], terminal_width=80).output
    eager = click.Group(
        name=cli.name, params=cli.params, help=cli.help, context_settings=cli.context_settings
    )
    for name, (module, attribute) in _GROUPS.items():
        eager.add_command(getattr(importlib.import_module(module), attribute), name)
    assert lazy == CliRunner().invoke(eager, ["--help"], terminal_width=80).output


def test_status_without_plugins_imports_no_plugin_and_no_converter(tmp_path):
    env = {
        "HOME": str(tmp_path),
        "LOOPX_RECALL_HOME": str(tmp_path / "state"),
        "LOOPX_RECALL_LOAD_PLUGINS": "",
    }
    args = ["capability", "status", "agent-turn-recall", "--provider",
            "obelisk-session-evidence", "--format", "json"]
    output, modules = _modules_after(args, env)
    assert json.loads(output)["provider"]["provider_id"] == "obelisk-session-evidence"
    for name in (
        "click",
        "importlib.metadata",
        "cattrs",
        "loopx_obelisk_session_evidence",
        "loopx_recall_core.contracts.external_evidence",
        "loopx_recall_core.contracts.replan",
        "loopx_recall_core.external_evidence",
        # the session ledger (claim counts) is read; the recall path is not
        "loopx_recall_core.recall.service",
        "loopx_recall_core.recall.replan",
        "loopx_recall_core.qualification",
        "loopx_recall_core.cli.recall",
        "loopx_recall_core.cli.external_evidence",
        "loopx_recall_core.cli.extension",
    ):
        assert not _loaded(modules, name), name


def test_status_with_the_plugin_imports_no_click_nor_metadata_nor_contracts(tmp_path):
    # The plugin loads (no obelisk runtime): its readback needs none of the recall path.
    env = {
        "HOME": str(tmp_path),
        "LOOPX_RECALL_HOME": str(tmp_path / "state"),
        "LOOPX_RECALL_OBELISK_BIN": str(tmp_path / "no-such-obelisk"),
    }
    env = {k: v for k, v in os.environ.items() if k != "LOOPX_RECALL_LOAD_PLUGINS"} | env
    args = ["capability", "status", "agent-turn-recall", "--provider",
            "obelisk-session-evidence", "--format", "json"]
    output, modules = _modules_after(args, env)
    assert json.loads(output)["provider"]["installed"] is True
    assert "loopx_obelisk_session_evidence.plugin" in modules
    for name in (
        "click",
        "importlib.metadata",
        "cattrs",
        "loopx_recall_core.contracts.replan",
        "loopx_recall_core.contracts.external_evidence",
        "loopx_recall_core.recall.replan",
        "loopx_obelisk_session_evidence.evidence",
    ):
        assert not _loaded(modules, name), name
