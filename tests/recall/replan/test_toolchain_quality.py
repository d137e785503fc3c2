# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Repeated routes over the common toolchains are found (retrieval by
the canonical route) and related, and near misses and bait stay what they are."""

from __future__ import annotations

from tests.recall.replan.corpus_heldout import HELDOUT
from tests.recall.replan.corpus_toolchains import DEV
from tests.recall.replan.retrieval import evaluate

FAMILIES = ("pytest", "npm", "cargo", "go ", "make", "docker", "git ", "kubectl", "terraform")


def test_held_out_goal():
    report = evaluate(HELDOUT)
    assert report["n"] >= 140
    assert report["recall"] >= 0.97, report["misses"]
    assert report["precision"] >= 0.99, report["misses"]
    assert report["bait"] == 0, report["misses"]
    assert report["near_false_match"] == 0.0, report["misses"]
    assert report["spurious"] == 0  # no background call is a repeat of a proposed step


def test_development_set():
    report = evaluate(DEV)
    assert report["precision"] == 1.0, report["misses"]
    assert report["bait"] == 0
    assert report["recall"] >= 0.95, report["misses"]


def test_every_family_has_held_out_repeats_near_misses_and_bait():
    for family in (*FAMILIES, "gradle", "mvn", "manage.py", "rails", "alembic", "pip"):
        labels = {
            (label, tag)
            for step, _, label, tag in HELDOUT
            if family in step["command"] or family.strip() in step["command"].split()
        }
        assert any(label == "repeat" for label, _ in labels), family
        assert any(label != "repeat" for label, _ in labels), family
