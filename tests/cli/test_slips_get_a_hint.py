# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A newcomer's slips get a hint, not an answer to another question (issue 42):
``--proposed-command -`` (for ``--proposed-command-file -``) and ``--term -`` (for
``--terms-file -``) are usage errors that name the option meant, never a recall of "-";
a mistyped provider or extension name is called not installed with a did-you-mean, and
its options are not blamed first."""

from __future__ import annotations

import importlib

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli

provider_distributions = importlib.import_module("loopx_recall_core.plugin.distributions")
IDS = ["--agent-id", "agent-a", "--project-id", "proj-j"]


def _run(*args: str):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert "Traceback" not in result.output
    return result


@pytest.mark.parametrize(
    ("args", "meant"),
    [
        (["recall", "replan", "--proposed-command", "-", *IDS], "--proposed-command-file -"),
        (["recall", "history", "--term", "-", *IDS], "--terms-file -"),
        (["recall", "history", "--term", "pytest", "--term", "-", *IDS], "--terms-file -"),
    ],
)
def test_a_dash_for_a_value_names_the_file_option(args, meant, loopx_home):
    result = _run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines()[-1].endswith(f"from standard input give {meant}")
    assert "admission" not in result.output  # no recall ran for "-"
    assert not loopx_home.exists()  # nothing stored


def test_a_provider_typo_is_named_first_with_the_provider_meant(loopx_home):
    result = _run("capability", "enable", "agent-turn-recall", "--provider",
                  "obelisk-sesion-evidence", *IDS, "--history-source", "claude")  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "Error: provider 'obelisk-sesion-evidence' is not installed (did you mean "
        "'obelisk-session-evidence'?), so its options (--history-source) are unknown: "
        "`loopx-recall extension list --available` lists the providers there are"
    )
    bare = _run("capability", "enable", "agent-turn-recall", "--provider",
                "obelisk-sesion-evidence", *IDS)  # fmt: skip
    assert bare.exit_code == 1
    assert bare.stderr == (
        "error: unknown provider (did you mean 'obelisk-session-evidence'?): `loopx-recall "
        "extension list --available` lists the known ones\n"
    )
    far = _run("capability", "enable", "agent-turn-recall", "--provider", "journal", *IDS)
    assert "did you mean" not in far.stderr  # nothing close: no guess


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("obelisk-sesion-evidence", "obelisk-session-evidence"),
     ("loopx-obelisk-sesion-evidence", "loopx-obelisk-session-evidence")],
)  # fmt: skip
def test_an_extension_typo_at_uninstall_gets_the_name_meant(typed, meant, monkeypatch):
    monkeypatch.setattr(provider_distributions, "pip_uninstall", pytest.fail)
    result = _run("extension", "uninstall", typed, "--yes")
    assert result.exit_code == 1
    assert result.stderr == f"error: {typed} is not installed (did you mean {meant!r}?)\n"


def test_a_provider_typo_at_status_and_disable_gets_the_provider_meant(loopx_home):
    """Before: `capability status` said `not ready (provider not installed)` and
    `capability disable` `nothing was enabled for that scope; no change`, both exit 0 with
    no word of the provider meant, while the enablement stayed in force."""
    from tests.state_builders import enablement, seed

    seed(enablement("my-journal", stage=1))
    typo = ["agent-turn-recall", "--provider", "obelisk-sesion-evidence"]
    status = _run("capability", "status", *typo)
    assert status.exit_code == 0
    assert ("not ready (provider not installed; did you mean 'obelisk-session-evidence'?)"
            in status.stdout)  # fmt: skip
    disabled = _run("capability", "disable", *typo, "--project-id", "proj-j")
    assert disabled.exit_code == 0
    assert disabled.stdout.splitlines()[0] == (
        "nothing was enabled for that scope (did you mean 'obelisk-session-evidence'?); "
        "no change"
    )
    # an enabled provider's own name counts too, and the enablement stays
    slip = _run("capability", "disable", "agent-turn-recall", "--provider", "my-jurnal",
                "--project-id", "proj-j")  # fmt: skip
    assert slip.stdout.splitlines()[0] == (
        "nothing was enabled for that scope (did you mean 'my-journal'?); no change"
    )
    assert "did you mean" not in _run("capability", "status", "agent-turn-recall",
                                      "--provider", "nothing-like-it").stdout  # fmt: skip
    assert _run("capability", "status", "agent-turn-recall", "--provider", "my-journal",
                "--format", "json").exit_code == 0  # fmt: skip
