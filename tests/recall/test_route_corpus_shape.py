# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The shape issue 38 asks of the route-model corpus (:mod:`tests.recall.corpus_route_model`):
two halves of at least 210 pairs, about half repeats, a third near and a sixth novel, at
least 20 bait pairs and none of them a repeat, at least 60 programs of which at least 32
have a spec in ``@withfig/autocomplete`` and no hand table, no pair shared between the
halves, and no pair's proposal spelled as another pair's prior call (so all pairs can share
one history). Programs are counted by a simple reading of the command: the last step of a
``&&``/``;`` chain, its first pipeline stage, past assignments, process wrappers and their
options, and into ``sh -c``/``bash -c`` bodies.

The blind set (:mod:`tests.recall.corpus_route_model_blind`) is checked alike: at least 160
pairs in the same mix, at least 25 bait and none a repeat, at least 45 programs of which at
least 25 have a generated spec file and no hand table, one shared history, and nothing
shared with the first corpus."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests.recall.corpus_route_model import DEV, HAND_TABLE_PROGRAMS, HELD_OUT, SPEC_PROGRAMS, Pair
from tests.recall.corpus_route_model_blind import BLIND, BLIND_SPEC_PROGRAMS

HALVES = {"dev": DEV, "held-out": HELD_OUT}
LABELS = {"repeat", "near", "novel"}

# Process wrappers and the options of theirs that take a value (each tool's --help).
WRAPPERS: dict[str, set[str]] = {
    "nice": {"-n", "--adjustment"},
    "ionice": {"-c", "-n", "-p", "--class", "--classdata"},
    "taskset": {"-c", "--cpu-list"},
    "chrt": set(),
    "nohup": set(),
    "stdbuf": {"-i", "-o", "-e"},
    "timeout": {"-s", "-k", "--signal", "--kill-after"},
    "time": {"-f", "-o", "--format", "--output"},
    "env": {"-C", "-u", "--chdir", "--unset", "-S"},
    "sudo": {"-u", "-g", "-C"},
    "watch": {"-n", "--interval"},
    "command": set(),
}
SHELLS = {"sh", "bash"}
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_WRAPPER_ARG = re.compile(r"^[0-9][0-9A-Za-z,.:x-]*$")  # 300, 5m, 0-3, 0x3, 19


def _words(command: str) -> list[str]:
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    return list(lexer)


def program(command: str) -> str:
    """The program a command runs, by the reading the module docstring describes."""
    steps: list[list[str]] = [[]]
    for word in _words(command):
        if word in {"&&", "||", ";", "(", ")"}:
            steps.append([])
        else:
            steps[-1].append(word)
    step = [w for w in steps if w][-1]
    if "|" in step:
        step = step[: step.index("|")]
    redirects = {"<", ">", ">>"}
    words = [w for i, w in enumerate(step)
             if w not in redirects and (i == 0 or step[i - 1] not in redirects)]  # fmt: skip
    i = 0
    while i < len(words):
        word = words[i].rsplit("/", 1)[-1]
        if _ASSIGNMENT.match(words[i]):
            i += 1
        elif word in WRAPPERS:
            takes = WRAPPERS[word]
            i += 1
            while i < len(words) and (words[i].startswith("-") or _ASSIGNMENT.match(words[i])
                                      or _WRAPPER_ARG.match(words[i])):  # fmt: skip
                i += 2 if words[i] in takes else 1
        elif word in SHELLS:
            rest = words[i + 1 :]
            if "-c" in rest or any(re.fullmatch(r"-[a-z]*c", w) for w in rest):
                body = next(w for w in rest if not w.startswith("-") and w != "pipefail")
                return program(body)
            return word
        else:
            return word
    raise AssertionError(f"no program in {command!r}")


def _all() -> list[Pair]:
    return [pair for half in HALVES.values() for pair in half]


@pytest.mark.parametrize("name", sorted(HALVES))
def test_half_size_and_label_mix(name):
    half = HALVES[name]
    assert len(half) >= 210
    assert {pair.label for pair in half} == LABELS
    share = {label: sum(p.label == label for p in half) / len(half) for label in LABELS}
    assert 0.45 <= share["repeat"] <= 0.55, share
    assert 0.30 <= share["near"] <= 0.40, share
    assert 0.10 <= share["novel"] <= 0.20, share


@pytest.mark.parametrize("name", sorted(HALVES))
def test_bait_is_never_a_repeat_and_there_is_enough_of_it(name):
    half = HALVES[name]
    bait = [pair for pair in half if pair.tag == "bait"]
    assert len(bait) >= 10
    assert [pair for pair in bait if pair.label == "repeat"] == []


def test_corpus_is_large_and_wide():
    pairs = _all()
    assert len(pairs) >= 210 * len(HALVES)
    assert sum(pair.tag == "bait" for pair in pairs) >= 20
    programs = {program(p.proposed) for p in pairs} | {program(p.prior) for p in pairs}
    assert len(programs) >= 60, sorted(programs)
    spec_only = programs & set(SPEC_PROGRAMS) - set(HAND_TABLE_PROGRAMS)
    assert len(spec_only) >= 32, sorted(spec_only)


def test_spec_programs_are_all_used_and_none_has_a_hand_table():
    programs = {program(p.proposed) for p in _all()} | {program(p.prior) for p in _all()}
    assert set(SPEC_PROGRAMS) <= programs, sorted(set(SPEC_PROGRAMS) - programs)
    assert not set(SPEC_PROGRAMS) & set(HAND_TABLE_PROGRAMS)
    assert len(SPEC_PROGRAMS) == len(set(SPEC_PROGRAMS))


def test_pairs_are_well_formed():
    for pair in _all():
        assert pair.label in LABELS, pair
        assert pair.tag, pair
        assert pair.tag == pair.tag.strip(), pair
        assert pair.exit >= 0, pair
        if pair.label == "repeat":
            assert pair.exit != 0, pair  # only a failure can be repeated
        for folder in (pair.cwd, pair.prior_cwd):
            assert folder == "." or not (folder.startswith(("/", "./")) or folder.endswith("/"))
        _words(pair.proposed), _words(pair.prior)  # both parse as shell words


def _key(command: str, folder: str) -> tuple[str, str]:
    return " ".join(command.split()), folder


def test_pairs_can_share_one_history():
    pairs = _all()
    priors = [_key(p.prior, p.prior_cwd) for p in pairs]
    assert len(priors) == len(set(priors)), "two pairs share a prior call"
    by_prior = {key: i for i, key in enumerate(priors)}
    for i, pair in enumerate(pairs):
        j = by_prior.get(_key(pair.proposed, pair.cwd))
        assert j in (None, i), (pair, pairs[j])


def test_the_halves_share_no_pair():
    halves = list(HALVES.values())
    for a in range(len(halves)):
        for b in range(a + 1, len(halves)):
            assert not set(halves[a]) & set(halves[b])


@pytest.mark.parametrize(("command", "expected"), [
    ("cd frontend && npm run lint", "npm"),
    ("bash -o pipefail -c 'make build'", "make"),
    ("timeout -k 10 5m nice -n 19 pytest tests/x.py", "pytest"),
    ("env -C web FOO=1 /usr/bin/time -v node a.js", "node"),
    ("export A=1 && psql -d x < a.sql", "psql"),
    ("make build  # once more", "make"),
    ("curl -fsS https://x/y | jq .", "curl"),
])  # fmt: skip
def test_program_reading(command, expected):
    assert program(command) == expected


# -- the blind set (tests.recall.corpus_route_model_blind) ----------------------------------
# Its here-documents put words after the first line; programs are read from the first line.

SPECS_DIR = Path(__file__).resolve().parents[2] / "loopx_recall_core" / "routes" / "specs"


def _blind_programs() -> set[str]:
    return {program(c.split("\n", 1)[0]) for p in BLIND for c in (p.proposed, p.prior)}


def test_blind_size_and_label_mix():
    assert len(BLIND) >= 160
    share = {label: sum(p.label == label for p in BLIND) / len(BLIND) for label in LABELS}
    assert 0.45 <= share["repeat"] <= 0.55, share
    assert 0.30 <= share["near"] <= 0.40, share
    assert 0.10 <= share["novel"] <= 0.20, share


def test_blind_bait_is_never_a_repeat_and_there_is_enough_of_it():
    bait = [pair for pair in BLIND if pair.tag == "bait"]
    assert len(bait) >= 25
    assert [pair for pair in bait if pair.label == "repeat"] == []


def test_blind_programs_are_wide_and_mostly_spec_only():
    programs = _blind_programs()
    assert len(programs) >= 45, sorted(programs)
    assert set(BLIND_SPEC_PROGRAMS) <= programs, sorted(set(BLIND_SPEC_PROGRAMS) - programs)
    assert len(BLIND_SPEC_PROGRAMS) == len(set(BLIND_SPEC_PROGRAMS)) >= 25
    assert not set(BLIND_SPEC_PROGRAMS) & set(HAND_TABLE_PROGRAMS)
    missing = [name for name in BLIND_SPEC_PROGRAMS if not (SPECS_DIR / f"{name}.json").is_file()]
    assert missing == []


def test_blind_pairs_are_well_formed_and_share_one_history():
    for pair in BLIND:
        assert pair.label in LABELS, pair
        assert pair.tag, pair
        assert pair.tag == pair.tag.strip(), pair
        assert pair.exit >= 0, pair
        if pair.label == "repeat":
            assert pair.exit != 0, pair
        for folder in (pair.cwd, pair.prior_cwd):
            assert folder == "." or not (folder.startswith(("/", "./")) or folder.endswith("/"))
        _words(pair.proposed), _words(pair.prior)
    priors = [_key(p.prior, p.prior_cwd) for p in BLIND]
    assert len(priors) == len(set(priors)), "two pairs share a prior call"
    by_prior = {key: i for i, key in enumerate(priors)}
    for i, pair in enumerate(BLIND):
        j = by_prior.get(_key(pair.proposed, pair.cwd))
        assert j in (None, i), (pair, BLIND[j])


def test_blind_set_shares_nothing_with_the_first_corpus():
    first = _all()
    assert not set(BLIND) & set(first)
    first_calls = {_key(c, f) for p in first for c, f in ((p.prior, p.prior_cwd),
                                                          (p.proposed, p.cwd))}  # fmt: skip
    shared = [p for p in BLIND if _key(p.prior, p.prior_cwd) in first_calls
              or _key(p.proposed, p.cwd) in first_calls]  # fmt: skip
    assert shared == []
