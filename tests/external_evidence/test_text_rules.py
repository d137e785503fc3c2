# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Text rules: JavaScript trim, UTF-16 lengths, non-ASCII, padded ids, duplicates."""

from __future__ import annotations

import pytest

from loopx_recall_core.canonical import digest
from loopx_recall_core.external_evidence import (
    EvidenceRejected,
    admit,
    discover,
    observe_receipt,
    plan,
)

ASTRAL = "😀"  # one code point, two UTF-16 units


def _plan_with(make, **fields):
    return plan(make.request(**fields), make.providers())


# ---- UTF-16 length limits -----------------------------------------------------------


@pytest.mark.parametrize("field", ["objective", "user_activity", "decision"])
def test_4096_units_pass_and_4097_fail(make, field):
    assert _plan_with(make, **{field: "a" * 4096})["request"][field] == "a" * 4096
    with pytest.raises(EvidenceRejected, match=rf"request\.{field}: longer than 4096 UTF-16"):
        _plan_with(make, **{field: "a" * 4097})


def test_an_astral_character_counts_two_units(make):
    assert _plan_with(make, objective=ASTRAL * 2048)["request"]["objective"] == ASTRAL * 2048
    with pytest.raises(EvidenceRejected, match="longer than 4096"):
        _plan_with(make, objective=ASTRAL * 2048 + "a")
    with pytest.raises(EvidenceRejected, match="longer than 4096"):
        _plan_with(make, objective="a" * 4095 + ASTRAL)
    # 4096 code points, but 8192 UTF-16 units.
    with pytest.raises(EvidenceRejected, match="longer than 4096"):
        _plan_with(make, objective=ASTRAL * 4096)


def test_bmp_non_ascii_counts_one_unit(make):
    assert _plan_with(make, objective="é" * 4096)["request"]["objective"] == "é" * 4096
    assert _plan_with(make, objective="中" * 4096)["request"]["objective"] == "中" * 4096


def test_length_is_counted_after_trimming(make):
    padded = " \u3000\ufeff" + "a" * 4096 + "\u00a0\n"
    assert _plan_with(make, objective=padded)["request"]["objective"] == "a" * 4096


@pytest.mark.parametrize(
    ("fields", "path", "limit"),
    [
        ({"evidence_kinds": ["k" * 97]}, r"evidence_kinds\[0\]", 96),
        ({"constraints": ["c" * 257]}, r"constraints\[0\]", 256),
        ({"search_terms": ["s" * 257]}, r"search_terms\[0\]", 256),
        ({"source_refs": ["https://" + "a" * 2041]}, r"source_refs\[0\]", 2048),
    ],
)
def test_list_item_limits(make, fields, path, limit):
    with pytest.raises(EvidenceRejected, match=rf"request\.{path}: longer than {limit}"):
        _plan_with(make, **fields)
    at_limit = {key: [value[0][:-1]] for key, value in fields.items()}
    assert _plan_with(make, **at_limit)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"evidence_kinds": []}, r"evidence_kinds: must hold 1\.\.8 items"),
        ({"evidence_kinds": ["k"] * 9}, r"evidence_kinds: must hold 1\.\.8 items"),
        ({"constraints": ["c"] * 17}, r"constraints: must hold 0\.\.16 items"),
        ({"source_refs": []}, r"source_refs: must hold 1\.\.8 items"),
        ({"search_terms": ["s"] * 9}, r"search_terms: must hold 0\.\.8 items"),
        ({"source_refs": None}, "source_refs: must be absent or hold a value, not null"),
        ({"constraints": "one"}, "constraints: expected list, got str"),
    ],
)
def test_list_bounds(make, fields, message):
    with pytest.raises(EvidenceRejected, match=message):
        _plan_with(make, **fields)


def test_receipt_and_decision_text_limits(make):
    plan_record = make.plan()
    finding_ok = make.receipt(plan_record, sources=[make.source(finding=ASTRAL * 2048)])
    assert observe_receipt(plan_record, finding_ok)
    too_long = make.receipt(plan_record, sources=[make.source(finding=ASTRAL * 2048 + "x")])
    with pytest.raises(EvidenceRejected, match=r"sources\[0\]\.finding: longer than 4096"):
        observe_receipt(plan_record, too_long)
    with pytest.raises(EvidenceRejected, match=r"completed_at: longer than 64"):
        observe_receipt(plan_record, make.receipt(plan_record, completed_at="t" * 65))
    with pytest.raises(EvidenceRejected, match=r"decision\.reason: longer than 2048"):
        admit(plan_record, make.receipt(plan_record), make.decision(reason="r" * 2049))
    assert admit(plan_record, make.receipt(plan_record), make.decision(reason="r" * 2048))


def test_unavailable_reason_limit(make):
    assert discover([make.provider(ready=False, unavailable_reason="r" * 512)])
    with pytest.raises(EvidenceRejected, match=r"unavailable_reason: longer than 512"):
        discover([make.provider(ready=False, unavailable_reason="r" * 513)])


# ---- JavaScript trim, not Python strip ----------------------------------------------


@pytest.mark.parametrize("text", ["\u0085", "\u200b", "\u001c", "\u001f", "\u180e"])
def test_characters_javascript_keeps_are_not_blank(make, text):
    record = _plan_with(make, objective=text)
    assert record["request"]["objective"] == text


@pytest.mark.parametrize("text", ["", " ", "\u00a0", "\u3000\ufeff", "\u2028\u2029", "\t\n\v"])
def test_javascript_whitespace_only_is_blank(make, text):
    with pytest.raises(EvidenceRejected, match=r"request\.objective: must not be blank"):
        _plan_with(make, objective=text)


def test_trim_keeps_inner_whitespace_and_python_only_whitespace(make):
    record = _plan_with(make, objective="\u0085 a  b \u0085 ")
    assert record["request"]["objective"] == "\u0085 a  b \u0085"


def test_non_ascii_text_is_hashed_as_utf8_not_escaped(make):
    request = make.request(objective="Évaluer 中文 😀", decision="Ja/Nein")
    record = plan(request, make.providers())
    normalized = {k: v for k, v in record["request"].items() if k != "request_id"}
    assert record["request"]["request_id"] == digest(normalized)
    assert normalized["objective"] == "Évaluer 中文 😀"


def test_a_lone_surrogate_is_accepted_and_hashed_like_javascript(make):
    record = _plan_with(make, objective="broken \ud800 pair")
    assert record["request"]["objective"] == "broken \ud800 pair"


# ---- absent, empty and null ---------------------------------------------------------


def test_absent_constraints_equal_an_empty_list(make):
    absent = _plan_with(make, constraints=...)
    empty = _plan_with(make, constraints=[])
    assert absent == empty
    assert absent["request"]["constraints"] == []


def test_empty_search_terms_differ_from_absent(make):
    absent = _plan_with(make, search_terms=...)
    empty = _plan_with(make, search_terms=[])
    assert "search_terms" not in absent["request"]
    assert empty["request"]["search_terms"] == []
    assert absent["request"]["request_id"] != empty["request"]["request_id"]


def test_absent_source_refs_are_omitted(make):
    record = _plan_with(make, source_refs=...)
    assert "source_refs" not in record["request"]


def test_absent_nullable_fields_are_written_as_null(make):
    row = make.provider()
    del row["unavailable_reason"]
    assert discover([row])["providers"][0]["unavailable_reason"] is None
    plan_record = make.plan()
    source = make.source(limitation=..., publication_date=...)
    receipt = make.receipt(plan_record, sources=[source], limitations=...)
    normalized = observe_receipt(plan_record, receipt)["receipt"]
    assert normalized["sources"][0]["limitation"] is None
    assert normalized["sources"][0]["publication_date"] is None
    assert normalized["limitations"] == []
    explicit = make.receipt(
        plan_record, sources=[make.source(limitation=None, publication_date=None)], limitations=[]
    )
    assert observe_receipt(plan_record, explicit)["receipt"] == normalized


def test_a_provider_that_is_not_ready_must_say_why(make):
    with pytest.raises(EvidenceRejected, match=r"unavailable_reason: required when ready"):
        discover([make.provider(ready=False, unavailable_reason=None)])


def test_null_where_text_is_required_is_rejected(make):
    with pytest.raises(EvidenceRejected, match=r"request\.objective: expected str, got null"):
        _plan_with(make, objective=None)


# ---- ids: re-derived ids are trimmed, echoed ids and vocabulary are exact -----------


def test_padded_provider_ids_are_trimmed_in_inventories(make):
    record = discover([make.provider("  host:padded\t")])
    assert record["providers"][0]["provider_id"] == "host:padded"
    assert record["ready_provider_ids"] == ["host:padded"]


def test_a_padded_plan_id_in_a_plan_is_trimmed(make):
    plan_record = make.plan()
    receipt = make.receipt(plan_record)
    expected = observe_receipt(plan_record, receipt)
    assert observe_receipt(plan_record | {"plan_id": f" {plan_record['plan_id']}\n"}, receipt) == (
        expected
    )


@pytest.mark.parametrize("field", ["plan_id", "request_id", "provider_id", "provider_kind"])
def test_a_padded_echoed_id_in_a_receipt_is_rejected(make, field):
    plan_record = make.plan()
    receipt = make.receipt(plan_record)
    with pytest.raises(EvidenceRejected, match=rf"receipt\.{field}"):
        observe_receipt(plan_record, receipt | {field: f" {receipt[field]}"})


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("provider_candidates", 1, "provider_kind"), " method"),
        (("provider_candidates", 1, "protocol"), "external_evidence_research_v0 "),
        (("status",), "ready "),
        (("request", "request_id"), None),
        (("execution_envelope", "plan_id"), None),
    ],
)
def test_padded_vocabulary_and_exact_ids_in_a_plan_are_rejected(make, path, value):
    plan_record = make.plan()
    target = plan_record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value if value is not None else f" {target[path[-1]]}"
    with pytest.raises(EvidenceRejected, match=r"^plan"):
        observe_receipt(plan_record, make.receipt(make.plan()))


def test_padded_disposition_and_basis_are_rejected(make):
    plan_record = make.plan()
    receipt = make.receipt(plan_record)
    with pytest.raises(EvidenceRejected, match=r"decision\.disposition"):
        admit(plan_record, receipt, make.decision(disposition="admit "))
    with pytest.raises(EvidenceRejected, match=r"sources\[0\]\.basis"):
        observe_receipt(
            plan_record, make.receipt(plan_record, sources=[make.source(basis=" stated")])
        )


def test_a_padded_content_digest_is_trimmed_but_uppercase_hex_is_rejected(make):
    plan_record = make.plan()
    padded = make.source(content_digest=" sha256:" + "a" * 64 + " ")
    normalized = observe_receipt(plan_record, make.receipt(plan_record, sources=[padded]))
    assert normalized["receipt"]["sources"][0]["content_digest"] == "sha256:" + "a" * 64
    upper = make.source(content_digest="sha256:" + "A" * 64)
    with pytest.raises(EvidenceRejected, match=r"content_digest: must be a sha256"):
        observe_receipt(plan_record, make.receipt(plan_record, sources=[upper]))


@pytest.mark.parametrize("provider_id", ["a", "Host:x", "1host", "host x", "h" * 97, "hé"])
def test_provider_id_pattern(make, provider_id):
    with pytest.raises(EvidenceRejected, match=r"providers\[0\]\.provider_id"):
        discover([make.provider(provider_id)])


# ---- duplicates after trimming ------------------------------------------------------


def test_duplicate_request_source_refs_after_trimming_are_rejected(make):
    with pytest.raises(EvidenceRejected, match=r"request\.source_refs\[1\]: duplicate item"):
        _plan_with(make, source_refs=[make.source_a, f"\u00a0{make.source_a} "])


def test_duplicate_receipt_sources_after_trimming_are_rejected(make):
    plan_record = make.plan()
    sources = [make.source(make.source_a), make.source(f" {make.source_a}\t")]
    with pytest.raises(EvidenceRejected, match=r"sources\[1\]\.source_ref: duplicate"):
        observe_receipt(plan_record, make.receipt(plan_record, sources=sources))


def test_duplicate_admitted_refs_after_trimming_are_rejected(make):
    plan_record = make.plan()
    decision = make.decision(refs=[make.source_a, f"  {make.source_a}"])
    with pytest.raises(EvidenceRejected, match=r"admitted_source_refs\[1\]: duplicate item"):
        admit(plan_record, make.receipt(plan_record), decision)


def test_duplicate_provider_ids_after_trimming_are_rejected(make):
    with pytest.raises(EvidenceRejected, match=r"providers\[1\]\.provider_id: duplicate"):
        discover([make.provider("host:a"), make.provider(" host:a ")])


def test_duplicate_evidence_kinds_and_terms_are_kept_as_given(make):
    record = _plan_with(make, evidence_kinds=["k", " k"], search_terms=["t", "t"])
    assert record["request"]["evidence_kinds"] == ["k", "k"]
    assert record["request"]["search_terms"] == ["t", "t"]


def test_too_many_providers(make):
    rows = [make.provider(f"host:p{index}") for index in range(65)]
    with pytest.raises(EvidenceRejected, match="providers: more than 64 providers"):
        discover(rows)
    assert discover(rows[:64])["summary"]["provider_count"] == 64
