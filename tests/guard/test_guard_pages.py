# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A run of pages in one provider call (PagedRecallProvider, the guard's whole-window set):
each page verified, redacted and recorded with its receipt as any recall; one page that
breaks its request, an item on two pages or more pages than asked rejects them all."""

from __future__ import annotations

import attrs
import pytest

from loopx_recall_core.recall.requests import history_request
from loopx_recall_core.recall.service import RecallService
from loopx_recall_core.recall.store import PrivateStore
from tests.fake_provider import CANARY, FakeProvider, host_with
from tests.state_builders import enablement


class PagedFake(FakeProvider):
    """The fake provider's ``retrieve`` per page, each page's sessions its own."""

    def __init__(self, mode: str = "ok", pages: int = 3) -> None:
        super().__init__(items=2)
        self.paged_mode, self.pages, self.page_calls = mode, pages, 0

    def retrieve_pages(self, requests, binding, *, timeout, exclude_sessions=()):
        self.page_calls += 1
        answered = []
        for n, request in enumerate(requests[: self.pages]):
            self.session = "s" if self.paged_mode == "duplicate" else f"p{n}-s"
            self.mode = "wrong_scope" if self.paged_mode == "one_out_of_scope" and n == 1 else "ok"
            answered.append(self.retrieve(request, binding, timeout=timeout))
        if self.paged_mode == "too_many":  # one page more than was asked for
            answered.append(attrs.evolve(answered[-1], items=()))
        return answered


LIMITS = {"max_sessions": 5, "max_items": 4, "max_snippet_chars": 200, "max_total_chars": 800}


def _request():
    return history_request(
        trigger="operator_requested_history", agent_id="agent-a", project_id="proj-j",
        repository_id="repo-r", evidence_types=("prior_failure",), query_terms=("command",),
        limits=LIMITS, id_prefix="rq-guard-",
    )


def _requests(count: int):
    return [_request() for _ in range(count)]


def _service(provider, tmp_path):
    return RecallService(provider_id=provider.provider_id, host=host_with(provider),
                         enablements=(enablement(provider.provider_id),),
                         store=PrivateStore(tmp_path / "private"), timeout=5.0)  # fmt: skip


def test_pages_are_answered_in_one_call_and_each_recorded_with_its_receipt(tmp_path):
    provider = PagedFake(pages=3)
    requests = _requests(5)
    outcomes = _service(provider, tmp_path).pages(requests)
    assert provider.page_calls == 1
    assert provider.calls == 3  # the fake's own per-page answers, all in that one call
    assert [o.status for o in outcomes] == ["succeeded"] * 3
    assert [o.receipt.request_id for o in outcomes] == [r.request_id for r in requests[:3]]
    sessions = [i.session_ref for o in outcomes for i in o.result.items]
    assert len(sessions) == len(set(sessions)) == 6
    assert len({o.private_ref for o in outcomes}) == 3  # one private record a page
    for outcome in outcomes:
        assert CANARY not in str(outcome.public_json())


@pytest.mark.parametrize(
    ("mode", "reason"),
    [("duplicate", "contract_violation"), ("too_many", "contract_violation"),
     ("one_out_of_scope", "scope_violation")],
)  # fmt: skip
def test_one_bad_page_rejects_every_page(tmp_path, mode, reason):
    provider = PagedFake(mode, pages=3)
    requests = _requests(3)
    outcomes = _service(provider, tmp_path).pages(requests)
    assert [(o.status, o.reason) for o in outcomes] == [("failed", reason)]
    assert outcomes[0].result is None


def test_a_provider_without_pages_answers_the_first_request_alone(tmp_path):
    provider = FakeProvider(items=2)
    outcomes = _service(provider, tmp_path).pages(_requests(4))
    assert [o.status for o in outcomes] == ["succeeded"]
    assert provider.calls == 1


def test_a_refused_page_run_is_one_refusal(tmp_path):
    provider = PagedFake()
    requests = [attrs.evolve(r, trigger="replan_repetition") for r in _requests(2)]  # stage 1
    outcomes = _service(provider, tmp_path).pages(requests)
    assert [(o.status, o.reason) for o in outcomes] == [
        ("refused", "trigger_not_admitted_at_stage")
    ]
    assert provider.page_calls == 0
