# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""One redaction on every path (issue 40, item 2). Every form of the corpus
(``tests/core/secrets_corpus.py``, 275 command lines and credential-file lines) is planted
as a canary in a provider's answer and as the proposed command, and goes through every
path that prints or stores text in process: the recall service (the private store's
files, the result it returns, the public record), replan (its report, the proposed
command included) and the guard (its warning, its set file, its session record, its
decisions and the hook log). Not one canary survives any of them.

Before: the forms the detector does not know by shape came back raw on every path
(``tests/core/test_secrets_by_position.py`` lists the reproduced ones). The CLI's own
outputs and both LoopX protocols are covered end to end by the plugin's
``tests/recall/test_redaction_end_to_end.py``, with the same corpus."""

from __future__ import annotations

import json
import re
import time
from datetime import UTC, datetime, timedelta

import pytest

from loopx_recall_core.contracts import HistoricalEvidenceRequestV0, structure
from loopx_recall_core.guard import hotpath
from loopx_recall_core.recall.replan.flow import replan
from loopx_recall_core.recall.service import RecallService
from loopx_recall_core.recall.store import PrivateStore
from loopx_recall_core.snippet_rules import one_line_command
from loopx_recall_core.state import Enablement, LimitCeilings
from tests.core.secrets_corpus import FORMS
from tests.guard import helpers
from tests.recall.replan.helpers import (
    FakeRecall,
    bound,
    command,
    enablement,
    failure,
    item,
    situation,
)
from tests.state_builders import enablement as guard_enablement
from tests.state_builders import seed

from ..fake_provider import FakeProvider, host_with

PROVIDER = "obelisk-session-evidence"
GROUP = 3
GROUPS = [FORMS[i : i + GROUP] for i in range(0, len(FORMS), GROUP)]
AN_HOUR_AGO = (datetime.now(UTC) - timedelta(hours=1)).isoformat()


def _leaks(text: str, forms=FORMS) -> list[str]:
    return [f.name for f in forms if f.leaked(text)]


def _snippet(form) -> str:
    """What a provider keeps of a failed call: the command line, the outcome, the output
    (the form's text again: a tool that echoes its command, a file printed)."""
    return f"Bash: {one_line_command(form.text)}\noutcome: failed (exit 1)\n{form.text}"


def _plain_command(text: str) -> bool:
    return re.match(r"[a-z0-9][\w.+-]*[ \t]", text) is not None and "\n" not in text


def _files(root) -> str:
    return "".join(p.read_bytes().decode(errors="replace") for p in root.rglob("*")
                   if p.is_file())  # fmt: skip


def _recall_enablement() -> Enablement:
    return Enablement(
        capability="agent-turn-recall", provider_id=PROVIDER, surface="replan-history",
        agent_id="agent-a", project_id="proj-j", repository_id="repo-r", stage=1,
        limits=LimitCeilings(max_sessions=3, max_items=3, max_snippet_chars=2000,
                             max_total_chars=32000),
    )  # fmt: skip


@pytest.mark.parametrize("group", GROUPS, ids=[g[0].name for g in GROUPS])
def test_no_form_survives_the_recall_service(request_data, tmp_path, group):
    text = "\n".join(_snippet(f) for f in group)
    assert _leaks(text, group) == [f.name for f in group]
    request_data["limits"] = {"max_sessions": 3, "max_items": 3, "max_snippet_chars": 2000,
                              "max_total_chars": 32000}  # fmt: skip
    request = structure(request_data, HistoricalEvidenceRequestV0)
    store = PrivateStore(tmp_path / "state")
    outcome = RecallService(provider_id=PROVIDER, host=host_with(FakeProvider(snippet=text)),
                            enablements=[_recall_enablement()], store=store)(request)  # fmt: skip
    assert outcome.status == "succeeded", outcome.reason
    assert all("[redacted:" in i.snippet for i in outcome.result.items)
    for shown in (json.dumps(store.load(request.request_id)), _files(tmp_path / "state"),
                  repr(outcome.result), json.dumps(outcome.public_json())):  # fmt: skip
        assert _leaks(shown, group) == []


@pytest.mark.parametrize("group", GROUPS, ids=[g[0].name for g in GROUPS])
def test_no_form_survives_replan_nor_its_proposed_command(group):
    for form in group:
        proposed = one_line_command(form.text)
        recall_ = FakeRecall([item(failure(proposed)), item(_snippet(form), session="s-2")])
        report = replan(
            situation(trigger="operator_requested_history",
                      signals={"operator_requested": True}, proposed_step=command(proposed)),
            recall=bound(recall_, [enablement(stage=1)]),
        )  # fmt: skip
        shown = json.dumps(report.private_json()) + json.dumps(report.public_json())
        searched = json.dumps([list(r.query_terms) for r in recall_.requests])
        assert _leaks(shown + searched, [form]) == [], form.name


def _decide(home, proposed):
    payload = helpers.pre_tool_use(proposed, cwd=helpers.ROOT)
    return hotpath.decide_payload("claude", payload, agent_id="agent-a", project_id="proj-j",
                                  root=home, now=time.time(), started=time.monotonic(),
                                  deadline=30.0, refresh=False)  # fmt: skip


@pytest.mark.parametrize("group", GROUPS, ids=[g[0].name for g in GROUPS])
def test_no_form_survives_the_guard(loopx_home, request_data, tmp_path, group):
    """The set is made from the recall service's answer, as the prefetch makes it; the
    proposed command carries the same secret; the warning, the set file, the session
    record, the decisions and the hook log hold none of it."""
    seed(guard_enablement("fake-provider", stage=2, guard="warn", binding=helpers.BINDING))
    request_data["limits"] = {"max_sessions": 3, "max_items": 3, "max_snippet_chars": 2000,
                              "max_total_chars": 32000}  # fmt: skip
    items = []
    for n, form in enumerate(group):
        request_data["request_id"] = f"req-{n}"
        request = structure(request_data, HistoricalEvidenceRequestV0)
        outcome = RecallService(
            provider_id=PROVIDER, host=host_with(FakeProvider(items=1, snippet=_snippet(form))),
            enablements=[_recall_enablement()], store=PrivateStore(tmp_path / "state"),
        )(request)  # fmt: skip
        items += [helpers.item("prior_failure", i.snippet, at=AN_HOUR_AGO, ref=f"m{n}",
                               session=f"s{n}") for i in outcome.result.items]  # fmt: skip
    helpers.write(loopx_home, items)
    warnings = []
    for form in group:
        answer = _decide(loopx_home, one_line_command(form.text))
        if answer:
            warnings.append(json.dumps(answer))
    # the repeats are warned (the warning path is exercised), unless no form of the group
    # is a plain command: credential-file lines, or commands after a redacted environment
    # value, which is never the same route (routes/chain.py, _equal_values)
    assert warnings or not any(_plain_command(f.text) for f in group)
    assert _leaks("".join(warnings), group) == []
    assert _leaks(_files(loopx_home), group) == []
