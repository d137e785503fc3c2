# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``nan``, ``inf`` and ``-inf`` are not numbers we accept.

``--timeout nan`` passed click's ``FloatRange(0.1, 300)`` (nan compares false with both
bounds) and the recall then failed as ``provider_failed``; ``1e999`` in a JSON input read
as ``inf``. Every float option of the CLI now has one type that refuses non-finite values
(a usage error, exit 2, as any other bad option value), and the one strict JSON reader
refuses them wherever they sit, naming the JSON path, never the value or a private key.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

import click
import pytest
from click.testing import CliRunner

from loopx_recall_core import jsonio
from loopx_recall_core.cli import _GROUPS, cli
from loopx_recall_core.cli._common import FiniteFloatRange

from ..conftest import REQUEST
from ..fake_provider import FakeProvider, host_with

# the operator commands load the plugins in the library, not in cli/
recall_lib = importlib.import_module("loopx_recall_core.operator_requests")

CANARY = "CANARY-TERM-16"
NON_FINITE = ["nan", "NaN", "inf", "-inf", "Infinity", "1e999"]

HISTORY = ["recall", "history", "--agent-id", "a", "--project-id", "p", "--term", "pytest"]
REPLAN = ["recall", "replan", "--proposed-command", "pytest"]
REPLAN += ["--agent-id", "a", "--project-id", "p"]


@pytest.fixture
def fake(monkeypatch, loopx_home):
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", "")
    provider = FakeProvider()
    monkeypatch.setattr(recall_lib, "load_host", lambda *a, **k: host_with(provider))
    return provider


def _invoke(args: list[str]) -> Any:
    result = CliRunner().invoke(cli, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output
    return result


@pytest.mark.parametrize("value", NON_FINITE)
@pytest.mark.parametrize("command", [HISTORY, REPLAN], ids=["history", "replan"])
def test_a_non_finite_timeout_is_a_usage_error(fake, command, value):
    result = _invoke([*command, "--timeout", value])
    # exit 2 and click's usage message, as `--timeout 0` (out of range) exits today
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--timeout': not a finite number" in result.stderr
    assert fake.calls == 0
    assert _invoke([*command, "--timeout", "0"]).exit_code == 2


def _all_commands() -> list[click.Command]:
    found: list[click.Command] = []
    pending: list[click.Command] = [
        getattr(importlib.import_module(module), attribute)
        for module, attribute in _GROUPS.values()
    ]
    while pending:
        command = pending.pop()
        found.append(command)
        if isinstance(command, click.Group):
            pending.extend(command.commands.values())
    return found


def test_every_float_option_refuses_non_finite_values():
    """The one shared type, not a check per command: a new float option fails here."""
    floats = {
        (command.name, param.name): param.type
        for command in _all_commands()
        for param in command.params
        if isinstance(param.type, click.types.FloatParamType)
    }
    assert {("history", "timeout"), ("replan", "timeout")} <= set(floats)
    for where, kind in floats.items():
        assert isinstance(kind, FiniteFloatRange), where


def test_the_option_type_keeps_finite_values_and_its_range():
    kind = FiniteFloatRange(0.1, 300)
    assert kind.convert("2.5", None, None) == 2.5
    for bad in ("nan", "inf", "-inf", "0", "301", "x"):
        with pytest.raises(click.BadParameter):
            kind.convert(bad, None, None)


# ---- the strict JSON reader ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("NaN", "$"),
        ('{"a": [1, 2, 1e999]}', "$.a[2]"),
        ('{"a": {"b": -Infinity}}', "$.a.b"),
        ('[{"x": 1}, {"limits": {"max_items": Infinity}}]', "$[1].limits.max_items"),
        ('{"ok": 1.5, "a": [-1e400]}', "$.a[0]"),
        # a key that is not a plain field name may be private: it is not repeated
        ('{"' + CANARY + '": [0, NaN]}', "$[<key>][1]"),
        ('{"Key With Space": NaN}', "$[<key>]"),
    ],
)
def test_the_json_reader_refuses_non_finite_numbers_by_path(text, path):
    with pytest.raises(jsonio.JsonInputError) as caught:
        jsonio.loads(text)
    message = str(caught.value)
    assert message == f"{path}: not a finite number"
    for value in ("NaN", "Infinity", "1e999", "1e400", "inf", CANARY):
        assert value not in message


def test_the_json_reader_keeps_finite_floats():
    assert jsonio.loads('{"a": [1.5, -2e-308, 1e308]}') == {"a": [1.5, -2e-308, 1e308]}


def test_a_non_finite_number_in_a_json_input_file_is_rejected(fake, tmp_path):
    request = json.loads(json.dumps(REQUEST))
    text = json.dumps(request).replace('"max_items": 4', '"max_items": 1e999')
    assert "1e999" in text
    bad = tmp_path / "request.json"
    bad.write_text(text, encoding="utf-8")
    result = _invoke(["recall", "validate", "request", str(bad)])
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines() == ["error: request: $.limits.max_items: not a finite number"]
    assert "1e999" not in result.output
    assert "inf" not in result.output


def test_a_non_finite_number_in_the_state_file_is_one_error(fake, loopx_home):
    loopx_home.mkdir(mode=0o700, parents=True, exist_ok=True)
    (loopx_home / "state.json").write_text(
        '{"schema_version": "loopx_state_v0", "enablements": [{"stage": NaN}]}'
    )
    result = _invoke(["capability", "status", "agent-turn-recall", "--provider", "x"])
    assert result.exit_code == 2, result.output
    assert "$.enablements[0].stage: not a finite number" in result.stderr
    assert "NaN" not in result.output
