# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Strict v0 contracts: attrs records and the one cattrs converter that builds them."""

from loopx_recall_core.contracts.converter import ContractError, structure, unstructure
from loopx_recall_core.contracts.historical import (
    EVIDENCE_TYPES,
    LIMIT_CEILINGS,
    TRIGGERS,
    EvidenceItem,
    HistoricalEvidenceReceiptV0,
    HistoricalEvidenceRequestV0,
    HistoricalEvidenceResultV0,
    Limits,
    Revision,
    Scope,
    ScopeApplied,
    result_problems,
)

__all__ = [
    "EVIDENCE_TYPES",
    "LIMIT_CEILINGS",
    "TRIGGERS",
    "ContractError",
    "EvidenceItem",
    "HistoricalEvidenceReceiptV0",
    "HistoricalEvidenceRequestV0",
    "HistoricalEvidenceResultV0",
    "Limits",
    "Revision",
    "Scope",
    "ScopeApplied",
    "result_problems",
    "structure",
    "unstructure",
]
