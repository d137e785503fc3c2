# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``cli/`` parses, calls one library function and renders.

Its failures are click exceptions with fixed exit codes and one-line messages; the
provider is never Obelisk by default (the one enabled is used; several is one line and
exit 1; none enabled is the typed ``not_enabled`` refusal); the library never imports
``cli/``.
"""

from __future__ import annotations

import ast
import importlib
import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from loopx_recall_core import hookimpl
from loopx_recall_core.cli import cli
from loopx_recall_core.cli._common import (
    Command,
    EnvironmentProblem,
    EvidenceError,
    Rejected,
)
from loopx_recall_core.plugin import distributions as provider_distributions
from loopx_recall_core.plugin.manager import PluginHost, ProviderNotChosen
from loopx_recall_core.private_files import StateError
from loopx_recall_core.qualification.harness import qualifiable_provider
from loopx_recall_core.state import DEFAULT_CEILINGS, Enablement, LimitCeilings, StateStore
from tests.state_builders import enablement, seed

from ..fake_provider import FakeProvider, host_with

PACKAGE = Path(importlib.import_module("loopx_recall_core").__file__).parent
# the operator commands load the plugins in the library, not in cli/
recall_lib = importlib.import_module("loopx_recall_core.operator_requests")


# ---- the failure classes ------------------------------------------------------------------


def _raising(exc: Exception) -> click.Command:
    def callback() -> None:
        raise exc

    return Command("probe", callback=callback)


@pytest.mark.parametrize(
    ("exc", "code"),
    [
        (Rejected("the input is refused"), 1),
        (EnvironmentProblem("pip is not available"), 2),
        # a library call that met an unusable state folder: the owner's environment
        (StateError("the state folder is not usable"), 2),
    ],
)
def test_each_failure_is_one_line_on_stderr_with_its_exit_code(exc, code):
    result = CliRunner().invoke(_raising(exc), [])
    assert result.exit_code == code
    assert result.stdout == ""
    assert result.stderr == f"error: {exc}\n"
    assert "Traceback" not in result.output


def test_the_external_evidence_error_prints_the_contract_record_on_stdout():
    result = CliRunner().invoke(_raising(EvidenceError("--plan-json: must hold a JSON object")))
    assert result.exit_code == 1
    assert result.stderr == ""
    assert json.loads(result.stdout) == {
        "ok": False,
        "schema_version": "loopx_external_evidence_error_v0",
        "status": "invalid_request",
        "error": "--plan-json: must hold a JSON object",
    }


def test_an_external_evidence_command_turns_an_input_rejection_into_the_record():
    args = ["external-evidence", "retire", "--admission-json", "-"]
    result = CliRunner().invoke(cli, args, input="[1]")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"] == "--admission-json: must hold a JSON object"
    assert result.stderr == ""


# ---- --provider: the one enabled, else the one installed; never a named default ------------


def _enablement(provider_id: str) -> Enablement:
    return enablement(
        provider_id, binding={"repository_id": "repo-r", "history_sources": ["codex"]}
    )


def _plugin(provider: FakeProvider) -> object:
    class Plugin:
        @hookimpl
        def loopx_recall_providers(self) -> list[FakeProvider]:
            return [provider]

    return Plugin()


def _host(*providers: FakeProvider) -> PluginHost:
    host = PluginHost()
    for index, provider in enumerate(providers):
        host.register(_plugin(provider), distribution=f"dist-{index}")
    return host


def _fake(provider_id: str) -> FakeProvider:
    fake = FakeProvider()
    fake.provider_id = provider_id
    return fake


HISTORY = ["recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j",
           "--term", "pytest", "--format", "json"]  # fmt: skip


def _history(monkeypatch, host: PluginHost, enabled: tuple[str, ...] = ()):
    monkeypatch.setattr(recall_lib, "load_host", lambda *a, **k: host)
    if enabled:
        seed(*(_enablement(p) for p in enabled))
    return CliRunner().invoke(cli, HISTORY)


def _refused_not_enabled(result) -> None:
    # nothing enabled here: a typed refusal (exit 0) whatever is installed, as before a
    # provider had to be chosen; the receipt names the v0 wire's provider id
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["status"], data["reason"]) == ("refused", "not_enabled")
    assert data["receipt"]["provider_id"] == "obelisk-session-evidence"


def test_history_with_no_provider_at_all_is_a_typed_refusal(monkeypatch, loopx_home):
    _refused_not_enabled(_history(monkeypatch, PluginHost()))


def test_history_uses_the_one_installed_provider_when_none_is_enabled(monkeypatch, loopx_home):
    fake = _fake("obelisk-session-evidence")
    result = _history(monkeypatch, host_with(fake))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["status"], data["reason"]) == ("refused", "not_enabled")


def test_history_with_several_installed_and_none_enabled_is_a_typed_refusal(
    monkeypatch, loopx_home
):
    one, two = _fake("provider-one"), _fake("provider-two")
    _refused_not_enabled(_history(monkeypatch, _host(one, two)))
    assert (one.calls, two.calls) == (0, 0)


def test_history_uses_the_one_enabled_provider_among_several(monkeypatch, loopx_home):
    one, two = _fake("provider-one"), _fake("provider-two")
    result = _history(monkeypatch, _host(one, two), enabled=("provider-two",))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["receipt"]["provider_id"] == "provider-two"
    assert (one.calls, two.calls) == (0, 1)


def test_history_with_several_enabled_is_exit_1(monkeypatch, loopx_home):
    host = _host(_fake("provider-one"), _fake("provider-two"))
    result = _history(monkeypatch, host, enabled=("provider-one", "provider-two"))
    assert result.exit_code == 1
    assert result.stderr == (
        "error: several recall providers are enabled here (2): name one with --provider\n"
    )


def test_replan_resolves_the_provider_the_same_way(monkeypatch, loopx_home):
    monkeypatch.setattr(recall_lib, "load_host", lambda *a, **k: PluginHost())
    args = ["recall", "replan", "--proposed-command", "make", "--agent-id", "agent-a",
            "--project-id", "proj-j"]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "refused (not_enabled)" in result.stdout


class _Qualifiable(FakeProvider):
    def qualification_runtime(self, home):  # pragma: no cover - never run here
        raise NotImplementedError


def test_qualify_picks_the_one_provider_that_offers_qualification():
    plain, able = _fake("plain-provider"), _Qualifiable()
    able.provider_id = "able-provider"
    assert qualifiable_provider(_host(plain, able))[0] == "able-provider"
    with pytest.raises(ProviderNotChosen, match="no installed recall provider offers"):
        qualifiable_provider(_host(plain))
    other = _Qualifiable()
    other.provider_id = "other-provider"
    with pytest.raises(ProviderNotChosen, match=r"several .* \(2\): name one with --provider"):
        qualifiable_provider(_host(able, other))


def test_qualify_without_a_qualifiable_provider_is_one_line_exit_2(monkeypatch, loopx_home):
    # nothing to qualify is a missing provider: exit 2, as the command's help says
    monkeypatch.setenv("LOOPX_RECALL_LOAD_PLUGINS", "")
    result = CliRunner().invoke(cli, ["recall", "qualify", "--report", str(loopx_home / "r")])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: no installed recall provider offers qualification: install one "
        "(`loopx-recall extension list --available` shows how), then run this again\n"
    )


# ---- the catalogue is data; the library never imports cli/ ----------------------------------


def test_the_catalogue_is_read_from_package_data():
    (known,) = provider_distributions.catalogue()
    assert (PACKAGE / "plugin" / "catalogue.json").is_file()
    assert known.install_command.startswith("loopx-recall extension install ")


def _imports(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_no_library_module_imports_the_cli():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] == "cli" or relative.name in ("__main__.py", "testing.py"):
            # __main__ is `python -m`: the command line's own entry point; testing is the
            # plugin tests' door to the host (the CLI included), imported by no library module
            continue
        for name in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if name == "loopx_recall_core.cli" or name.startswith("loopx_recall_core.cli."):
                offenders.append(f"{relative}: {name}")
    assert offenders == []


def test_enabling_with_an_option_the_provider_does_not_declare_is_refused(tmp_path):
    """The library answer the Stage 0 probe ``unknown_enable_option`` checks (the command
    line's parser knows only the declared options, so it cannot pass one)."""
    from loopx_recall_core.recall.enablement import CapabilityRefused, enable

    store = StateStore(tmp_path / "state")
    with pytest.raises(CapabilityRefused, match="an option the provider does not declare"):
        enable(
            store,
            FakeProvider(),
            provider_id="obelisk-session-evidence",
            surface="replan-history",
            agent_id="agent-a",
            project_id="proj-j",
            stage=1,
            limits=LimitCeilings(**DEFAULT_CEILINGS),
            provider_options={"history_source": ("codex",), "not_declared": "CANARY-OPTION"},
            repository_id="repo-r",
            cwd=str(tmp_path),
        )
    assert not (tmp_path / "state" / "state.json").exists()


# ---- issue 23 item 3: commands parse, make one library call and render ----------------------


def _function(module: str, name: str) -> ast.FunctionDef:
    tree = ast.parse((PACKAGE / "cli" / f"{module}.py").read_text(encoding="utf-8"))
    (found,) = (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)
    return found


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
    }


#: What only the library does: read the owner's state or key, load plugins, check a result
#: against its request, write reports or verdicts.
LIBRARY_WORK = {
    "StateStore", "PrivateStore", "load_host", "receipt_key", "result_problems",
    "result_receipt", "record_verdict", "write_report", "check_report_folder",
    "qualifiable_provider", "run_qualification", "check_writable",
}  # fmt: skip


@pytest.mark.parametrize(
    ("module", "command", "library_call"),
    [
        ("recall", "receipt", "owner_receipt"),
        ("recall", "history", "history"),
        ("recall", "replan_command", "replan"),
        ("qualify", "qualify", "run"),
        ("session", "_listing", "sessions_on_disk"),
        ("capability", "status", "status_record"),
        ("_fast", "_status", "status_record"),
        ("extension", "list_extensions", "extension_list"),
    ],
)
def test_a_command_makes_one_library_call_and_hands_down_no_state_or_plugins(
    module, command, library_call
):
    function = _function(module, command)
    assert LIBRARY_WORK.isdisjoint(_names(function)), LIBRARY_WORK & _names(function)
    assert library_call in _names(function)


def test_group_help_is_written_once():
    # the group table is the one source of the groups' help, the root --help listing and
    # the fast path's root help: no module of cli/ but the table spells a group's line
    from loopx_recall_core.cli import GROUP_HELP

    for name, line in GROUP_HELP.items():
        holders = [
            path.name
            for path in sorted((PACKAGE / "cli").glob("*.py"))
            if line in " ".join(path.read_text(encoding="utf-8").split())
        ]
        assert holders == ["_groups.py"], (name, holders)


def test_the_shared_options_are_the_same_everywhere():
    from loopx_recall_core.cli.capability import enable
    from loopx_recall_core.cli.recall import history, replan_command

    def options(command, prefix):
        return [p.opts for p in command.params if p.opts[0].startswith(prefix)]

    limits = [["--max-sessions"], ["--max-items"], ["--max-snippet-chars"], ["--max-total-chars"]]
    assert options(history, "--max-") == options(enable, "--max-") == limits
    timeouts = [p for c in (history, replan_command) for p in c.params if p.name == "timeout"]
    assert len({(type(p.type), p.default, p.help) for p in timeouts}) == 1
