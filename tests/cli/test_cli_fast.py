# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The click-free fast path (cli/_fast.py) answers exactly as click does (issue 14).

Each command line runs twice in a fresh interpreter: through ``main()`` (fast path first)
and through the click group alone. Standard output, standard error and the exit status
must be identical, and the fast run must not have imported click where the fast path is
meant to answer.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from loopx_recall_core.cli import cli
from loopx_recall_core.cli._fast import ROOT_HELP
from loopx_recall_core.state import Enablement, LimitCeilings, StateStore

FAST = """\
import sys
from loopx_recall_core.cli import main
prog, args = sys.argv[1], sys.argv[2:]
sys.argv = [prog, *args]
try:
    main(prog)
except SystemExit as exc:
    code = exc.code
else:
    code = 0
sys.stdout.flush()
sys.stderr.write("\\nCLICK=" + str("click" in sys.modules))
sys.exit(code)
"""

CLICK = """\
import sys
from loopx_recall_core.cli import cli
cli(args=sys.argv[2:], prog_name=sys.argv[1])
"""

STATUS = ["capability", "status", "agent-turn-recall"]
PROVIDER = ["--provider", "obelisk-session-evidence"]
NO_PLUGINS = {"LOOPX_RECALL_LOAD_PLUGINS": ""}

#: (command line, extra environment, whether the fast path answers it)
CASES = [
    (["--help"], {}, True),
    (["-h"], {}, True),
    ([], {}, True),
    (["--version"], {}, True),
    (["--help"], {"COLUMNS": "60"}, False),
    (["--version", "--help"], {}, False),
    ([*STATUS, *PROVIDER, "--format", "json"], NO_PLUGINS, True),
    ([*STATUS, *PROVIDER], NO_PLUGINS, True),
    ([*STATUS, *PROVIDER, "--format", "json"], {}, True),
    ([*STATUS, *PROVIDER, "--format", "text"], {}, True),
    ([*STATUS, "--provider=obelisk-session-evidence", "--format=json"], {}, True),
    (["capability", "status", *PROVIDER, "agent-turn-recall", "--format", "json"], {}, True),
    ([*STATUS, *PROVIDER, "--project-id", "proj-j"], {}, True),
    ([*STATUS, *PROVIDER, "--agent-id", "agent-b", "--format", "json"], {}, True),
    ([*STATUS, *PROVIDER, "--project-id=nope", "--agent-id=agent-a"], NO_PLUGINS, True),
    ([*STATUS, *PROVIDER, "--show-private"], {}, True),
    ([*STATUS, *PROVIDER, "--show-private", "--format", "json"], NO_PLUGINS, True),
    ([*STATUS, *PROVIDER, "--format", "text", "--format", "json"], NO_PLUGINS, True),
    ([*STATUS, "--provider", "no-such-provider", "--format", "json"], {}, True),
    ([*STATUS, "--provider", ""], NO_PLUGINS, True),
    ([*STATUS, *PROVIDER], {"LOOPX_RECALL_HOME": "relative/state"}, True),
    ([*STATUS, *PROVIDER, "--format", "json"], {"LOOPX_RECALL_HOME": "CORRUPT"}, True),
    # left to click: its usage errors, word for word
    (STATUS, {}, False),
    ([*STATUS, *PROVIDER, "--format", "yaml"], {}, False),
    ([*STATUS, "--provider"], {}, False),
    ([*STATUS, *PROVIDER, "--show-private=yes"], {}, False),
    ([*STATUS, *PROVIDER, "extra"], {}, False),
    ([*STATUS, *PROVIDER, "--bogus"], {}, False),
    ([*STATUS, *PROVIDER, "-h"], {}, False),
    (["capability", "status", "--help"], {}, False),
    (["capability", "status", "other-capability", *PROVIDER], {}, False),
    ([*STATUS, "--", *PROVIDER], {}, False),
    ([*STATUS, "--provider", "-x"], {}, False),
    ([*STATUS, *PROVIDER, "--agent-id", "caf\udce9"], {}, False),
    (["state", "path"], {}, False),
]


@pytest.fixture(scope="module")
def homes(tmp_path_factory) -> dict[str, Path]:
    """A state folder with two enablements, one with private binding values, and a corrupt
    one."""
    base = tmp_path_factory.mktemp("fast-path")
    state = base / "state"
    state.mkdir(mode=0o700)
    store = StateStore(state)
    limits = LimitCeilings(max_sessions=5, max_items=4, max_snippet_chars=100, max_total_chars=400)
    with store.update() as box:
        from attrs import evolve

        box[0] = evolve(
            box[0],
            enablements=(
                Enablement(
                    capability="agent-turn-recall",
                    provider_id="obelisk-session-evidence",
                    surface="replan-history",
                    agent_id="agent-a",
                    project_id="proj-j",
                    repository_id="repo:1",
                    stage=1,
                    limits=limits,
                    binding={"repository_id": "repo:1", "private": {"roots": ["/x/private"]}},
                    agent_sessions="claimed",
                ),
                Enablement(
                    capability="agent-turn-recall",
                    provider_id="obelisk-session-evidence",
                    surface="replan-history",
                    agent_id="agent-b",
                    project_id="proj-k",
                    repository_id="repo:2",
                    stage=1,
                    limits=limits,
                    binding={"repository_id": "repo:2"},
                ),
            ),
        )
    corrupt = base / "corrupt"
    corrupt.mkdir(mode=0o700)
    (corrupt / "state.json").write_text("{not json", encoding="utf-8")
    return {"state": state, "corrupt": corrupt, "home": base}


def _run(code: str, args: list[str], prog: str, env: dict[str, str]) -> tuple[str, str, int]:
    argv = [os.fsencode(a) if "\udce9" in a else a for a in args]  # raw bytes, as a shell
    proc = subprocess.run(
        [sys.executable, "-c", code, prog, *argv], capture_output=True, env=env, check=False
    )
    return (
        proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"),
        (proc.returncode),
    )


def _environment(homes: dict[str, Path], extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LOOPX_RECALL_", "_LOOPX"))}
    env.update(
        HOME=str(homes["home"]),
        XDG_STATE_HOME=str(homes["home"] / "xdg"),
        COLUMNS="80",
        LOOPX_RECALL_HOME=str(homes["state"]),
        LOOPX_RECALL_OBELISK_BIN=str(homes["home"] / "no-such-obelisk"),
        PYTHONIOENCODING="utf-8",
    )
    env.update(extra)
    if env["LOOPX_RECALL_HOME"] == "CORRUPT":
        env["LOOPX_RECALL_HOME"] = str(homes["corrupt"])
    return env


@pytest.mark.parametrize("prog", ["loopx-recall"])
@pytest.mark.parametrize(
    ("args", "extra", "fast"), CASES, ids=[" ".join(c[0]) or "-" for c in CASES]
)
def test_fast_path_answers_as_click_does(homes, prog, args, extra, fast):
    env = _environment(homes, extra)
    out, err, code = _run(FAST, args, prog, env)
    err, _sep, click_loaded = err.rpartition("\nCLICK=")
    assert (click_loaded == "False") is fast, (args, err)
    assert (out, err, code) == _run(CLICK, args, prog, env)
    if fast and args[:2] == ["capability", "status"] and code == 0:
        assert out.strip()


@pytest.mark.parametrize("args", [["--help"], []])
def test_root_help_bare_and_asked_for(homes, args):
    env = _environment(homes, {})
    prog = "loopx-recall"
    out, err, code = _run(FAST, args, prog, env)
    assert err.rpartition("\nCLICK=")[2] == "False"
    assert (out, err.rpartition("\nCLICK=")[0], code) == _run(CLICK, args, prog, env)


def test_root_help_text_is_clicks_rendering():
    # ROOT_HELP must drift with nothing: a new group, option or help text changes click's
    # rendering, and this fails until ROOT_HELP is regenerated (print the output below).
    # A terminal of 80 columns or more gives click's formatter 78 (80 at most, minus 2).
    rendered = CliRunner().invoke(cli, ["--help"], prog_name="loopx-recall", terminal_width=78)
    assert rendered.exit_code == 0
    assert rendered.output == ROOT_HELP.format(prog="loopx-recall") + "\n", rendered.output


def test_fast_path_refuses_streams_click_would_rewrap(homes):
    # ASCII standard streams: click re-wraps them, so the fast path leaves the call to click.
    env = _environment(homes, {"PYTHONIOENCODING": "ascii"})
    args = [*STATUS, *PROVIDER]
    out, err, code = _run(FAST, args, "loopx-recall", env)
    err, _sep, click_loaded = err.rpartition("\nCLICK=")
    assert click_loaded == "True"
    assert (out, err, code) == _run(CLICK, args, "loopx-recall", env)
