# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The binary's environment names nothing test-only.

On main before this change ``obelisk_env()`` forwarded every ``OBELISK_DOUBLE_*`` variable,
so a switch meant for the protocol double (a fault, a fake version) reached a real Obelisk
too, and the product's allowlist carried a test hook. The double now reads its switches
from ``$HOME/.obelisk-double.json``; the allowlist is the only way in.
"""

from __future__ import annotations

import re

from loopx_obelisk_session_evidence import adapter
from loopx_obelisk_session_evidence.adapter import obelisk_env

DOUBLE_SWITCHES = (
    "OBELISK_DOUBLE_FAULT",
    "OBELISK_DOUBLE_VERSION",
    "OBELISK_DOUBLE_SLOW_MS",
    "OBELISK_DOUBLE_BUILD_GRACE_MS",
    "OBELISK_DOUBLE_FLOOD_MAX_BYTES",
    "OBELISK_DOUBLE_ANY_FUTURE_SWITCH",
)
# Variables that make node load or resolve code the caller did not choose.
NODE_HOOKS = ("NODE_OPTIONS", "NODE_PATH")
# What marks a name as belonging to a test harness rather than to the runtime.
TEST_ONLY = re.compile(r"DOUBLE|TEST|FAKE|MOCK|STUB|CANARY|FIXTURE|LOOPX", re.IGNORECASE)


def test_double_switches_and_node_hooks_are_dropped_even_when_set(monkeypatch):
    monkeypatch.setenv("HOME", "/home/someone")
    monkeypatch.setenv("PATH", "/usr/bin")
    for name in DOUBLE_SWITCHES:
        monkeypatch.setenv(name, "hang")
    monkeypatch.setenv("NODE_OPTIONS", "--require /tmp/evil.js")
    monkeypatch.setenv("NODE_PATH", "/tmp/evil")
    env = obelisk_env()
    assert not set(env) & {*DOUBLE_SWITCHES, *NODE_HOOKS}
    assert not [name for name in env if name.startswith(("OBELISK_DOUBLE_", "NODE_"))]
    # The allowlist still works: what the runtime needs does get through, nothing else.
    assert (env["HOME"], env["PATH"]) == ("/home/someone", "/usr/bin")
    assert set(env) <= set(adapter._ENV_ALLOWLIST)


def test_allowlist_names_nothing_test_only():
    names = adapter._ENV_ALLOWLIST
    assert names, "an empty allowlist would make this test vacuous"
    assert [name for name in names if TEST_ONLY.search(name)] == []
    assert not [name for name in names if name.startswith("NODE_")]
