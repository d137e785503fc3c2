# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""What a command runs with: the guard and replan compare it alike (issue 28 items 5, 6)
and the guard answers whatever happens to its stdout (item 7).

Before: the guard compared the raw command (a repeat carrying a secret was missed, found by
replan); every environment assignment but a few selectors was dropped (``PGPASSWORD``
corrected was still "the old failure"), and the folder the hook payload says the command
runs in was ignored (``npm test`` in ``backend/`` denied for a failure in ``frontend/``)."""

from __future__ import annotations

import json
import subprocess
import time
from datetime import UTC, datetime, timedelta

import pytest

from loopx_recall_core.guard import hotpath
from loopx_recall_core.guard.decide import find_repeat
from loopx_recall_core.redaction import redact
from tests.guard import helpers
from tests.recall.replan.corpus import evaluate, predict
from tests.recall.replan.corpus_context import AWS, DEV, HELD_OUT, TOKEN
from tests.state_builders import enablement, seed

AN_HOUR_AGO = (datetime.now(UTC) - timedelta(hours=1)).isoformat()


def test_secrets_and_assignments_dev_and_held_out_quality():
    for cases in (DEV, HELD_OUT):
        report = evaluate(cases)
        assert report["metrics"]["repeat"]["precision"] == 1.0
        assert report["metrics"]["repeat"]["recall"] == 1.0
        assert report["accuracy"] == 1.0


def test_the_guard_agrees_with_replan_on_secrets_and_assignments():
    disagreements = []
    for step, (evidence_type, snippet), _label in DEV + HELD_OUT:
        head, lines = helpers.set_lines([helpers.item(evidence_type, snippet, at=AN_HOUR_AGO)])
        guard = find_repeat(step["command"], head, lines).verdict == "repeats_prior_failure"
        if guard != (predict(step, (evidence_type, snippet)) == "repeat"):
            disagreements.append(step["command"])
    assert disagreements == []


def _decide(home, command, cwd=helpers.ROOT):
    payload = helpers.pre_tool_use(command, cwd=cwd)
    return hotpath.decide_payload("claude", payload, agent_id="agent-a", project_id="proj-j",
                                  root=home, now=time.time(), started=time.monotonic(),
                                  deadline=30.0, refresh=False)  # fmt: skip


def _arrange(home, *snippets):
    seed(enablement("fake-provider", stage=2, guard="warn", binding=helpers.BINDING))
    items = [helpers.item("prior_failure", redact(s), at=AN_HOUR_AGO, ref=f"m{n}")
             for n, s in enumerate(snippets)]  # fmt: skip
    helpers.write(home, items)


def _warning(answer):
    return answer["hookSpecificOutput"]["additionalContext"] if answer else None


def test_a_repeat_carrying_a_secret_is_warned_without_the_secret(loopx_home):
    command = f"curl -H 'Authorization: Bearer {TOKEN}' https://api.example.com/v1/items"
    _arrange(loopx_home, f"Bash: {command}\noutcome: failed (exit 22)\n401 Unauthorized")
    warning = _warning(_decide(loopx_home, command))
    assert warning is not None
    assert "401 Unauthorized" in warning
    assert TOKEN not in warning


def test_a_corrected_credential_or_another_database_is_not_the_old_failure(loopx_home):
    _arrange(
        loopx_home,
        "Bash: PGPASSWORD=wrong-horse psql -h db -c 'select 1'\noutcome: failed (exit 2)\nFATAL",
        f"Bash: AWS_SECRET_ACCESS_KEY={AWS} aws s3 ls s3://b\noutcome: failed (exit 255)\nDenied",
        "Bash: PGHOST=db1 psql -U app -c 'select 1'\noutcome: failed (exit 2)\nFATAL",
    )
    assert _decide(loopx_home, "PGPASSWORD=correct-horse psql -h db -c 'select 1'") is None
    assert _decide(loopx_home, f"AWS_SECRET_ACCESS_KEY={AWS}x aws s3 ls s3://b") is None
    assert _decide(loopx_home, "PGHOST=db2 psql -U app -c 'select 1'") is None
    # an output-only variable does not make it another route
    assert _warning(_decide(loopx_home, "NO_COLOR=1 PGHOST=db1 psql -U app -c 'select 1'"))


def test_the_folder_a_command_runs_in_is_part_of_its_route(loopx_home):
    _arrange(loopx_home, "Bash: cd frontend && npm test\noutcome: failed (exit 1)\nFAIL")
    assert _decide(loopx_home, "npm test", cwd=helpers.ROOT + "/backend") is None
    assert _decide(loopx_home, "npm test", cwd=helpers.ROOT) is None
    assert _warning(_decide(loopx_home, "npm test", cwd=helpers.ROOT + "/frontend"))


@pytest.mark.parametrize("reader", ["closed", "full"])
def test_the_hook_exits_0_when_its_stdout_cannot_take_the_answer(loopx_home, reader):
    _arrange(loopx_home, "Bash: pytest tests/a.py\noutcome: failed (exit 1)\nE   boom")
    raw = json.dumps(helpers.pre_tool_use("pytest tests/a.py")).encode()
    ids = ("--agent-id", "agent-a", "--project-id", "proj-j", "--deadline-ms", "30000")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(loopx_home.parent),
           "LOOPX_RECALL_HOME": str(loopx_home), "LOOPX_RECALL_LOAD_PLUGINS": ""}  # fmt: skip
    if reader == "full":
        with open("/dev/full", "wb") as full:
            done = subprocess.run([helpers.LOOPX, "guard", "claude", *ids], input=raw, env=env,
                                  stdout=full, stderr=subprocess.PIPE, timeout=60, check=False)
    else:
        process = subprocess.Popen([helpers.LOOPX, "guard", "claude", *ids], env=env,
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)  # fmt: skip
        process.stdout.close()  # the reader is gone before the answer is written
        _out, err = process.communicate(raw, timeout=60)
        done = subprocess.CompletedProcess(process.args, process.returncode, b"", err)
    assert done.returncode == 0
    assert done.stderr == b""
