# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loopx_recall_core.canonical import canonical_json, digest, is_digest, js_trim, utf16_len

VECTORS = json.loads(
    (Path(__file__).parents[2] / "providers" / "golden" / "digest-vectors.json").read_text(
        encoding="utf-8"
    )
)["vectors"]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_golden_vectors_match_javascript(vector):
    assert canonical_json(vector["value"]) == vector["canonical_json"]
    assert digest(vector["value"]) == vector["digest"]


def test_digest_form():
    assert is_digest(digest({"a": 1}))
    assert not is_digest("sha256:ABC")
    assert not is_digest("sha256:" + "0" * 63)
    assert not is_digest(None)


def test_floats_and_foreign_types_are_refused():
    with pytest.raises(TypeError):
        canonical_json({"a": 1.5})
    with pytest.raises(TypeError):
        canonical_json({1: "a"})
    with pytest.raises(TypeError):
        canonical_json(b"bytes")


@pytest.mark.parametrize(
    ("text", "trimmed"),
    [
        ("  a  ", "a"),
        ("\u0085", "\u0085"),
        ("\u200ba\u200b", "\u200ba\u200b"),
        ("\u001ca\u001f", "\u001ca\u001f"),
        ("\ufeff\u3000a\u2028\u2029\u00a0", "a"),
        ("\t\n\x0b\x0c\r a", "a"),
    ],
)
def test_js_trim_is_javascripts(text, trimmed):
    assert js_trim(text) == trimmed


def test_utf16_len_counts_astral_twice():
    assert utf16_len("🚀") == 2
    assert utf16_len("é東") == 2
    assert utf16_len("x\ud800") == 2


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-(2**31), 2**31) | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=20,
    )
)
def test_canonical_json_round_trips_and_is_utf8(value):
    text = canonical_json(value)
    text.encode("utf-8")
    assert canonical_json(json.loads(text)) == text
