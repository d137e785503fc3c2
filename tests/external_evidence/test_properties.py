# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Properties: single-leaf edits fail closed, steps are deterministic, trimming keeps ids."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loopx_recall_core.canonical import js_trim
from loopx_recall_core.external_evidence import (
    EvidenceRejected,
    admit,
    discover,
    observe_receipt,
    plan,
    retire,
)

PROPERTY_SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

# What JavaScript's trim removes, and characters it keeps although they look blank.
JS_WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
NOT_TRIMMED = "\u0085\u200b\u001c\u001f"
TEXT_ALPHABET = "abcXYZ019 .,-_é中😀" + "\u00a0\u3000\u0085\u200b"

padding = st.text(alphabet=JS_WHITESPACE, min_size=1, max_size=3)


def texts(max_size: int = 24) -> st.SearchStrategy[str]:
    return st.text(alphabet=TEXT_ALPHABET, min_size=1, max_size=max_size).filter(
        lambda value: js_trim(value) != ""
    )


provider_ids = st.builds(
    lambda first, rest: first + rest,
    st.sampled_from("abcxyz"),
    st.text(alphabet="abz019_.:-", min_size=1, max_size=10),
)
uris = st.builds(
    lambda scheme, rest: f"{scheme}{rest}",
    st.sampled_from(["https://", "http://", "urn:", "s3://", "git+ssh://"]),
    st.text(alphabet="abcdef0123/.-é", min_size=1, max_size=12),
)


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    request: dict[str, Any] = {
        "objective": draw(texts()),
        "user_activity": draw(texts()),
        "decision": draw(texts()),
        "evidence_kinds": draw(st.lists(texts(8), min_size=1, max_size=3)),
    }
    if draw(st.booleans()):
        request["constraints"] = draw(st.lists(texts(8), max_size=3))
    if draw(st.booleans()):
        request["source_refs"] = draw(st.lists(uris, min_size=1, max_size=3, unique=True))
    if draw(st.booleans()):
        request["search_terms"] = draw(st.lists(texts(8), max_size=3))
    return request


@st.composite
def provider_rows(draw: st.DrawFn) -> list[dict[str, Any]]:
    ids = draw(st.lists(provider_ids, min_size=1, max_size=4, unique=True))
    rows = []
    for provider_id in ids:
        ready = draw(st.booleans())
        flags = (
            {"declared": True, "installed": True, "enabled": True}
            if ready
            else {name: draw(st.booleans()) for name in ("declared", "installed", "enabled")}
        )
        reason = draw(st.none() | texts(12)) if ready else draw(texts(12))
        rows.append(
            {
                "provider_id": provider_id,
                "provider_kind": draw(st.sampled_from(["method", "connector"])),
                "protocol": "external_evidence_research_v0",
                **flags,
                "ready": ready,
                "unavailable_reason": reason,
            }
        )
    rows[draw(st.integers(0, len(rows) - 1))].update(
        declared=True, installed=True, enabled=True, ready=True
    )
    return rows


@st.composite
def receipt_sources(draw: st.DrawFn) -> list[dict[str, Any]]:
    refs = draw(st.lists(uris, min_size=1, max_size=3, unique_by=js_trim))
    return [
        {
            "source_ref": ref,
            "source_family": draw(texts(10)),
            "basis": draw(st.sampled_from(["stated", "observed", "tested", "inferred"])),
            "finding": draw(texts()),
            "limitation": draw(st.none() | texts(10)),
            "publication_date": draw(st.none() | texts(10)),
            "accessed_at": draw(texts(10)),
            "content_digest": "sha256:" + draw(st.sampled_from("0123456789abcdef")) * 64,
        }
        for ref in refs
    ]


@st.composite
def lifecycles(draw: st.DrawFn) -> dict[str, Any]:
    """A valid plan, receipt, decision and admission built from generated inputs."""
    request = draw(requests())
    rows = draw(provider_rows())
    plan_record = plan(request, rows)
    selected = plan_record["selected_provider"]
    sources = draw(receipt_sources())
    receipt = {
        "schema_version": "loopx_external_evidence_receipt_v0",
        "plan_id": plan_record["plan_id"],
        "request_id": plan_record["request"]["request_id"],
        "provider_id": selected["provider_id"],
        "provider_kind": selected["provider_kind"],
        "status": "succeeded",
        "sources": sources,
        "summary": draw(texts()),
        "completed_at": draw(texts(10)),
    }
    if draw(st.booleans()):
        receipt["limitations"] = draw(st.lists(texts(10), max_size=2))
    refs = [source["source_ref"] for source in sources]
    admitted = draw(st.lists(st.sampled_from(refs), min_size=1, unique_by=js_trim))
    decision = {"disposition": "admit", "reason": draw(texts()), "admitted_source_refs": admitted}
    return {
        "request": request,
        "providers": rows,
        "plan": plan_record,
        "receipt": receipt,
        "decision": decision,
        "admission": admit(plan_record, receipt, decision),
    }


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict) and value:
        return [leaf for key, item in value.items() for leaf in leaves(item, (*path, key))]
    if isinstance(value, list) and value:
        return [leaf for index, item in enumerate(value) for leaf in leaves(item, (*path, index))]
    return [(path, value)]


def with_leaf(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    copied = copy.deepcopy(value)
    target = copied
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return copied


def changed(old: Any, how: int) -> Any:
    """A different value for a leaf: different even after trimming."""
    if isinstance(old, bool):
        return not old
    if isinstance(old, str):
        return [old + "x", "x" + old, old[:-1] + ("y" if old[-1:] != "y" else "z")][how % 3]
    if old is None:
        return "x"
    if old == []:
        return ["x"]
    if old == {}:
        return {"x": 1}
    raise AssertionError(f"unexpected leaf {type(old).__name__}")


def pick_leaf(data: st.DataObject, record: Any) -> tuple[tuple[Any, ...], Any]:
    return data.draw(st.sampled_from(leaves(record)), label="leaf")


# ---- changing any single leaf makes the next step fail closed -----------------------


@PROPERTY_SETTINGS
@given(lifecycle=lifecycles(), data=st.data(), how=st.integers(0, 2))
def test_any_single_plan_leaf_change_fails_the_receipt_and_admission(lifecycle, data, how):
    path, old = pick_leaf(data, lifecycle["plan"])
    mutated = with_leaf(lifecycle["plan"], path, changed(old, how))
    with pytest.raises(EvidenceRejected):
        observe_receipt(mutated, lifecycle["receipt"])
    with pytest.raises(EvidenceRejected):
        admit(mutated, lifecycle["receipt"], lifecycle["decision"])


@PROPERTY_SETTINGS
@given(lifecycle=lifecycles(), data=st.data(), how=st.integers(0, 2))
def test_any_single_admission_leaf_change_fails_retirement(lifecycle, data, how):
    path, old = pick_leaf(data, lifecycle["admission"])
    mutated = with_leaf(lifecycle["admission"], path, changed(old, how))
    with pytest.raises(EvidenceRejected):
        retire(mutated)


BINDING_LEAVES = {"schema_version", "plan_id", "request_id", "provider_id", "provider_kind"}


@PROPERTY_SETTINGS
@given(lifecycle=lifecycles(), data=st.data(), how=st.integers(0, 2))
def test_any_single_receipt_leaf_change_fails_closed_or_changes_every_bound_id(
    lifecycle, data, how
):
    # A receipt is caller-presented and has no id of its own: editing its binding
    # fields fails closed; editing anything else yields a different receipt digest, so
    # the observation and every admission made from it differ from the original's.
    plan_record, receipt = lifecycle["plan"], lifecycle["receipt"]
    path, old = pick_leaf(data, receipt)
    mutated = with_leaf(receipt, path, changed(old, how))
    original = observe_receipt(plan_record, receipt)
    try:
        observation = observe_receipt(plan_record, mutated)
    except EvidenceRejected:
        return
    assert path[0] not in BINDING_LEAVES | {"status"}
    assert observation["receipt_observation_id"] != original["receipt_observation_id"]
    try:
        admission = admit(plan_record, mutated, lifecycle["decision"])
    except EvidenceRejected:
        return
    assert admission["receipt_digest"] != lifecycle["admission"]["receipt_digest"]
    assert admission["admission_id"] != lifecycle["admission"]["admission_id"]


@pytest.mark.parametrize("field", sorted(BINDING_LEAVES))
def test_editing_a_receipt_binding_field_always_fails(make, field):
    plan_record = make.plan()
    receipt = make.receipt(plan_record)
    with pytest.raises(EvidenceRejected, match=rf"receipt\.{field}"):
        observe_receipt(plan_record, receipt | {field: changed(receipt[field], 0)})


# ---- re-running a step on its own output is deterministic ---------------------------


@PROPERTY_SETTINGS
@given(lifecycle=lifecycles())
def test_each_step_reproduces_itself_from_its_own_output(lifecycle):
    plan_record = lifecycle["plan"]
    discovery = discover(lifecycle["providers"])
    assert discover(discovery["providers"]) == discovery
    assert discover(lifecycle["providers"]) == discovery

    preferred = plan_record["selected_provider"]["provider_id"]
    assert plan(plan_record["request"], plan_record["provider_candidates"], preferred) == (
        plan_record
    )
    assert plan(lifecycle["request"], lifecycle["providers"]) == plan_record

    observation = observe_receipt(plan_record, lifecycle["receipt"])
    assert observe_receipt(plan_record, observation["receipt"]) == observation

    admission = lifecycle["admission"]
    decision = {
        "disposition": admission["disposition"],
        "reason": admission["reason"],
        "admitted_source_refs": admission["admitted_source_refs"],
    }
    assert admit(plan_record, observation["receipt"], decision) == admission
    assert admit(plan_record, lifecycle["receipt"], lifecycle["decision"]) == admission

    refs = admission["admitted_source_refs"]
    assert retire(admission, refs) == retire(admission, refs)
    assert retire(admission, refs)["retire_ready"] is True
    assert retire(admission)["retire_ready"] is False


# ---- trimming-only edits keep every id ----------------------------------------------


def pad_texts(value: Any, pad: str, skip: frozenset[str] = frozenset()) -> Any:
    """Pad every string leaf (except under ``skip`` keys) with JavaScript whitespace."""
    if isinstance(value, dict):
        return {
            key: item if key in skip else pad_texts(item, pad, skip) for key, item in value.items()
        }
    if isinstance(value, list):
        return [pad_texts(item, pad, skip) for item in value]
    if isinstance(value, str):
        return pad + value + pad[::-1]
    return value


# Vocabulary values and echoed ids are compared exactly; everything else is trimmed.
VOCABULARY = frozenset(
    {
        "schema_version",
        "provider_kind",
        "protocol",
        "status",
        "receipt_status",
        "basis",
        "disposition",
    }
)
RECEIPT_EXACT = VOCABULARY | {"plan_id", "request_id", "provider_id"}


@PROPERTY_SETTINGS
@given(lifecycle=lifecycles(), pad=padding)
def test_trimming_only_edits_keep_every_id(lifecycle, pad):
    plan_record, admission = lifecycle["plan"], lifecycle["admission"]
    observation = observe_receipt(plan_record, lifecycle["receipt"])

    padded_request = pad_texts(lifecycle["request"], pad)
    padded_rows = pad_texts(lifecycle["providers"], pad, VOCABULARY)
    assert plan(padded_request, padded_rows) == plan_record
    preferred = pad + plan_record["selected_provider"]["provider_id"] + pad
    assert plan(padded_request, padded_rows, preferred)["plan_id"] == plan_record["plan_id"]

    padded_plan = dict(plan_record)
    padded_plan["request"] = pad_texts(plan_record["request"], pad, VOCABULARY | {"request_id"})
    padded_plan["provider_candidates"] = padded_rows
    padded_plan["selected_provider"] = pad_texts(plan_record["selected_provider"], pad, VOCABULARY)
    padded_plan["plan_id"] = pad + plan_record["plan_id"] + pad
    padded_receipt = pad_texts(lifecycle["receipt"], pad, RECEIPT_EXACT)
    assert observe_receipt(padded_plan, padded_receipt) == observation

    padded_decision = pad_texts(lifecycle["decision"], pad, VOCABULARY)
    assert admit(padded_plan, padded_receipt, padded_decision) == admission

    padded_admission = pad_texts(admission, pad, VOCABULARY | {"downstream_projection"})
    padded_admission["downstream_projection"] = pad_texts(
        admission["downstream_projection"], pad, VOCABULARY | {"plan_id", "request_id"}
    )
    refs = pad_texts(admission["admitted_source_refs"], pad)
    assert retire(padded_admission, refs) == retire(admission, admission["admitted_source_refs"])


@PROPERTY_SETTINGS
@given(
    request=requests(),
    rows=provider_rows(),
    pad=st.text(alphabet=NOT_TRIMMED, min_size=1, max_size=2),
)
def test_characters_javascript_does_not_trim_change_the_id(request, rows, pad):
    original = plan(request, rows)
    edited = dict(request, objective=pad + request["objective"])
    assert plan(edited, rows)["request"]["request_id"] != original["request"]["request_id"]


# ---- the same, exhaustively, for one fixed lifecycle --------------------------------


@pytest.mark.parametrize("how", [0, 1, 2])
def test_every_plan_and_admission_leaf_is_covered_by_its_identity(make, how):
    plan_record, receipt, _, admission = make.lifecycle()
    decision = make.decision()
    for path, old in leaves(plan_record):
        mutated = with_leaf(plan_record, path, changed(old, how))
        with pytest.raises(EvidenceRejected):
            admit(mutated, receipt, decision)
    for path, old in leaves(admission):
        with pytest.raises(EvidenceRejected):
            retire(with_leaf(admission, path, changed(old, how)))
