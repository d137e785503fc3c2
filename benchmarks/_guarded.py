# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""What the guard benchmarks set up alike: a state folder where the guard may answer
(not a benchmark itself; imported by guard_under_load.py, guard_long_history.py and
wrapper_routes.py after their own ``sys.path`` set-up, hence the imports inside)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path


def guard_on(
    state: Path,
    obelisk: Path,
    repo: Path,
    *,
    project_id: str,
    repository_id: str,
    agents: Sequence[str] = ("agent-a",),
    claims: Iterable[tuple[str, str]] = (),
) -> None:
    """A passing Stage 0 verdict for ``obelisk``'s identity; each of ``agents`` enabled at
    stage 2 for the Claude sessions in ``repo``; the guard warning for the first agent;
    each (agent, Claude session) of ``claims`` claimed."""
    import attrs
    from loopx_obelisk_session_evidence import PROVIDER_ID, __version__
    from loopx_obelisk_session_evidence.provider import ObeliskSessionEvidence
    from loopx_obelisk_session_evidence.qualification import identity_of

    from loopx_recall_core.guard.policy_change import set_guard
    from loopx_recall_core.recall import enablement as enabling
    from loopx_recall_core.recall.sessions.ledger import SessionLedger
    from loopx_recall_core.state import (
        DEFAULT_CEILINGS,
        LimitCeilings,
        QualificationVerdict,
        StateStore,
    )

    identity = identity_of(str(obelisk), 30)
    states = StateStore(state)
    with states.update() as box:
        verdict = QualificationVerdict(
            provider_id=PROVIDER_ID, provider_version=__version__, passed=True,
            report_digest="sha256:" + "0" * 64, recorded_at="2026-12-01T00:00:00Z",
            runtime_version=identity.runtime_version, binary_digest=identity.binary_digest,
        )  # fmt: skip
        box[0] = attrs.evolve(box[0], qualifications=(verdict,))
    for agent in agents:
        enabling.enable(states, ObeliskSessionEvidence(), provider_id=PROVIDER_ID,
                        surface="replan-history", agent_id=agent, project_id=project_id,
                        stage=2, limits=LimitCeilings(**DEFAULT_CEILINGS),
                        provider_options={"history_source": ("claude",),
                                          "repository_root": (str(repo),)},
                        repository_id=repository_id, cwd=str(repo))  # fmt: skip
    set_guard(states, agents[0], project_id, "warn")
    ledger = SessionLedger(state)
    for agent, session in claims:
        ledger.claim(agent_id=agent, project_id=project_id, runtime="claude",
                     session_id=session)  # fmt: skip
