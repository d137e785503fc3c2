# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Replan v0 records: the typed situation Replan asks about, and the outcome it proposes.

``loopx_replan_situation_v0`` is what LoopX's Replan step knows when it considers asking
history (RFC sections 4 and 7): who and where (agent, project, repository, revision), the
trigger it asks under, the signals that justify that trigger, and the proposed next step.
It has no free-text field on purpose: query terms are derived from its canonical fields
(commands, repository-relative paths, error signatures, hypotheses), never from chat.

``loopx_replan_outcome_v0`` is the Replan outcome an agent proposes, with typed rationale
references; :mod:`loopx_recall_core.recall.replan.legality` judges it.

Record-local invariants live here (a ``command`` step has a command, an exhaustion has no
step); rules that join records (admission, comparison, legality) live in
:mod:`loopx_recall_core.recall.replan`. Paths in a situation are repository-relative
(a leading ``./`` is allowed); ``repository_root`` is an optional private hint used only to
relativize absolute paths inside commands and snippets, never a query term and never public.
"""

from __future__ import annotations

import re
import typing
from typing import Any, Literal

import attrs

from loopx_recall_core.contracts.fields import (
    FieldInvalid,
    field,
    optional,
    optional_text,
    text,
    text_field,
    texts,
    texts_schema,
)
from loopx_recall_core.contracts.historical import Revision, Trigger

__all__ = [
    "OUTCOME_KINDS",
    "RATIONALE_KINDS",
    "RECORDS",
    "STEP_KINDS",
    "Attempt",
    "Handoff",
    "Hypothesis",
    "OutcomeKind",
    "RationaleKind",
    "RationaleRef",
    "ReplanOutcomeV0",
    "ReplanSituationV0",
    "Step",
    "StepKind",
    "TriggerSignals",
]

_ID_UNITS = 256
_COMMAND_UNITS = 4096
_PATH_UNITS = 1024
_HYPOTHESIS_UNITS = 2048
_SIGNATURE_UNITS = 512
# A prior-item ref is ``session_ref`` (<= 512) or ``session_ref#message_ref`` (<= 1025).
_REF_UNITS = 1025
_MAX_ATTEMPTS = 32
_MAX_HYPOTHESES = 16
_MAX_PATHS = 32
_MAX_REFS = 16

StepKind = Literal["command", "edit", "probe", "hypothesis"]
AttemptOutcome = Literal["failed", "succeeded", "inconclusive"]
MissingEvidence = Literal["decision", "failure"]
OutcomeKind = Literal[
    "new_surface",
    "new_hypothesis",
    "new_probe",
    "grounded_successor",
    "newly_evidenced_blocker",
    "coverage_backed_exhaustion",
]
RationaleKind = Literal[
    "current_evidence",
    "comparison_verdict",
    "prior_item",
    "provider_result_count",
    "provider_no_results",
]

STEP_KINDS: tuple[str, ...] = typing.get_args(StepKind)
OUTCOME_KINDS: tuple[str, ...] = typing.get_args(OutcomeKind)
RATIONALE_KINDS: tuple[str, ...] = typing.get_args(RationaleKind)

# Absolute (POSIX or drive letter), home-relative, or a ".." segment: not repository-relative.
_NOT_RELATIVE = re.compile(r"\A(?:/|~|[A-Za-z]:[\\/]|\\\\)|(?:\A|/)\.\.(?:/|\Z)")


def _at_most(count: int, **kwargs: Any) -> Any:
    def check(_instance: Any, attribute: attrs.Attribute, value: tuple[Any, ...]) -> None:
        if len(value) > count:
            raise FieldInvalid(f".{attribute.name}", f"more than {count} items")

    return field(validator=check, schema={"maxItems": count}, **kwargs)


def _relative_paths(*, max_items: int, **kwargs: Any) -> Any:
    bounds = {"min_items": 0, "max_items": max_items, "max_units": _PATH_UNITS}
    bounded = texts(**bounds)

    def check(instance: Any, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
        bounded(instance, attribute, value)
        for index, path in enumerate(value):
            if _NOT_RELATIVE.search(path):
                raise FieldInvalid(f".{attribute.name}[{index}]", "must be repository-relative")

    return field(validator=check, schema=texts_schema(**bounds), **kwargs)


def _absolute_root(instance: Any, attribute: attrs.Attribute, value: str | None) -> None:
    if value is None:
        return
    text(_PATH_UNITS)(instance, attribute, value)
    if not value.startswith("/"):
        raise FieldInvalid(f".{attribute.name}", "must be an absolute POSIX path")


_ABSOLUTE_ROOT_SCHEMA = {"minLength": 1, "maxLength": _PATH_UNITS, "pattern": "^/"}


@attrs.frozen(kw_only=True)
class Step:
    """One route: a shell ``command``, an ``edit`` of files, a falsifiable ``probe`` (run as a
    command) or a ``hypothesis``. ``file_paths`` are the repository-relative files the step
    targets; for a command they are context, for an edit they are the route."""

    kind: StepKind
    command: str | None = optional_text(_COMMAND_UNITS)
    file_paths: tuple[str, ...] = _relative_paths(max_items=_MAX_PATHS, default=())
    hypothesis: str | None = optional_text(_HYPOTHESIS_UNITS)

    def __attrs_post_init__(self) -> None:
        if self.kind in ("command", "probe") and self.command is None:
            raise FieldInvalid(".command", f"required for a {self.kind} step")
        if self.kind == "edit" and not self.file_paths:
            raise FieldInvalid(".file_paths", "an edit step needs at least one path")
        if self.kind == "hypothesis" and self.hypothesis is None:
            raise FieldInvalid(".hypothesis", "required for a hypothesis step")


@attrs.frozen(kw_only=True)
class Attempt:
    """A recent attempt in the current packet, oldest first, with its outcome."""

    step: Step
    outcome: AttemptOutcome
    error_signature: str | None = optional_text(_SIGNATURE_UNITS)


@attrs.frozen(kw_only=True)
class Hypothesis:
    text: str = text_field(_HYPOTHESIS_UNITS)
    exhausted: bool


def _unique_missing(_instance: Any, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
    if len(set(value)) != len(value):
        raise FieldInvalid(f".{attribute.name}", "duplicate item")


@attrs.frozen(kw_only=True)
class Handoff:
    """A resume or handoff: who wrote the durable state, who continues, what is missing."""

    source_agent_id: str = text_field(_ID_UNITS)
    receiving_agent_id: str = text_field(_ID_UNITS)
    durable_state_identifies_work: bool
    missing_evidence: tuple[MissingEvidence, ...] = field(
        default=(), validator=_unique_missing, schema={"uniqueItems": True}
    )


@attrs.frozen(kw_only=True)
class TriggerSignals:
    """What justifies a trigger. Every default is the 'no signal' value."""

    attempts: tuple[Attempt, ...] = _at_most(_MAX_ATTEMPTS, default=())
    repeated_route: bool = False
    hypotheses: tuple[Hypothesis, ...] = _at_most(_MAX_HYPOTHESES, default=())
    prior_coverage: Literal["known", "unknown"] = "unknown"
    handoff: Handoff | None = optional()
    operator_requested: bool = False


@attrs.frozen(kw_only=True)
class ReplanSituationV0:
    schema_version: Literal["loopx_replan_situation_v0"]
    situation_id: str = text_field(_ID_UNITS)
    agent_id: str = text_field(_ID_UNITS)
    project_id: str = text_field(_ID_UNITS)
    repository_id: str = text_field(_ID_UNITS)
    revision: Revision | None = optional()
    repository_root: str | None = optional(validator=_absolute_root, schema=_ABSOLUTE_ROOT_SCHEMA)
    trigger: Trigger
    signals: TriggerSignals
    proposed_step: Step


@attrs.frozen(kw_only=True)
class RationaleRef:
    """One reason behind an outcome.

    * ``current_evidence``: an id of evidence LoopX holds now (a test run, a diff, a log).
    * ``comparison_verdict``: the comparison verdict of the proposed step, as its literal.
    * ``prior_item``: a result item, ``session_ref`` or ``session_ref#message_ref``.
    * ``provider_result_count`` / ``provider_no_results``: "the provider returned (no)
      results"; recorded so that a rationale resting only on them can be refused.
    """

    kind: RationaleKind
    ref: str = text_field(_REF_UNITS)


def _refs_bounded(_instance: Any, attribute: attrs.Attribute, value: tuple[Any, ...]) -> None:
    if not 1 <= len(value) <= _MAX_REFS:
        raise FieldInvalid(f".{attribute.name}", f"must hold 1..{_MAX_REFS} items")


_STEP_KINDS_FOR: dict[str, tuple[str, ...]] = {
    "new_hypothesis": ("hypothesis",),
    "new_probe": ("probe",),
    "grounded_successor": ("command", "edit", "probe"),
}


@attrs.frozen(kw_only=True)
class ReplanOutcomeV0:
    """A proposed Replan outcome. ``new_hypothesis``, ``new_probe`` and
    ``grounded_successor`` carry the step they propose; ``coverage_backed_exhaustion`` has
    none (no follow-up); ``new_surface`` and ``newly_evidenced_blocker`` may carry one."""

    schema_version: Literal["loopx_replan_outcome_v0"]
    situation_id: str = text_field(_ID_UNITS)
    kind: OutcomeKind
    rationale_refs: tuple[RationaleRef, ...] = field(
        validator=_refs_bounded, schema={"minItems": 1, "maxItems": _MAX_REFS}
    )
    step: Step | None = optional()

    def __attrs_post_init__(self) -> None:
        allowed = _STEP_KINDS_FOR.get(self.kind)
        if allowed is not None:
            if self.step is None:
                raise FieldInvalid(".step", f"required for {self.kind}")
            if self.step.kind not in allowed:
                raise FieldInvalid(".step.kind", f"must be {' | '.join(allowed)} for {self.kind}")
        if self.kind == "coverage_backed_exhaustion" and self.step is not None:
            raise FieldInvalid(".step", "an exhaustion has no follow-up step")


#: schema_version -> record class, for the schema generator and the CLI.
RECORDS: dict[str, type] = {
    "loopx_replan_outcome_v0": ReplanOutcomeV0,
    "loopx_replan_situation_v0": ReplanSituationV0,
}
