# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""One request -> one ``obelisk --query`` call of the fixed template -> a verified result.

Fails closed on scope and parsing: any row outside the binding rejects the whole result;
anything but exactly one JSON object of our template version is a typed failure. The
subprocess's text never leaves this module.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Mapping
from importlib import resources
from typing import Any

from loopx_obelisk_session_evidence.runner import RunResult, private_folder, run
from loopx_recall_core.plugin_api import JsonInputError, ProviderFailure, digest
from loopx_recall_core.plugin_api import loads_json as loads

__all__ = [
    "SUPPORTED_OBELISK",
    "SUPPORTED_TEXT",
    "TEMPLATE_DIGEST",
    "TEMPLATE_VERSION",
    "UnsupportedRelease",
    "call_template",
    "check_supported",
    "launcher_node_dir",
    "obelisk_env",
    "pinned_node_dir",
    "probe_version",
    "render",
]

TEMPLATE_VERSION = "obelisk-session-evidence-template/7"
_TEMPLATE_TEXT = (
    resources.files("loopx_obelisk_session_evidence")
    .joinpath("templates/session_evidence.v7.js")
    .read_text(encoding="utf-8")
)
TEMPLATE_DIGEST = digest(_TEMPLATE_TEXT)
_PLACEHOLDER = "/*LOOPX_PARAMS*/ null"

#: The one place the supported Obelisk releases are declared: [lowest, first unsupported),
#: each release tested through the real-binary lane (docs/obelisk-releases.md). 0.2.0 is
#: left out: it stores a Codex tool call as ``codex:<call_id>`` without its thread, so the
#: same call id in two threads keeps one row and a thread's evidence can be lost or read as
#: another's (its ``--query`` on such a pair answers one row; fork tag v0.2.0). 0.3 is left
#: out until it has been run here.
SUPPORTED_OBELISK = ((0, 2, 1), (0, 3, 0))


def release_text(version: tuple[int, int, int]) -> str:
    return ".".join(map(str, version))


#: The supported range as users read it.
SUPPORTED_TEXT = (
    f"{release_text(SUPPORTED_OBELISK[0])} to before {release_text(SUPPORTED_OBELISK[1])}"
)


class UnsupportedRelease(ProviderFailure):
    """``unsupported_runtime_version`` for a release outside :data:`SUPPORTED_OBELISK`;
    ``hint`` is one line naming the user's release and the supported range."""

    def __init__(self, version: tuple[int, int, int]) -> None:
        super().__init__("unsupported_runtime_version")
        self.version = version
        self.hint = (
            f"Obelisk {release_text(version)} is not supported (supported: "
            f"{SUPPORTED_TEXT}); install a release in that range"
        )


def check_supported(version: tuple[int, int, int]) -> None:
    """Refuse, before any query, a release outside the supported range."""
    low, high = SUPPORTED_OBELISK
    if not low <= version < high:
        raise UnsupportedRelease(version)

_ENV_ALLOWLIST = (
    "HOME",
    "PATH",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TMPDIR",
    "OBELISK_HOME",
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
)
_SCHEMA_MISMATCH = re.compile(r"no such (table|column)", re.IGNORECASE)
_VERSION = re.compile(r"^v?(\d+)\.(\d+)\.(\d+)")


def obelisk_env(executable: str | None = None) -> dict[str, str]:
    """The allowlisted environment; NODE_OPTIONS/NODE_PATH and everything else dropped.
    For an ``executable`` pinned at ``capability enable`` with the folder of its Node
    (:func:`pinned_node_dir`), that folder comes first on ``PATH``: the launcher's
    ``#!/usr/bin/env node`` finds the same Node whatever the caller's PATH (issue 39: a
    runtime started from an IDE with ``PATH=/usr/bin:/bin`` found an older Node, or none).

    Nothing test-only is forwarded: the protocol double reads its switches from a file
    under its HOME, so the real binary never sees a variable our tests rely on."""
    env = {k: v for k, v in os.environ.items() if k in _ENV_ALLOWLIST}
    node_dir = pinned_node_dir(executable) if executable else None
    if node_dir:
        env["PATH"] = os.pathsep.join(filter(None, (node_dir, env.get("PATH"))))
    return env


#: A launcher that runs on the Node its PATH finds: ``#!/usr/bin/env node`` (also ``env
#: -S node ...``), the first line npm writes for a package's ``bin`` script.
_ENV_NODE = re.compile(rb"#![ \t]*/usr/bin/env[ \t]+(?:-S[ \t]+)?node(?:[ \t\r\n]|$)")


def launcher_node_dir(executable: str) -> str | None:
    """The folder of the Node ``executable``'s ``#!/usr/bin/env node`` resolves to on this
    process's PATH (None: another first line, no node on PATH, unreadable)."""
    try:
        with open(executable, "rb") as handle:
            first = handle.readline(256)
    except OSError:
        return None
    if not _ENV_NODE.match(first):
        return None
    node = shutil.which("node")
    return os.path.dirname(os.path.abspath(node)) if node else None


def pinned_node_dir(executable: str) -> str | None:
    """The Node folder ``capability enable`` pinned beside ``executable`` (the newest
    enablement of this provider that pinned both), or None."""
    from loopx_obelisk_session_evidence import PROVIDER_ID
    from loopx_recall_core.plugin_api import enabled_bindings

    for binding in reversed(enabled_bindings(PROVIDER_ID)):
        private = binding.get("private")
        if not isinstance(private, dict) or private.get("obelisk_bin") != executable:
            continue
        node_dir = private.get("node_dir")
        return node_dir if isinstance(node_dir, str) and node_dir else None
    return None


def probe_version(executable: str, timeout: float) -> tuple[int, int, int]:
    """``obelisk --version`` parsed (the supported range is checked by the caller), or a
    typed failure."""
    try:
        result = run([executable, "--version"], env=obelisk_env(executable), timeout=timeout,
                     stdout_cap=4096)  # fmt: skip
    except OSError:
        raise ProviderFailure("provider_unavailable") from None
    if result.timed_out:
        raise ProviderFailure("provider_timeout")
    match = _VERSION.match(result.stdout.decode("ascii", "replace").strip())
    if not result.ok or match is None:
        raise ProviderFailure("provider_unavailable")  # not Obelisk
    return (int(match[1]), int(match[2]), int(match[3]))


def render(params: Mapping[str, Any]) -> str:
    """The template with its one data literal filled in (ASCII-only JSON)."""
    literal = json.dumps({**params, "template_version": TEMPLATE_VERSION}, ensure_ascii=True)
    return _TEMPLATE_TEXT.replace(_PLACEHOLDER, literal, 1)


def _classify_failure(result: RunResult) -> ProviderFailure:
    if result.timed_out:
        return ProviderFailure("provider_timeout")
    if result.overflowed:
        return ProviderFailure("output_too_large")
    text = result.stdout.decode("utf-8", "replace").strip()
    if result.returncode == 1 and text.startswith("{"):
        try:
            envelope = loads(text)
        except JsonInputError:
            envelope = None
        if isinstance(envelope, dict) and _SCHEMA_MISMATCH.search(str(envelope.get("error"))):
            return ProviderFailure("unsupported_runtime_version")
    return ProviderFailure("provider_failed")


def call_template(
    executable: str, params: Mapping[str, Any], *, timeout: float, stdout_cap: int
) -> dict[str, Any]:
    """Run the template once; the parsed object, or a typed ProviderFailure.

    The script holds the terms and roots: it lives in a 0700 folder as a 0600 file and is
    removed on every exit path (the runner also removes it at interpreter exit)."""
    with private_folder("loopx-obelisk-") as folder:
        script = os.path.join(folder, "query.js")
        descriptor = os.open(script, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(render(params))
        try:
            result = run(
                [executable, "--query", script],
                env=obelisk_env(executable),
                timeout=timeout,
                stdout_cap=stdout_cap,
            )
        except OSError:
            raise ProviderFailure("provider_unavailable") from None
    if not result.ok:
        raise _classify_failure(result)
    try:
        value = loads(result.stdout)
    except JsonInputError:
        raise ProviderFailure("malformed_output") from None  # undefined, noise, empty, ...
    if not isinstance(value, dict) or value.get("template_version") != TEMPLATE_VERSION:
        raise ProviderFailure("malformed_output")
    for key in ("markers", "indexed_files", "evidence", "omitted"):
        if key not in value:
            raise ProviderFailure("malformed_output")
    return value
