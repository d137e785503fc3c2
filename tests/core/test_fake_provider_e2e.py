# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The host path end to end, through the real CLI, for a provider that is not Obelisk-shaped.

``tests/fake_journal_plugin.py`` is installed into a temporary folder as a distribution
(``*.dist-info`` with a real ``loopx_recall_core.providers`` entry point) on the CLI's
``PYTHONPATH``; only that distribution is loaded. No Obelisk executable, double or
variable is reachable: ``PATH`` holds the interpreter's folder and the system's, every
``*OBELISK*`` variable is removed. Enable (with the provider's own options), status and an
operator history request must work, the request returning a typed result and receipt.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from loopx_recall_core.plugin.protocols import ENTRY_POINT_GROUP

TESTS = Path(__file__).resolve().parents[1]
DIST = "loopx-fake-journal"
PROVIDER = "obelisk-session-evidence"  # the v0 wire contract's one provider id
ENABLE = ["capability", "enable", "agent-turn-recall", "--provider", PROVIDER]
OBELISK_OPTIONS = ("--history-source", "--repository-root", "--window-days", "--obelisk-bin")


def _install(site: Path) -> None:
    site.mkdir()
    shutil.copy(TESTS / "fake_journal_plugin.py", site / "loopx_fake_journal.py")
    info = site / "loopx_fake_journal-0.0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {DIST}\nVersion: 0.0.1\n")
    (info / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\n{PROVIDER} = loopx_fake_journal\n"
    )


def _journal(folder: Path) -> None:
    folder.mkdir()
    now = datetime.now(UTC)
    rows = [
        ("s-1", "ci", "prior_failure", 2, "pytest tests/test_parser.py failed: exit 1"),
        ("s-1", "ci", "tool_outcome", 2, "pytest -q: 48 passed"),
        ("s-2", "notes", "decision", 5, "switch to an iterative parser: pytest overflows"),
        ("s-3", "private", "prior_failure", 1, "pytest secret journal, never bound"),
        ("s-4", "ci", "prior_failure", 24 * 90, "pytest too old for the window"),
    ]
    lines = [
        json.dumps(
            {
                "session": session,
                "label": label,
                "type": kind,
                "at": (now - timedelta(hours=hours)).isoformat(),
                "text": text,
            }
        )
        for session, label, kind, hours, text in rows
    ]
    (folder / "a.jsonl").write_text("\n".join(lines) + "\n")


@pytest.fixture
def cli(tmp_path):
    site = tmp_path / "site"
    _install(site)
    home = tmp_path / "state"
    repo = tmp_path / "repo"
    repo.mkdir()
    bin_dir = Path(sys.executable).parent
    path = os.pathsep.join([str(bin_dir), "/usr/bin", "/bin"])
    assert shutil.which("obelisk", path=path) is None, "an obelisk executable is reachable"
    env = {k: v for k, v in os.environ.items() if "OBELISK" not in k.upper()}
    env.update(
        PATH=path,
        PYTHONPATH=str(site),
        LOOPX_RECALL_HOME=str(home),
        LOOPX_RECALL_LOAD_PLUGINS=DIST,
        HOME=str(tmp_path / "home"),
    )
    exe = bin_dir / "loopx-recall"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "loopx_recall_core"]

    def run(args: list[str], code: int = 0) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            [*command, *args], cwd=repo, env=env, capture_output=True, text=True, timeout=120
        )
        assert result.returncode == code, result.stdout + result.stderr
        return result

    run.journal = tmp_path / "journal"  # type: ignore[attr-defined]
    _journal(run.journal)  # type: ignore[attr-defined]
    return run


def test_enable_status_and_recall_through_the_cli(cli):
    journal = str(cli.journal)
    help_text = cli([*ENABLE, "--help"]).stdout
    own = help_text.split(f"Options of provider {PROVIDER}")[1]
    for option in ("--journal-dir", "--journal-label", "--max-age-hours"):
        assert option in own
    assert not any(option in help_text for option in OBELISK_OPTIONS)

    # the provider's own validation answers, as a usage problem with its message
    refused = cli([*ENABLE, "--agent-id", "a1", "--project-id", "p1", "--journal-dir", journal],
                  code=1)
    assert "--journal-label" in refused.stdout + refused.stderr

    enabled = json.loads(
        cli(
            [*ENABLE, "--agent-id", "a1", "--project-id", "p1", "--journal-dir", journal,
             "--journal-label", "ci", "--journal-label", "notes", "--max-age-hours", "48",
             "--agent-sessions", "runtime", "--format", "json"]
        ).stdout
    )
    assert enabled["changed"] is True
    assert enabled["repository_id"].startswith("journal-")  # the provider's own identity
    assert journal not in json.dumps(enabled)  # --journal-dir is private

    status = json.loads(
        cli(["capability", "status", "agent-turn-recall", "--provider", PROVIDER,
             "--format", "json"]).stdout
    )
    assert status["provider"]["distribution"] == DIST
    assert status["provider"]["version"] == "0.0.1-journal"
    assert status["provider"]["ready"] is True
    assert status["runtime"] == {"journals": 1, "freshness": "fresh"}
    (row,) = status["enablements"]
    assert row["binding"]["labels"] == ["ci", "notes"]
    assert row["binding"]["max_age_hours"] == 48
    assert journal not in json.dumps(status)

    answer = json.loads(
        cli(["recall", "history", "--agent-id", "a1", "--project-id", "p1", "--term", "pytest",
             "--max-items", "2", "--show-private", "--format", "json"]).stdout
    )
    assert answer["status"] == "succeeded", answer
    receipt = answer["receipt"]
    assert receipt["schema_version"] == "historical_evidence_receipt_v0"
    assert receipt["provider_id"] == PROVIDER
    assert receipt["provider_version"] == "0.0.1-journal"
    assert receipt["result_count"] == 2
    assert receipt["truncated"] is True
    assert receipt["omitted_count"] == 1
    snippets = " ".join(item["snippet"] for item in answer["items"])
    assert "secret journal" not in snippets
    assert "too old" not in snippets
    assert {item["session_ref"] for item in answer["items"]} <= {"s-1", "s-2"}

    stored = json.loads(cli(["recall", "show", answer["private_ref"], "--format", "json"]).stdout)
    assert stored["receipt"] == receipt


def test_claimed_sessions_reach_a_provider_that_is_not_obelisk(cli):
    """Claimed-session mode: the host hands the claims over in the binding and re-checks
    every item; the journal provider answers with the claimed session only."""
    cli([*ENABLE, "--agent-id", "a1", "--project-id", "p1", "--journal-dir", str(cli.journal),
         "--journal-label", "ci", "--journal-label", "notes"])
    cli(["session", "claim", "--agent-id", "a1", "--project-id", "p1", "--runtime", "codex",
         "--session", "s-2", "--force"])  # the journal provider lists no sessions
    answer = json.loads(
        cli(["recall", "history", "--agent-id", "a1", "--project-id", "p1", "--term", "pytest",
             "--show-private", "--format", "json"]).stdout
    )
    assert answer["status"] == "succeeded", answer
    assert [item["session_ref"] for item in answer["items"]] == ["codex:s-2"]
