# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""How long ``capability status`` waits for a provider's readback: its own 3 s floor, or
longer when the provider says its readback needs longer now (a runtime whose every query
costs seconds), never past the readback's deadline; a provider that says nothing usable
keeps the floor."""

from __future__ import annotations

import pytest

from loopx_recall_core.capability_status import STATUS_READBACK_S, readback_budget
from loopx_recall_core.plugin.manager import READBACK_DEADLINE_S


class _Says:
    def __init__(self, answer):
        self.answer = answer

    def readback_seconds(self, binding):
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@pytest.mark.parametrize(
    ("answer", "budget"),
    [
        (0.0, STATUS_READBACK_S),
        (1.0, STATUS_READBACK_S),
        (9.5, 9.5),
        (500.0, READBACK_DEADLINE_S),
        (float("nan"), STATUS_READBACK_S),
        ("soon", STATUS_READBACK_S),
        (RuntimeError("broken"), STATUS_READBACK_S),
    ],
)
def test_the_readback_gets_what_the_provider_says_within_the_bounds(answer, budget):
    assert readback_budget(_Says(answer), {"any": "binding"}) == budget


def test_a_provider_without_the_method_keeps_the_floor():
    assert readback_budget(object(), None) == STATUS_READBACK_S
