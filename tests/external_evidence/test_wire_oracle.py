# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Cross-language check: the same inputs through Python and through real JavaScript.

``loopx_reference.mjs`` states the wire contract in JavaScript, so trimming, UTF-16
lengths, ``JSON.stringify`` and key order are JavaScript's own. For every generated case
both sides must agree: the same record (same bytes, same key order) or both refuse.
Cases are generated from a fixed seed and include near-limit, non-ASCII, astral,
lone-surrogate and padded texts.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from loopx_recall_core.external_evidence import (
    EvidenceRejected,
    admit,
    discover,
    observe_receipt,
    plan,
    retire,
)

JS_SPACE = list("\t\n\v\f\r \u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")
KEPT = ["\u0085", "\u200b", "\u001c", "\u001f", "\u180e"]
PIECES = ["a", "Z", "retry", "é", "中文", "😀", "𝔸", "\u00e9\u0301", "-", ".", "0"]


class Cases:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.dirty = False  # when False, every generated value is valid

    def chance(self, probability: float) -> bool:
        return self.rng.random() < probability

    def flaw(self, probability: float) -> bool:
        return self.dirty and self.chance(probability)

    def text(self, limit: int, *, blank: float = 0.05) -> str:
        rng = self.rng
        if self.flaw(blank):
            return "".join(rng.choices(JS_SPACE, k=rng.randint(0, 3)))
        if self.chance(0.06):
            # At the limit (over it only before trimming), or just over it.
            unit = rng.choice(["a", "😀", "中"])
            size = limit // (2 if unit == "😀" else 1)
            body = unit * size + ("b" if self.flaw(0.5) else "")
            return rng.choice(JS_SPACE) + body + rng.choice(JS_SPACE)
        body = "".join(rng.choices(PIECES + KEPT + [" "], k=rng.randint(1, 6)))
        if self.chance(0.03):
            body += "\ud800"
        if self.chance(0.4):
            body = rng.choice(JS_SPACE) + body + rng.choice(JS_SPACE)
        return body

    def texts(self, low: int, high: int, limit: int) -> list[str]:
        return [self.text(limit) for _ in range(self.rng.randint(low, high))]

    def uri(self) -> str:
        rng = self.rng
        scheme = rng.choice(["https://", "http://", "urn:", "s3://", "git+ssh://"])
        if self.flaw(0.15):
            scheme = rng.choice(["file://", "FILE://", "mailto:", "/", "Https://", "file:/"])
        ref = scheme + rng.choice(["example.com/", "x", "é/中", "a.b-c"]) + str(rng.randint(0, 3))
        return rng.choice(JS_SPACE) + ref if self.chance(0.2) else ref

    def request(self) -> dict[str, Any]:
        request: dict[str, Any] = {
            "objective": self.text(4096),
            "user_activity": self.text(4096),
            "decision": self.text(4096),
            "evidence_kinds": self.texts(0 if self.flaw(0.05) else 1, 3, 96),
        }
        if self.chance(0.5):
            request["constraints"] = self.texts(0, 3, 256)
        if self.chance(0.5):
            request["source_refs"] = [self.uri() for _ in range(self.rng.randint(1, 3))]
        if self.chance(0.5):
            request["search_terms"] = self.texts(0, 3, 256)
        return request

    def provider(self, index: int) -> dict[str, Any]:
        rng = self.rng
        ready = self.chance(0.5)
        flags = {name: ready or self.chance(0.5) for name in ("declared", "installed", "enabled")}
        if self.flaw(0.1):
            flags["installed"] = False
        row = {
            "provider_id": rng.choice(["", " ", "\u3000"])
            + rng.choice(["host:m", "connector:c", "x.y_z-", "a"])
            + str(index)
            + rng.choice(["", "\t"]),
            "provider_kind": rng.choice(["method", "connector"]),
            "protocol": "external_evidence_research_v0",
            **flags,
            "ready": ready,
            "unavailable_reason": None if ready and self.chance(0.7) else self.text(512),
        }
        if (ready and self.chance(0.2)) or self.flaw(0.1):
            del row["unavailable_reason"]
        return row

    def providers(self) -> list[dict[str, Any]]:
        return [self.provider(index) for index in range(self.rng.randint(0, 4))]

    def source(self, ref: str) -> dict[str, Any]:
        rng = self.rng
        source = {
            "source_ref": ref,
            "source_family": self.text(128),
            "basis": rng.choice(["stated", "observed", "tested", "inferred"]),
            "finding": self.text(4096),
            "limitation": None if self.chance(0.4) else self.text(2048),
            "publication_date": None if self.chance(0.4) else self.text(64),
            "accessed_at": self.text(64),
            "content_digest": rng.choice([" ", ""]) + "sha256:" + rng.choice("0af") * 64,
        }
        if self.flaw(0.1):
            source["basis"] = rng.choice(["guessed", "Observed", " stated"])
        for optional in ("limitation", "publication_date"):
            if self.chance(0.15):
                del source[optional]
        return source

    def receipt(self, plan_record: dict[str, Any]) -> dict[str, Any]:
        selected = plan_record["selected_provider"]
        refs = [self.uri() for _ in range(self.rng.randint(1, 3))]
        status = self.rng.choice(["succeeded"] * 6 + ["failed", "no_evidence"])
        receipt = {
            "schema_version": "loopx_external_evidence_receipt_v0",
            "plan_id": plan_record["plan_id"],
            "request_id": plan_record["request"]["request_id"],
            "provider_id": selected["provider_id"],
            "provider_kind": selected["provider_kind"],
            "status": status,
            "sources": [self.source(ref) for ref in refs] if status == "succeeded" else [],
            "summary": self.text(4096),
            "completed_at": self.text(64),
        }
        if self.chance(0.5):
            receipt["limitations"] = self.texts(0, 2, 1024)
        return receipt

    def decision(self, receipt: dict[str, Any]) -> dict[str, Any]:
        refs = [source["source_ref"] for source in receipt["sources"]]
        chosen = self.rng.sample(refs, self.rng.randint(0, len(refs)))
        if chosen and self.flaw(0.2):
            chosen.append(" " + chosen[0])
        if self.flaw(0.1):
            chosen.append("https://elsewhere.example")
        disposition = "admit" if chosen and receipt["status"] == "succeeded" else "reject"
        if self.flaw(0.1):
            disposition = "admit" if disposition == "reject" else "reject"
        if disposition == "reject" and not self.flaw(0.5):
            chosen = []
        return {
            "disposition": disposition,
            "reason": self.text(2048),
            "admitted_source_refs": chosen,
        }


def _python(op: str, args: list[Any]) -> dict[str, Any]:
    functions: dict[str, Callable[..., Any]] = {
        "discover": discover,
        "plan": plan,
        "observe": observe_receipt,
        "admit": admit,
        "retire": retire,
    }
    try:
        return {"ok": True, "value": functions[op](*copy.deepcopy(args))}
    except EvidenceRejected:
        return {"ok": False}


def _generate(seed: int, count: int) -> list[dict[str, Any]]:
    cases = Cases(seed)
    generated: list[dict[str, Any]] = []
    while len(generated) < count:
        cases.dirty = cases.chance(0.3)
        request, providers = cases.request(), cases.providers()
        generated.append({"op": "discover", "args": [providers]})
        preferred = None
        if providers and cases.chance(0.3):
            preferred = cases.rng.choice(providers)["provider_id"]
        generated.append({"op": "plan", "args": [request, providers, preferred]})
        planned = _python("plan", [request, providers, preferred])
        if not planned["ok"] or planned["value"]["status"] != "ready":
            continue
        plan_record = planned["value"]
        for _ in range(3):
            receipt = cases.receipt(plan_record)
            generated.append({"op": "observe", "args": [plan_record, receipt]})
            decision = cases.decision(receipt)
            generated.append({"op": "admit", "args": [plan_record, receipt, decision]})
            admitted = _python("admit", [plan_record, receipt, decision])
            if not admitted["ok"]:
                continue
            admission = admitted["value"]
            refs = admission["admitted_source_refs"]
            downstream = cases.rng.sample(refs, cases.rng.randint(0, len(refs)))
            downstream = [f" {ref}" for ref in downstream]
            generated.append({"op": "retire", "args": [admission, downstream]})
            if cases.flaw(0.5):
                edited = copy.deepcopy(admission)
                edited["reason"] += "!"
                generated.append({"op": "retire", "args": [edited, downstream]})
    return generated


def _bytes(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_python_and_javascript_agree_record_for_record(oracle, seed):
    cases = _generate(seed, 300)
    answers = oracle(cases)
    assert len(answers) == len(cases)
    outcomes = {"agree_ok": 0, "agree_rejected": 0}
    for case, expected in zip(cases, answers, strict=True):
        actual = _python(case["op"], case["args"])
        assert actual["ok"] == expected["ok"], case
        if actual["ok"]:
            assert _bytes(actual["value"]) == _bytes(expected["value"]), case["op"]
            outcomes["agree_ok"] += 1
        else:
            outcomes["agree_rejected"] += 1
    # The generator must exercise both sides of the contract.
    assert outcomes["agree_ok"] > 100
    assert outcomes["agree_rejected"] > 20
    ops = {case["op"] for case in cases}
    assert ops == {"discover", "plan", "observe", "admit", "retire"}


def test_golden_ids_for_the_documented_example(oracle, make):
    plan_record, receipt, observation, admission = make.lifecycle()
    cases = [
        {"op": "plan", "args": [make.request(), make.providers(), None]},
        {"op": "observe", "args": [plan_record, receipt]},
        {"op": "admit", "args": [plan_record, receipt, make.decision()]},
        {"op": "retire", "args": [admission, [make.source_a]]},
    ]
    plan_js, observation_js, admission_js, retirement_js = (
        answer["value"] for answer in oracle(cases)
    )
    assert plan_js == plan_record
    assert observation_js == observation
    assert admission_js == admission
    assert retirement_js == retire(admission, [make.source_a])
