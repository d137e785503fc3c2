# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""State: atomic, locked, private, and loud about corruption."""

from __future__ import annotations

import multiprocessing
import os

import attrs
import pytest

from loopx_recall_core.state import (
    DEFAULT_CEILINGS,
    Enablement,
    LimitCeilings,
    StateError,
    StateStore,
)


def _enablement(agent_id: str) -> Enablement:
    return Enablement(
        capability="agent-turn-recall", provider_id="obelisk-session-evidence",
        surface="replan-history", agent_id=agent_id, project_id="proj", repository_id="repo",
        stage=1, limits=LimitCeilings(**DEFAULT_CEILINGS),
        binding={"private": {"roots": ["/home/alice/repo"]}},
    )


def _worker(root: str, worker: int, operations: int) -> None:
    store = StateStore(__import__("pathlib").Path(root))
    for op in range(operations // 2):
        with store.update() as box:
            box[0] = attrs.evolve(
                box[0], enablements=(*box[0].enablements, _enablement(f"w{worker}-{op}"))
            )
        if op % 2 == 0:
            with store.update() as box:
                box[0] = attrs.evolve(box[0], enablements=tuple(
                    e for e in box[0].enablements if e.agent_id != f"w{worker}-{op}"
                ))


def test_concurrent_updates_lose_nothing(tmp_path):
    workers, operations = 8, 50
    context = multiprocessing.get_context("spawn")
    processes = [
        context.Process(target=_worker, args=(str(tmp_path), w, operations))
        for w in range(workers)
    ]
    for p in processes:
        p.start()
    for p in processes:
        p.join(120)
        assert p.exitcode == 0
    agents = {e.agent_id for e in StateStore(tmp_path).read().enablements}
    expected = {f"w{w}-{op}" for w in range(workers) for op in range(operations // 2) if op % 2}
    assert agents == expected


def test_files_are_private(tmp_path):
    store = StateStore(tmp_path / "home")
    with store.update() as box:
        box[0] = attrs.evolve(box[0], enablements=(_enablement("a"),))
    assert store.path.stat().st_mode & 0o777 == 0o600
    assert store.root.stat().st_mode & 0o777 == 0o700
    assert not [p for p in store.root.iterdir() if p.name.startswith(".state-")]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "corrupt"),
        ('{"schema_version": "loopx_state_v9", "enablements": []}', "unknown schema_version"),
        ('{"schema_version": "loopx_state_v0", "enablements": "x"}', "invalid"),
    ],
)
def test_corrupt_state_is_reported_and_left_alone(tmp_path, content, message):
    store = StateStore(tmp_path)
    store.path.write_text(content)
    with pytest.raises(StateError, match=message) as caught:
        store.read()
    assert str(tmp_path) not in str(caught.value)
    with pytest.raises(StateError), store.update():
        pass
    assert store.path.read_text() == content


def test_failed_update_keeps_previous_file(tmp_path):
    store = StateStore(tmp_path)
    with store.update() as box:
        box[0] = attrs.evolve(box[0], enablements=(_enablement("a"),))
    before = store.path.read_bytes()
    with pytest.raises(RuntimeError), store.update() as box:  # noqa: PT012 - raise inside update
        box[0] = attrs.evolve(box[0], enablements=())
        raise RuntimeError("boom")
    assert store.path.read_bytes() == before
    assert os.listdir(tmp_path).count("state.json") == 1
