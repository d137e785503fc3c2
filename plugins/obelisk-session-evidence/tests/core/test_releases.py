# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The Obelisk releases the plugin meets (docs/obelisk-releases.md), through the real
``loopx`` CLI: against the double answering as each release (its ``version`` setting) and,
in the real-binary lane, against each named executable."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from ..conftest import CAPABILITY
from ..obelisk_double.fixtures import (
    OBELISK_WRAPPER,
    LaneRuntime,
    Release,
    double_settings,
    lane_runtimes,
)

#: Releases the double answers as: accepted by their index's schema (below, 0.3.1, a
#: release not yet published, stands for any newer one), and refused for a semantic fault.
SUPPORTED = ("0.2.1", "0.2.4", "0.3.0")
REFUSED = ("0.2.0",)
_REFUSED = [r for r in lane_runtimes() if not r.supported] if lane_runtimes() else [
    LaneRuntime(OBELISK_WRAPPER, Release.of(v)) for v in REFUSED
]


def _history(loopx, *args: str, env: dict[str, str] | None = None):
    return loopx(
        "recall", "history", "--agent-id", "agent-a", "--project-id", "proj-j", *args,
        extra_env=env, check=False,
    )


def _status(loopx) -> dict:
    out = loopx("capability", "status", *CAPABILITY, "--project-id", "proj-j", "--format", "json")
    return json.loads(out.stdout)


@pytest.mark.parametrize("version", SUPPORTED)
def test_every_evidence_type_answers_on_each_supported_release(
    loopx, enable_alpha, archive_home, version
):
    # 0.2.1's index has no summaries.visibility: the template read it and every recall
    # asking for summaries failed with unsupported_runtime_version (issue 30).
    double_settings(archive_home.home, version=version)
    enable_alpha("claude")
    status = _status(loopx)
    assert status["provider"]["ready"] is True, status
    assert status["runtime"]["runtime_version"] == version
    alpha = str(archive_home.repos["alpha"])
    summary = next(
        e for e in archive_home.events
        if e.kind == "summary" and e.runtime == "claude" and e.repo_root == alpha and e.visible
    )
    term = max(summary.text.split(), key=len).strip(".,:;")
    data = json.loads(_history(loopx, "--term", term, "--format", "json", "--show-private").stdout)
    assert data["status"] == "succeeded", data
    assert "summary" in {item["evidence_type"] for item in data["items"]}, data


@pytest.fixture(params=_REFUSED, ids=[f"obelisk-{r.release.version}" for r in _REFUSED])
def refused(request, archive_home, tmp_path) -> tuple[Path, Path, str]:
    """A refused runtime behind a wrapper that logs every verb it is
    given: (wrapper, log, version)."""
    runtime: LaneRuntime = request.param
    if runtime.path == OBELISK_WRAPPER:
        double_settings(archive_home.home, version=runtime.release.version)
    log = tmp_path / "verbs.log"
    wrapper = tmp_path / "logging-obelisk"
    wrapper.write_text(f'#!/bin/sh\necho "$1" >> "{log}"\nexec "{runtime.path}" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    return wrapper, log, runtime.release.version


@pytest.mark.real_obelisk
def test_a_refused_release_is_refused_before_any_query(loopx, archive_home, refused):
    wrapper, log, version = refused
    env = {"LOOPX_RECALL_OBELISK_BIN": str(wrapper)}
    hint = f"Obelisk {version} is refused: it stores a Codex tool call"
    listed = loopx("extension", "list", extra_env=env, check=False)
    assert hint in listed.stdout + listed.stderr
    loopx(
        "capability", "enable", *CAPABILITY, "--agent-id", "agent-a", "--project-id", "proj-j",
        "--history-source", "claude", "--repository-root", str(archive_home.repos["alpha"]),
        "--repository-id", "repo-a", "--agent-sessions", "runtime", extra_env=env, check=False,
    )
    out = loopx(
        "capability", "status", *CAPABILITY, "--project-id", "proj-j", "--format", "json",
        extra_env=env, check=False,
    )
    status = json.loads(out.stdout)
    assert status["provider"]["ready"] is False, status
    assert status["provider"]["unavailable_reason"].startswith(hint)
    assert status["runtime"]["runtime_version"] == version
    data = json.loads(_history(loopx, "--term", "pytest", "--format", "json", env=env).stdout)
    assert data["status"] != "succeeded"
    assert data["reason"] == "unsupported_runtime_version", data
    text = _history(loopx, "--term", "pytest", env=env)
    assert hint in text.stdout + text.stderr
    # Refused before any query: the binary was only asked its version.
    assert set(log.read_text().split()) == {"--version"}


ACCEPTED = "accepted by its index's schema; this release has"


@pytest.mark.parametrize(
    ("version", "said"),
    [
        ("0.3.1", f"Obelisk 0.3.1: {ACCEPTED} not been run here"),
        ("0.2.4", f"Obelisk 0.2.4: {ACCEPTED} been run here (the real-binary lane)"),
    ],
)
def test_a_release_is_accepted_by_its_index_and_status_says_how(
    loopx, enable_alpha, archive_home, obelisk_bin, version, said
):
    if obelisk_bin != OBELISK_WRAPPER:
        pytest.skip("the double answering as each release")
    double_settings(archive_home.home, version=version)
    enable_alpha("claude")
    status = _status(loopx)
    assert status["provider"]["ready"] is True, status
    assert status["runtime"]["release"] == said
    data = json.loads(_history(loopx, "--term", "pytest", "--format", "json").stdout)
    assert data["status"] == "succeeded", data


def test_an_index_missing_a_column_the_template_reads_is_refused_naming_it(
    loopx, enable_alpha, archive_home, obelisk_bin
):
    if obelisk_bin != OBELISK_WRAPPER:
        pytest.skip("a setting of the double")
    # a newer release whose index no longer has messages.cwd
    double_settings(archive_home.home, version="0.4.0", missing_columns=["messages.cwd"])
    enable_alpha("claude")
    hint = (
        "Obelisk 0.4.0 is refused: its index lacks messages.cwd, which the query template reads"
    )
    status = _status(loopx)
    assert status["provider"]["ready"] is False, status
    assert status["provider"]["unavailable_reason"] == hint
    data = json.loads(_history(loopx, "--term", "pytest", "--format", "json").stdout)
    assert data["status"] != "succeeded"
    assert data["reason"] == "unsupported_runtime_version", data
    text = _history(loopx, "--term", "pytest")
    assert hint in text.stdout + text.stderr
