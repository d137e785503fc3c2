# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""A field name we do not know may be private text (a token pasted as a
key, a term): `recall validate` and both LoopX provider protocols show it as ``[<key>]``,
never echoed. A plain field name (``[a-z_][a-z0-9_]*``, the shape of every key our
records have) is still named, as the strict JSON reader names it (``jsonio``)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from tests.loopx_protocol.test_loopx_extension import (
    _one_object,
    _provider,
    decision_request,
    loopx_request,
)

KEYS = ["ghp_kT9vQ2mXw4Lp7RzB1nC8yH3dF6gJ0sA5eU2i", "Password=Hunter2!", "codex:thread-7"]


@pytest.mark.parametrize("key", KEYS)
def test_recall_validate_never_echoes_an_unknown_key(tmp_path, request_data, key, monkeypatch):
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", "")
    path = tmp_path / "r.json"
    path.write_text(json.dumps({**request_data, key: 1}))
    for fmt in ("text", "json"):
        done = CliRunner().invoke(cli, ["recall", "validate", "request", str(path),
                                        "--format", fmt])
        assert done.exit_code == 1
        assert key not in done.output
        assert "unknown field [<key>]" in done.output


def test_a_plain_unknown_field_name_is_still_named(tmp_path, request_data):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({**request_data, "max_tokens": 1}))
    done = CliRunner().invoke(cli, ["recall", "validate", "request", str(path)])
    assert "unknown field 'max_tokens'" in done.output


@pytest.mark.parametrize("key", KEYS)
def test_the_loopx_capability_protocol_never_echoes_an_unknown_key(loopx_home, key):
    for request in (
        {**loopx_request("history", {"agent_id": "a", "project_id": "p", "terms": ["x"]}), key: 1},
        loopx_request("history", {"agent_id": "a", "project_id": "p", "terms": ["x"], key: 1}),
    ):
        done = _provider("capability", stdin=json.dumps(request).encode())
        answer = _one_object(done)
        assert answer["reason_code"] == "invalid_request"
        assert key not in done.stdout.decode() + done.stderr.decode()
        assert "[<key>]" in answer["message"]


@pytest.mark.parametrize("key", KEYS)
def test_the_decision_context_protocol_never_echoes_an_unknown_key(loopx_home, key):
    request = decision_request("loopx-recall:agent/a/project/p", **{key: 1})
    done = _provider("decision-context", stdin=json.dumps(request).encode())
    answer = _one_object(done)
    assert answer["reason_code"] == "invalid_request"
    assert key not in done.stdout.decode() + done.stderr.decode()
    assert "[<key>]" in answer["message"]
