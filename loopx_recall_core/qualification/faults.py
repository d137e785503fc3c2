# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Fault probes: malformed runtime output and unknown options must give typed answers.

Every probe runs a product surface once and records only codes: the outcome reason, an
exception class or an exit status. A probe passes when it was *exercised* (the fault
really happened), the answer is *typed* (a reason code from ``REASON_CODES``, a
``ContractError``, a typed refusal) and *fail-open* (no exception reached the caller,
the comparison claimed nothing, nothing was stored or widened).

* runtime faults, through Replan and the recall service, each staged by the provider's
  qualification runtime (``fault_probes()``: typically a stand-in executable the binding
  is pointed at while the probe runs): ``garbage``, ``undefined``, ``empty``, ``error``,
  ``crash``, ``noise`` (malformed output), ``flood`` (oversize output), ``inject`` (rows
  from another repository and runtime: must be ``scope_violation``), ``hang`` (killed at a
  2 s deadline). A fault the provider cannot stage, or a staging that changes nothing, is
  "not exercised" and does not pass;
* ``unknown_request_field`` / ``unknown_situation_field``: a request or situation with an
  extra key is rejected by the strict converter before any provider call;
* ``unknown_enable_option``: enabling with an option the provider does not declare is
  refused (``CapabilityRefused``) and stores nothing;
* ``provider_bind_unknown_option`` (reported, not gated): the provider's own ``bind``
  given an undeclared key; enabling never passes one, so this shows whether the provider
  would also reject it for a caller that skips the host.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import attrs

from loopx_recall_core.contracts import (
    ContractError,
    HistoricalEvidenceRequestV0,
    structure,
    unstructure,
)
from loopx_recall_core.contracts.replan import ReplanSituationV0
from loopx_recall_core.plugin.records import FAULT_KINDS
from loopx_recall_core.qualification.arms import Counted
from loopx_recall_core.qualification.materialize import CaseView
from loopx_recall_core.recall.outcome import REASON_CODES, RecallOutcome
from loopx_recall_core.recall.replan.flow import Recaller, replan
from loopx_recall_core.recall.replan.situation_admission import build_request
from loopx_recall_core.recall.replan.terms import query_terms
from loopx_recall_core.recall.request_admission import Admitted
from loopx_recall_core.state import DEFAULT_CEILINGS, Enablement, LimitCeilings, StateStore

__all__ = ["RUNTIME_FAULTS", "FaultProbe", "run_probes"]

#: Every fault kind but ``stale``, which the corpus stages for its late-content family.
RUNTIME_FAULTS = tuple(kind for kind in FAULT_KINDS if kind != "stale")
HANG_TIMEOUT_S = 2.0
_UNKNOWN = "not_a_declared_option"


@attrs.frozen(kw_only=True)
class FaultProbe:
    name: str
    surface: str
    observed: str
    exercised: bool
    typed: bool
    fail_open: bool
    provider_calls: int = 0
    gated: bool = True

    @property
    def passed(self) -> bool:
        return self.exercised and self.typed and self.fail_open


#: The recall service for an enablement and a deadline (the harness's ``_Run.recall``).
RecallFor = Callable[[Enablement, float], Recaller]
#: A provider's staging of one fault (``plugin.protocols.FaultStage``).
Stage = Callable[[], AbstractContextManager[Callable[[Mapping[str, Any]], Mapping[str, Any]]]]


def _not_staged(fault: str) -> FaultProbe:
    return FaultProbe(
        name=fault,
        surface="runtime_output",
        observed="not_staged",
        exercised=False,
        typed=False,
        fail_open=True,
    )


def _runtime_probe(
    fault: str,
    view: CaseView,
    *,
    stage: Stage | None,
    provider_id: str,
    enablement: Enablement,
    recall_for: RecallFor,
) -> FaultProbe:
    if stage is None:
        return _not_staged(fault)
    timeout = HANG_TIMEOUT_S if fault == "hang" else 10.0
    counted: Counted | None = None
    try:
        with stage() as rewrite:
            staged = attrs.evolve(enablement, binding=dict(rewrite(enablement.binding)))
            counted = Counted(recall_for(staged, timeout))
            report = replan(view.situation, recall=counted)
    except Exception as exc:  # noqa: BLE001 - recorded as a failed probe (staging or replan)
        calls = counted.calls if counted is not None else 0
        return FaultProbe(
            name=fault,
            surface="runtime_output",
            observed=type(exc).__name__,
            exercised=calls > 0,
            typed=False,
            fail_open=False,
            provider_calls=calls,
        )
    outcome = report.outcome
    status = outcome.status if outcome is not None else "not_called"
    reason = outcome.reason if outcome is not None else None
    return FaultProbe(
        name=fault,
        surface="runtime_output",
        observed=f"{status}:{reason}" if reason else status,
        exercised=status != "succeeded",
        typed=status == "failed" and reason in REASON_CODES,
        fail_open=report.comparison.verdict == "undetermined",
        provider_calls=counted.calls,
    )


def _contract_probe(name: str, surface: str, attempt: Callable[[], object]) -> FaultProbe:
    try:
        attempt()
    except ContractError:
        return FaultProbe(
            name=name,
            surface=surface,
            observed="ContractError",
            exercised=True,
            typed=True,
            fail_open=True,
        )
    except Exception as exc:  # noqa: BLE001 - recorded as a failed probe
        observed, typed = type(exc).__name__, False
    else:
        observed, typed = "accepted", False
    return FaultProbe(
        name=name, surface=surface, observed=observed, exercised=True, typed=typed, fail_open=False
    )


def _enable_option_probe(provider_id: str, provider: Any) -> FaultProbe:
    # Where provider options enter the product: enabling, which takes only the options the
    # provider declares (the command line's parser knows no others either).
    from loopx_recall_core.recall.enablement import CapabilityRefused, enable

    with tempfile.TemporaryDirectory(prefix="loopx-qualify-state-") as state:
        try:
            enable(
                StateStore(Path(state)),
                provider,
                provider_id=provider_id,
                surface="replan-history",
                agent_id="probe",
                project_id="probe",
                stage=1,
                limits=LimitCeilings(**DEFAULT_CEILINGS),
                provider_options={_UNKNOWN: "x"},
                repository_id="probe",
                cwd=state,
            )
        except CapabilityRefused:
            observed, typed, crashed = "refused", True, False
        except Exception as exc:  # noqa: BLE001 - recorded as a failed probe
            observed, typed, crashed = type(exc).__name__, False, True
        else:
            observed, typed, crashed = "accepted", False, False
        stored = (Path(state) / "state.json").exists()
    return FaultProbe(
        name="unknown_enable_option",
        surface="enable_option",
        observed=observed,
        exercised=True,
        typed=typed,
        fail_open=not stored and not crashed,
    )


def _bind_probe(provider: Any, options: Mapping[str, Any], cwd: str) -> FaultProbe:
    try:
        provider.bind({**options, _UNKNOWN: "x"}, cwd=cwd)
    except ValueError:
        observed, typed = "rejected", True
    except Exception as exc:  # noqa: BLE001 - recorded
        observed, typed = type(exc).__name__, False
    else:
        observed, typed = "accepted", False
    return FaultProbe(
        name="provider_bind_unknown_option",
        surface="provider_bind",
        observed=observed,
        exercised=True,
        typed=typed,
        fail_open=True,
        gated=False,
    )


@attrs.frozen
class _MustNotBeCalled:
    """A recaller for a record that never reaches a provider: Replan contains its raising
    recall (a typed failure), so the probe then reads "accepted"."""

    provider_id: str
    enablements: tuple[Enablement, ...]

    def id_key(self) -> bytes | None:
        return None

    def admitted(self, _decision: Admitted) -> RecallOutcome:
        raise RuntimeError("a record with an unknown field reached the provider")


def run_probes(
    view: CaseView,
    *,
    stages: Mapping[str, Stage],
    provider_id: str,
    provider: Any,
    enablement: Enablement,
    bind_options: Mapping[str, Any],
    recall_for: RecallFor,
    progress: Callable[[int], None] = lambda _n: None,
) -> list[FaultProbe]:
    """Every probe on ``view`` (a case of the archive the provider is pointed at)."""
    probes: list[FaultProbe] = []
    for fault in RUNTIME_FAULTS:
        probes.append(
            _runtime_probe(
                fault,
                view,
                stage=stages.get(fault),
                provider_id=provider_id,
                enablement=enablement,
                recall_for=recall_for,
            )
        )
        progress(1)
    situation = structure(view.situation, ReplanSituationV0)
    request = unstructure(build_request(situation, query_terms(situation)))
    probes.append(
        _contract_probe(
            "unknown_request_field",
            "request",
            lambda: structure({**request, _UNKNOWN: True}, HistoricalEvidenceRequestV0),
        )
    )
    probes.append(
        _contract_probe(
            "unknown_situation_field",
            "situation",
            lambda: replan(
                {**view.situation, _UNKNOWN: True},
                recall=_MustNotBeCalled(provider_id, (enablement,)),
            ),
        )
    )
    probes.append(_enable_option_probe(provider_id, provider))
    probes.append(_bind_probe(provider, bind_options, str(situation.repository_root)))
    progress(4)
    return probes
