# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""External-evidence-research v0: pure lifecycle functions and the provider inventory.

::

    discover(providers)                          -> loopx_external_evidence_discovery_v0
    plan(request, providers, preferred_provider_id=None)
                                                 -> loopx_external_evidence_plan_v0
    observe_receipt(plan, receipt)               -> loopx_external_evidence_receipt_observation_v0
    admit(plan, receipt, decision)               -> loopx_external_evidence_admission_v0
    retire(admission, downstream_source_refs=()) -> loopx_external_evidence_retirement_v0

Each takes and returns JSON-like data and raises :class:`EvidenceRejected` (a
``ValueError``) on any invalid input. The wire contract is LoopX's; ids match its
TypeScript owner byte for byte.
"""

from loopx_recall_core.external_evidence._input import (
    EvidenceRejected,
    error_record,
    presented_receipt,
)
from loopx_recall_core.external_evidence.inventory import (
    collect_inventory,
    inventory_file_rows,
    merge_rows,
    plugin_rows,
    registry_rows,
)
from loopx_recall_core.external_evidence.lifecycle import (
    admit,
    discover,
    observe_receipt,
    plan,
    retire,
)

__all__ = [
    "EvidenceRejected",
    "admit",
    "collect_inventory",
    "discover",
    "error_record",
    "inventory_file_rows",
    "merge_rows",
    "observe_receipt",
    "plan",
    "plugin_rows",
    "presented_receipt",
    "registry_rows",
    "retire",
]
