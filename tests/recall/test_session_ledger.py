# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The session-claim ledger: one owner per session, private, atomic, concurrency-safe,
and ``loopx-recall session claim|list|release`` with errors that name no id."""

from __future__ import annotations

import json
import multiprocessing
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.private_files import StateError
from loopx_recall_core.recall.sessions.ledger import ClaimRefused, SessionLedger

SESSION = "CANARY-SESSION-3f1d"
AGENT_A = "CANARY-AGENT-A-77e0"
AGENT_B = "CANARY-AGENT-B-19c4"
CANARIES = (SESSION, AGENT_A, AGENT_B, "CANARY-CWD")


def _claim(ledger, agent=AGENT_A, session=SESSION, runtime="codex", project="proj-j", **kw):
    return ledger.claim(
        agent_id=agent, project_id=project, runtime=runtime, session_id=session, **kw
    )


def test_claim_is_idempotent_for_its_owner_and_refused_for_another(loopx_home):
    ledger = SessionLedger()
    assert _claim(ledger, cwd="/home/CANARY-CWD/repo") is True
    assert _claim(ledger) is False
    # the index's form of the same Codex session is the same session
    assert _claim(ledger, session=f"codex:{SESSION}") is False
    for other in ({"agent": AGENT_B}, {"project": "proj-other"}):
        with pytest.raises(ClaimRefused) as refused:
            _claim(ledger, **other)
        assert not any(c in str(refused.value) for c in CANARIES)
    (claim,) = ledger.claims(agent_id=AGENT_A)
    assert (claim.runtime, claim.session_id) == ("codex", SESSION)
    assert claim.cwd_digest.startswith("sha256:")
    raw = (loopx_home / "private" / "sessions" / "ledger.json").read_text()
    assert "CANARY-CWD" not in raw  # the cwd is kept as a keyed digest only
    # the same id on another runtime is another session
    assert _claim(ledger, agent=AGENT_B, runtime="claude") is True


def test_ledger_is_private(loopx_home):
    _claim(SessionLedger())
    path = loopx_home / "private" / "sessions" / "ledger.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_reading_creates_nothing(loopx_home):
    assert SessionLedger().claims(agent_id=AGENT_A) == []
    assert not loopx_home.exists()


def test_release_only_by_the_owner(loopx_home):
    ledger = SessionLedger()
    _claim(ledger)
    with pytest.raises(ClaimRefused):
        ledger.release(agent_id=AGENT_B, project_id="proj-j", runtime="codex", session_id=SESSION)
    mine = {"agent_id": AGENT_A, "project_id": "proj-j", "runtime": "codex"}
    assert ledger.release(**mine, session_id=SESSION)
    assert ledger.claims() == []
    assert _claim(ledger, agent=AGENT_B) is True


@pytest.mark.parametrize("session", ["", " ", "a b", "x\n", "x" * 257, "codex:", "\udcff"])
def test_bad_session_ids_are_refused(loopx_home, session):
    with pytest.raises(ClaimRefused):
        _claim(SessionLedger(), session=session)


def test_symlinked_or_corrupt_ledger_is_refused_untouched(loopx_home, tmp_path):
    ledger = SessionLedger()
    _claim(ledger)
    path = loopx_home / "private" / "sessions" / "ledger.json"
    path.write_text('{"schema_version": "loopx_session_ledger_v0", "claims": [1]}')
    with pytest.raises(StateError) as error:
        ledger.claims()
    assert "left untouched" in str(error.value)
    target = tmp_path / "elsewhere.json"
    target.write_text("{}")
    path.unlink()
    path.symlink_to(target)
    with pytest.raises(StateError):
        _claim(ledger, agent=AGENT_B, session="other")
    assert target.read_text() == "{}"


def _racer(root: str, agent: str, sessions: list[str], contested: str, out: str) -> None:
    ledger = SessionLedger(Path(root))
    won = []
    for session in [contested, *sessions]:
        try:
            if ledger.claim(agent_id=agent, project_id="p", runtime="claude", session_id=session):
                won.append(session)
        except ClaimRefused:
            pass
    Path(out).write_text(json.dumps(won))


def test_concurrent_claims_lose_nothing_and_one_owner_wins(tmp_path):
    """Six processes claim 20 sessions each plus one session they all want."""
    root = tmp_path / "home"
    context = multiprocessing.get_context("spawn")
    workers = []
    for w in range(6):
        sessions = [f"s-{w}-{i}" for i in range(20)]
        out = tmp_path / f"won-{w}.json"
        process = context.Process(
            target=_racer, args=(str(root), f"agent-{w}", sessions, "contested", str(out))
        )
        workers.append((process, out))
        process.start()
    for process, _out in workers:
        process.join(120)
        assert process.exitcode == 0
    won = [json.loads(out.read_text()) for _p, out in workers]
    claims = SessionLedger(root).claims()
    assert len(claims) == 6 * 20 + 1
    owners = [w for w, sessions in enumerate(won) if "contested" in sessions]
    assert len(owners) == 1
    (contested,) = [c for c in claims if c.session_id == "contested"]
    assert contested.agent_id == f"agent-{owners[0]}"


def _cli(*args):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert "Traceback" not in result.output
    return result


def test_session_cli_claim_list_release(loopx_home):
    base = ["--project-id", "proj-j", "--runtime", "codex", "--session", SESSION]
    # no enablement, so no transcript can vouch for the id: --force claims it anyway
    assert _cli("session", "claim", "--agent-id", AGENT_A, *base, "--force").exit_code == 0
    refused = _cli("session", "claim", "--agent-id", AGENT_B, *base, "--force")
    assert refused.exit_code == 1
    assert "another agent" in refused.output
    assert not any(c in refused.output for c in CANARIES)
    listed = json.loads(_cli("session", "list", "--agent-id", AGENT_A, "--format", "json").output)
    assert listed["count"] == 1
    assert "sessions" not in listed
    assert SESSION not in json.dumps(listed)
    private = _cli("session", "list", "--agent-id", AGENT_A, "--show-private", "--format", "json")
    assert json.loads(private.output)["sessions"][0]["session_id"] == SESSION
    assert _cli("session", "release", "--agent-id", AGENT_B, *base).exit_code == 1
    assert _cli("session", "release", "--agent-id", AGENT_A, *base).exit_code == 0
    again = _cli("session", "release", "--agent-id", AGENT_A, *base)
    assert again.exit_code == 0
    assert "no change" in again.output


def test_session_cli_bad_id_is_one_line_exit_1(loopx_home):
    result = _cli("session", "claim", "--agent-id", AGENT_A, "--project-id", "p",
                  "--runtime", "pi", "--session", f"{SESSION} x", "--force")
    assert result.exit_code == 1
    assert result.output.count("\n") == 1
    assert SESSION not in result.output


def test_session_cli_unusable_state_is_exit_2(loopx_home):
    loopx_home.mkdir()
    os.chmod(loopx_home, 0o777)
    result = _cli("session", "claim", "--agent-id", AGENT_A, "--project-id", "p",
                  "--runtime", "pi", "--session", SESSION, "--force")
    assert result.exit_code == 2
    assert not any(c in result.output for c in CANARIES)


def test_claiming_an_id_no_transcript_holds_is_refused_unless_forced(loopx_home):
    # Before: a mistyped id was accepted and claimed nothing.
    args = ["session", "claim", "--agent-id", AGENT_A, "--project-id", "proj-j",
            "--runtime", "codex", "--session", SESSION]  # fmt: skip
    refused = _cli(*args)
    assert refused.exit_code == 1
    assert refused.output.count("\n") == 1
    assert SESSION not in refused.output
    assert _cli(*args, "--force").exit_code == 0
