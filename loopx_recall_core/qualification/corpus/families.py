# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""How each family's cases and planted sessions are drawn: :class:`Builder` (one family
shard) and one ``plant_<family>`` function per family of
:mod:`loopx_recall_core.qualification.corpus`'s table.

Long because: one planting function per family (six), each with the facts its shares and
ages rest on, beside the builder they share."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from loopx_recall_core.qualification.corpus.records import (
    AGENT_ID,
    SHARD_CASES,
    SUCCESS,
    Case,
    Scope,
    SessionSpec,
)
from loopx_recall_core.qualification.templates import ASCII_SLUGS, TEMPLATES, Template, by_name
from loopx_recall_core.qualification.transcripts import RUNTIMES

__all__ = [
    "Builder",
    "allocate",
    "plant_bait",
    "plant_baseline",
    "plant_long_history",
    "plant_pressure",
    "plant_stale",
]

_DAY = 1440
_RECENT = (60, 26 * _DAY)  # inside a 30-day window with four days to spare
_OLD = (34 * _DAY, 55 * _DAY)  # outside it with four days to spare
_PRESSURE_SUCCESS = ("pytest tests/smoke -q", "5 passed in 0.41s")
_LONG_AGO = (10 * _DAY, 26 * _DAY)  # a long history's first attempts
_NEWER = (60, 9 * _DAY)  # its fillers: every one newer than every first attempt
#: The sessions that carry the canary corpus: at the far end of the window, older than every
#: first attempt, so the guard's whole-window set reads them all while arm (b)'s newest-first
#: ranking seldom does (each secret-laden output costs the redactor tens of ms: measured 46
#: ms for one of 13 secrets, which at the front of every answer would be arm (b)'s latency).
_CARRIERS = 12
_FAR_END = (27 * _DAY, 29 * _DAY)
#: The newer, unrelated sessions a long history puts in front of its repeats, each with one
#: failing and one passing shell call: 48 newer calls, half failed (issue 28 gave each case
#: 40, half failed), three times the newest 16 a set of one request holds.
LONG_HISTORY_FILLERS = 24
#: Their programs: none a template uses, so no case's route or query term meets them.
#: (failing command, its first output line, exit code, passing command, its output)
_FILLERS = (
    ("terraform plan -target=module.{s}", "Error: Reference to undeclared resource", 1,
     "terraform fmt -check", ""),
    ("helm lint charts/{s}", "[ERROR] Chart.yaml: version is required", 1,
     "helm version --short", "v3.14.2+gc309b6f"),
    ("kubectl apply -f deploy/{s}.yaml", "error: error validating data: unknown field", 1,
     "kubectl config current-context", "kind-dev"),
    ("ansible-playbook site.yml --limit {s}", "fatal: [web1]: UNREACHABLE!", 4,
     "ansible --version", "ansible [core 2.16.3]"),
)  # fmt: skip


def allocate(total: int, shares: dict[str, int]) -> dict[str, int]:
    """Split ``total`` by ``shares`` (largest remainder, ties in the given order)."""
    weight = sum(shares.values())
    exact = {k: total * v / weight for k, v in shares.items()}
    counts = {k: int(x) for k, x in exact.items()}
    order = sorted(shares, key=lambda k: -(exact[k] - counts[k]))
    for key in order[: total - sum(counts.values())]:
        counts[key] += 1
    return counts


def _labels(rng: random.Random, count: int, shares: dict[str, int]) -> list[str]:
    labels = [label for label, n in allocate(count, shares).items() for _ in range(n)]
    rng.shuffle(labels)
    return labels


class Builder:
    """Cases and planted sessions of one family."""

    def __init__(self, name: str, shard: int, rng: random.Random) -> None:
        self.name = name
        self.key = f"{name}-{shard}"
        self.rng = rng
        self.sessions: list[SessionSpec] = []
        self.cases: list[Case] = []
        self._slugs = 0

    def slug(self, words: Sequence[str] = ASCII_SLUGS) -> str:
        self._slugs += 1
        return f"{words[self._slugs % len(words)]}{self._slugs}"

    def plant(
        self,
        repo: str,
        runtime: str,
        command: str,
        failure: tuple[str, int],
        *,
        ages: tuple[int, int] = _RECENT,
        late: str = "",
        bait: bool = False,
        success: tuple[str, str] = SUCCESS,
        secrets: tuple[int, ...] = (),
        filler: bool = False,
    ) -> SessionSpec:
        rng = self.rng
        spec = SessionSpec(
            key=f"{self.key}-s{len(self.sessions):02d}",
            repo=repo,
            runtime=runtime,
            # Late sessions are the minutes just before the build (their files come after).
            age_min=rng.randint(*((5, 30) if late else ages)),
            seed=rng.getrandbits(31),
            index=rng.randint(0, 3),
            failure=(command, failure[0], failure[1]),
            success=success,
            late=late,
            bait=bait,
            secrets=secrets,
            filler=filler,
        )
        self.sessions.append(spec)
        return spec

    def case(
        self,
        label: str,
        tags: Sequence[str],
        scope: Scope,
        home_repo: str,
        proposed: str,
        attempts: Sequence[tuple[str, str | None]],
        trigger: str,
        slug: str,
    ) -> None:
        case_id = f"{self.key}-{len(self.cases):02d}"
        signals: dict[str, Any] = {
            "attempts": [
                {
                    "step": {"kind": "command", "command": command},
                    "outcome": "failed",
                    **({"error_signature": signature} if signature else {}),
                }
                for command, signature in attempts
            ]
        }
        if trigger == "hypothesis_history_gap":
            signals["hypotheses"] = [
                {"text": f"the {slug} fixture data is stale", "exhausted": True},
                {"text": f"a cached {slug} build artefact hides the change", "exhausted": True},
            ]
            signals["prior_coverage"] = "unknown"
        elif trigger == "resume_or_handoff_gap":
            signals["handoff"] = {
                "source_agent_id": AGENT_ID,
                "receiving_agent_id": AGENT_ID,
                "durable_state_identifies_work": True,
                "missing_evidence": ["failure"],
            }
        situation = {
            "schema_version": "loopx_replan_situation_v0",
            "situation_id": case_id,
            "agent_id": AGENT_ID,
            "project_id": f"proj-{self.name}",
            "repository_id": f"repo-{self.name}-{home_repo}",
            "revision": {"current": f"{self.rng.getrandbits(160):040x}"},
            "trigger": trigger,
            "signals": signals,
            "proposed_step": {"kind": "command", "command": proposed},
        }
        self.cases.append(
            Case(
                case_id=case_id,
                family=self.name,
                archive=self.key,
                label=label,
                slug=slug,
                tags=tuple(sorted(set(tags))),
                scope=scope,
                home_repo=home_repo,
                situation=situation,
            )
        )

    def matched(
        self,
        label: str,
        template: Template,
        slug: str,
        *,
        scope: Scope,
        home_repo: str,
        history_repos: Sequence[str],
        in_context: bool = False,
        tags: Sequence[str] = (),
        late: str = "",
        ages: tuple[int, int] = _RECENT,
    ) -> None:
        """One case of ``label`` on ``template``/``slug`` with its history planted: the base
        route failed earlier (respelled) for a repeat or a near miss, never for a novel step."""
        rng = self.rng
        base = template.base(slug)
        line, code = template.failure(slug)
        tags = list(tags)
        if label != "novel":
            spellings = [*template.respell, *(template.hard if label == "repeat" else ())]
            spell = rng.choice(spellings)
            if spell in template.hard:
                tags.append("hard_spelling")
            runtime = rng.choice(scope.sources)
            self.plant(
                rng.choice(history_repos), runtime, spell(slug), (line, code), late=late, ages=ages
            )
        proposed = rng.choice(template.near)(slug) if label == "near_miss" else base
        if in_context:
            tags.append("in_context")
            respelled = rng.choice(template.respell)(slug)
            attempts = [(respelled, line), (base, None)]
            trigger = "replan_repetition"
        else:
            # The current loop: a route other than the proposed one, tried and failed.
            context = base if label == "near_miss" else rng.choice(template.near)(slug)
            trigger = rng.choices(
                ("replan_repetition", "hypothesis_history_gap", "resume_or_handoff_gap"),
                weights=(2, 1, 1),
            )[0]
            attempts = {
                "replan_repetition": [(context, line), (context + " 2>&1 | tail -20", None)],
                "hypothesis_history_gap": [(context, line)],
                "resume_or_handoff_gap": [],
            }[trigger]
        tags.append(f"trigger:{trigger}")
        self.case(label, tags, scope, home_repo, proposed, attempts, trigger, slug)


#: Every runtime the corpus writes sessions of, in the runtime records' order
#: (:data:`loopx_recall_core.qualification.transcripts.RUNTIMES`).
_ALL = RUNTIMES
#: The bait family binds the provider to the first runtime alone: the second is bait.
_SCOPED, _OTHER = _ALL[:2]


def plant_baseline(b: Builder, count: int, *, words: Sequence[str], tag: str | None) -> None:
    scope = Scope(sources=_ALL, repos=("alpha", "alpha-wt"))
    labels = _labels(b.rng, count, {"repeat": 40, "near_miss": 30, "novel": 30})
    repeats = [i for i, label in enumerate(labels) if label == "repeat"]
    in_context = set(b.rng.sample(repeats, round(len(repeats) / 4)))
    for i, label in enumerate(labels):
        template = b.rng.choice(TEMPLATES)
        b.matched(
            label,
            template,
            b.slug(words),
            scope=scope,
            home_repo="alpha",
            history_repos=("alpha", "alpha", "alpha", "alpha-wt"),
            in_context=i in in_context,
            tags=[tag] if tag else [],
        )


_BAIT_KINDS = {
    # kind: (repository, runtime, ages)
    "other_repository": ("beta", _SCOPED, _RECENT),
    "path_prefix": ("alpha2", _SCOPED, _RECENT),
    "other_runtime": ("alpha", _OTHER, _RECENT),
    "outside_window": ("alpha", _SCOPED, _OLD),
}


def plant_bait(b: Builder, count: int) -> None:
    # One runtime, one repository: every other runtime, repository and age is bait.
    scope = Scope(sources=(_SCOPED,), repos=("alpha",))
    labels = _labels(b.rng, count, {"novel": 70, "repeat": 30})
    kinds = sorted(_BAIT_KINDS)
    for i, label in enumerate(labels):
        template = b.rng.choice(TEMPLATES)
        slug = b.slug()
        line, code = template.failure(slug)
        if label == "novel":
            kind = kinds[i % len(kinds)]
            chosen = [kind]
        else:
            chosen = b.rng.sample(kinds, 2)
        for kind in chosen:
            repo, runtime, ages = _BAIT_KINDS[kind]
            b.plant(repo, runtime, template.base(slug), (line, code), ages=ages, bait=True)
        tags = [f"bait:{kind}" for kind in chosen]
        if label == "repeat":
            tags.append("bait:mixed")
        b.matched(
            label,
            template,
            slug,
            scope=scope,
            home_repo="alpha",
            history_repos=("alpha",),
            tags=tags,
        )


def plant_stale(b: Builder, count: int) -> None:
    # alpha gets new transcripts after the build (incomplete); beta's grow (stale).
    kinds = {"alpha": ("new", "stale:incomplete"), "beta": ("grown", "stale:stale")}
    labels = _labels(b.rng, count, {"late_repeat": 30, "repeat": 25, "near_miss": 20, "novel": 25})
    late_in: set[str] = set()
    for i, label in enumerate(labels):
        repo = ("alpha", "beta")[i % 2]
        late, tag = kinds[repo]
        scope = Scope(sources=_ALL, repos=(repo,))
        template = b.rng.choice(TEMPLATES)
        tags = [tag, "stale:late_only" if label == "late_repeat" else "stale:indexed"]
        if label == "late_repeat":
            late_in.add(repo)
        b.matched(
            "repeat" if label == "late_repeat" else label,
            template,
            b.slug(),
            scope=scope,
            home_repo=repo,
            history_repos=(repo,),
            late=late if label == "late_repeat" else "",
            tags=tags,
        )
    for repo in sorted({"alpha", "beta"} - late_in):
        # Every stale-family repository has late content, whatever the case mix.
        template = b.rng.choice(TEMPLATES)
        slug = b.slug()
        late = kinds[repo][0]
        b.plant(repo, _ALL[0], template.base(slug), template.failure(slug), late=late)


def plant_pressure(b: Builder, count: int) -> None:
    scope = Scope(sources=_ALL, repos=("alpha",))
    template = by_name("pytest")
    planted: list[str] = []
    for _ in range(SHARD_CASES):
        slug = b.slug()
        planted.append(slug)
        b.plant(
            "alpha",
            b.rng.choice(_ALL),
            b.rng.choice(template.respell)(slug),
            template.failure(slug),
            success=_PRESSURE_SUCCESS,
        )
    labels = _labels(b.rng, count, {"repeat": 45, "near_miss": 25, "novel": 30})
    for label in labels:
        slug = b.slug() if label == "novel" else b.rng.choice(planted)
        line, _code = template.failure(slug)
        proposed = template.base(slug)
        if label == "near_miss":
            proposed = b.rng.choice(template.near)(slug)
        context = template.base(slug) if label == "near_miss" else template.near[0](slug)
        b.case(
            label,
            ["pressure", "trigger:replan_repetition"],
            scope,
            "alpha",
            proposed,
            [(context, line), (context + " 2>&1 | tail -20", None)],
            "replan_repetition",
            slug,
        )


def _plant_filler(
    b: Builder, k: int, slug: str, *, ages: tuple[int, int], secrets: tuple[int, ...] = ()
) -> None:
    """The ``k``-th unrelated session of the long history (half failed, both runtimes)."""
    command, line, code, ok, output = _FILLERS[k % len(_FILLERS)]
    b.plant("alpha", _ALL[k % len(_ALL)], command.format(s=slug), (line, code), ages=ages,
            success=(ok, output), secrets=secrets, filler=True)  # fmt: skip


def plant_long_history(b: Builder, count: int, *, canaries: int) -> None:
    """Each repeat's or near miss's first attempt 10-26 days back in ``alpha``, and in front
    of them :data:`LONG_HISTORY_FILLERS` newer sessions of unrelated shell calls (half
    failed) in the same repository, both runtimes; behind them, 27-29 days back, twelve
    more unrelated sessions carry the ``canaries`` secrets of the canary corpus between
    them, in commands, outputs and messages."""
    scope = Scope(sources=_ALL, repos=("alpha",))
    for label in _labels(b.rng, count, {"repeat": 50, "near_miss": 25, "novel": 25}):
        b.matched(
            label,
            b.rng.choice(TEMPLATES),
            b.slug(),
            scope=scope,
            home_repo="alpha",
            history_repos=("alpha",),
            tags=["long_history"],
            ages=_LONG_AGO,
        )
    for k in range(LONG_HISTORY_FILLERS):
        _plant_filler(b, k, f"chore{k}", ages=_NEWER)
    for k in range(_CARRIERS):
        carried = tuple(range(k, canaries, _CARRIERS))
        _plant_filler(b, k, f"vault{k}", ages=_FAR_END, secrets=carried)
