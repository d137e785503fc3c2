# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The redactor on its own: every canary kind is caught (none of its secret survives, not
even a 12-character piece), ordinary build output is left alone, redaction is idempotent,
and a capped snippet never grows past its cap."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loopx_recall_core.qualification.canaries import ordinary_lines, secret_canaries
from loopx_recall_core.redaction import KINDS, RULES, redact, redact_snippet

CANARIES = secret_canaries()
ORDINARY = ordinary_lines()
MARKER = re.compile(r"\[redacted:([a-z_]+)\]")


def test_the_corpus_is_large_and_covers_every_kind():
    assert len(CANARIES) >= 40
    assert {c.kind for c in CANARIES} == set(KINDS)
    assert secret_canaries() == CANARIES  # fixed seed: the same corpus every run
    assert len({c.secret for c in CANARIES}) == len(CANARIES)


def test_every_rule_names_its_source():
    assert all(len(rule.source) > 20 for rule in RULES)


@pytest.mark.parametrize("canary", CANARIES, ids=[f"{c.kind}-{i}" for i, c in enumerate(CANARIES)])
def test_each_canary_is_redacted_by_its_kind(canary):
    assert canary.secret in canary.text
    redacted = redact(canary.text)
    assert [f for f in canary.fragments() if f in redacted] == []
    assert f"[redacted:{canary.kind}]" in redacted


def test_all_canaries_in_one_transcript_leave_nothing():
    text = "\n".join(c.text for c in CANARIES)
    redacted = redact(text)
    leaked = [c.kind for c in CANARIES if any(f in redacted for f in c.fragments())]
    assert leaked == []
    assert len(MARKER.findall(redacted)) >= len(CANARIES)


def test_ordinary_build_output_is_not_redacted():
    assert len(ORDINARY) >= 1000
    changed = [line for line in ORDINARY if redact(line) != line]
    # the false-redaction rate over the corpus: 0 of 1,000 lines
    assert changed == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("git clone https://bob:Pa55word9x@git.example.com/r.git", "https://bob:"),
        ("git clone https://bob:Pa55word9x@git.example.com/r.git", "@git.example.com/r.git"),
        ('curl -H "Authorization: Bearer Ab3De5Gh7Jk9Mn1Pq3St"', "Authorization: Bearer "),
        ("DB_PASSWORD=Hunter2Hunter2 make migrate", "DB_PASSWORD="),
        ("DB_PASSWORD=Hunter2Hunter2 make migrate", " make migrate"),
    ],
)
def test_the_context_around_a_secret_is_kept(text, kept):
    assert kept in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "max_tokens=4096",
        "token_type: bearer",
        "cache_key: node-cache-Linux-x64-npm-0f3a",
        "primary_key: id",
        "password: ${DB_PASSWORD}",
        "api_key: <your-api-key>",
        "GITHUB_TOKEN=***",
        "secret_name: app-tls",
        "password_reset_url: https://example.com/reset",
        "sk-learn and scikit-learn-intelex-2024.7.0",
    ],
)
def test_names_and_values_that_are_not_secrets_stay(text):
    assert redact(text) == text


_TEXT = st.lists(
    st.one_of(st.sampled_from([c.text for c in CANARIES]), st.sampled_from(ORDINARY[:40]),
              st.text(max_size=40)),
    max_size=8,
).map("\n".join)


@settings(max_examples=150, deadline=None)
@given(_TEXT)
def test_redaction_is_idempotent(text):
    once = redact(text)
    assert redact(once) == once


@settings(max_examples=200, deadline=None)
@given(_TEXT, st.integers(min_value=0, max_value=400))
def test_a_capped_snippet_never_grows_past_its_cap(text, limit):
    text = text[:limit]
    capped = redact_snippet(text, limit)
    assert len(capped) <= limit
    assert redact(capped) == capped
    # no piece of a marker is left dangling at the cut
    assert not re.search(r"\[redacted:[a-z_]*\Z", capped.removesuffix("…"))


def test_a_marker_longer_than_its_secret_is_trimmed_to_the_cap():
    password = "pw9Xq2ab"  # short: "[redacted:url_password]" is longer
    text = f"Bash: git clone https://u:{password}@h/r.git\noutcome: failed\nfatal: denied"
    assert len(redact(text)) > len(text)
    capped = redact_snippet(text, len(text))
    assert len(capped) == len(text)
    assert password not in capped
    assert capped.startswith("Bash: git clone https://u:[redacted:url_password]@h/r.git\n")


def test_a_cut_header_ends_with_the_cut_mark():
    text = "Bash: git clone https://u:pw9Xq2ab@host/r.git"
    capped = redact_snippet(text, len(text))
    assert capped.endswith("…")
    assert len(capped) <= len(text)
    assert "pw9Xq2ab" not in capped
