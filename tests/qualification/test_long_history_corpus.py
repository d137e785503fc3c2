# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The corpus's long-history family on disk: every first attempt behind >= 40 newer shell
calls (half failed) in the same repository, and the canary corpus's 300 secrets in the
commands, outputs and messages of older unrelated sessions, in both runtimes' transcripts."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from loopx_recall_core.qualification.canaries import planted_canaries
from loopx_recall_core.qualification.corpus import build_corpus
from loopx_recall_core.qualification.guard_arm import GUARDED_FAMILIES, _long_history
from loopx_recall_core.qualification.materialize import write_family

NOW = datetime.now(UTC).replace(microsecond=0)


@pytest.mark.parametrize("cases", [10, 200])
def test_every_long_history_shard_plants_every_canary_in_its_fillers(cases):
    corpus = build_corpus(cases=cases)
    shards = [f for f in corpus.families if f.name == "long_history"]
    assert shards
    assert "long_history" in GUARDED_FAMILIES
    for family in shards:
        fillers = [s for s in family.sessions if s.filler and not s.secrets]
        carriers = [s for s in family.sessions if s.secrets]
        assert len(fillers) == 24
        assert all(s.filler for s in carriers)
        assert sorted(i for s in carriers for i in s.secrets) == list(
            range(len(planted_canaries()))
        )
        # the cases' own first attempts are older than every filler, newer than every carrier
        firsts = [s.age_min for s in family.sessions if not s.filler]
        assert min(firsts) > max(s.age_min for s in fillers)
        assert max(firsts) < min(s.age_min for s in carriers) < 30 * 1440
    # a repeat at least, whatever the size
    assert any(c.family == "long_history" and c.label == "repeat" for c in corpus.cases)


def test_the_written_family_holds_the_history_and_the_secrets(tmp_path):
    corpus = build_corpus(cases=30)
    family = next(f for f in corpus.families if f.name == "long_history")
    files = write_family(family, tmp_path, NOW)
    files.write_late()
    case = next(c for c in corpus.cases if c.archive == family.key)
    long = _long_history(files, files.view(case).in_scope_sessions)
    assert long.first_attempts == sum(1 for s in family.sessions if not s.filler)
    assert long.newer_calls_min >= 48
    assert long.newer_failed_min >= 24
    lines = [json.loads(line) for p in files.home.rglob("*.jsonl")
             for line in p.read_text(encoding="utf-8").splitlines()]  # fmt: skip
    text = "\n".join(json.dumps(line, ensure_ascii=False) for line in lines)
    written = {json.dumps(c.text, ensure_ascii=False)[1:-1] for c in planted_canaries()}
    assert all(t in text for t in written)
    # in Claude's Bash commands and Codex's shell calls, user prompts and assistant text
    claude_commands = [b["input"]["command"] for line in lines if line.get("type") == "assistant"
                       for b in line["message"]["content"]
                       if isinstance(b, dict) and b.get("name") == "Bash"]  # fmt: skip
    prompts = [line["message"]["content"] for line in lines if line.get("type") == "user"
               and isinstance(line.get("message", {}).get("content"), str)]  # fmt: skip
    said = [b["text"] for line in lines if line.get("type") == "assistant"
            for b in line["message"]["content"] if b.get("type") == "text"]  # fmt: skip
    secrets = [c.secret for c in planted_canaries()]
    for where in (claude_commands, prompts, said):
        assert any(s in t for t in where for s in secrets), where[:3]
    codex = "\n".join(p.read_text(encoding="utf-8") for p in files.home.rglob("rollout-*.jsonl"))
    assert any(json.dumps(s)[1:-1] in codex for s in secrets)
