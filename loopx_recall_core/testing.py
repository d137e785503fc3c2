# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""What a provider plugin's TESTS take from the host beyond :mod:`loopx_recall_core.plugin_api`.

A plugin's own code imports only ``plugin_api``; its tests also drive the host end to end
(the CLI, the state store, the qualification run, Replan's request builder) and generate
synthetic archives to search. They import those from here, one module, so the host's
inside can move without breaking a plugin's suite (``tests/core/test_house.py`` holds the
plugin's tests to ``plugin_api`` and this module)::

    from loopx_recall_core.testing import cli, generate_archive, StateStore

Nothing is imported until a name is used (PEP 562), as in ``plugin_api``. This module is
for tests: it stands above the whole host, and no product module imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from loopx_recall_core import redaction, transcript_rules
    from loopx_recall_core.cli import cli
    from loopx_recall_core.contracts import structure
    from loopx_recall_core.contracts.historical import EVIDENCE_TYPES
    from loopx_recall_core.contracts.replan import ReplanSituationV0
    from loopx_recall_core.guard import store as guard_store
    from loopx_recall_core.guard.stats import guard_stats
    from loopx_recall_core.plugin.manager import PluginHost, safe_readback
    from loopx_recall_core.qualification import guard_arm as qualification_guard_arm
    from loopx_recall_core.qualification import harness as qualification_harness
    from loopx_recall_core.qualification.canaries import (
        planted_canaries,
        secret_canaries,
        vendor_canaries,
    )
    from loopx_recall_core.qualification.corpus import build_corpus
    from loopx_recall_core.qualification.guard_arm import GUARDED_FAMILIES, HOT_PATH_RUNS
    from loopx_recall_core.qualification.guard_arm import kind_of as guard_kind_of
    from loopx_recall_core.qualification.harness import (
        QualificationError,
        run_qualification,
        total_steps,
    )
    from loopx_recall_core.qualification.native_transcripts import read_transcripts
    from loopx_recall_core.qualification.transcripts import (
        Archive,
        append_session,
        generate_archive,
    )
    from loopx_recall_core.recall.replan.situation_admission import build_request
    from loopx_recall_core.recall.replan.terms import query_terms
    from loopx_recall_core.state import QualificationVerdict, StateStore

#: Where each name lives; a name mapped to ``(module, None)`` is that module itself.
_SOURCES: dict[str, tuple[str, str | None]] = {
    "cli": ("loopx_recall_core.cli", "cli"),
    "structure": ("loopx_recall_core.contracts", "structure"),
    "EVIDENCE_TYPES": ("loopx_recall_core.contracts.historical", "EVIDENCE_TYPES"),
    "ReplanSituationV0": ("loopx_recall_core.contracts.replan", "ReplanSituationV0"),
    "guard_store": ("loopx_recall_core.guard.store", None),
    "qualification_guard_arm": ("loopx_recall_core.qualification.guard_arm", None),
    "qualification_harness": ("loopx_recall_core.qualification.harness", None),
    "redaction": ("loopx_recall_core.redaction", None),
    "guard_stats": ("loopx_recall_core.guard.stats", "guard_stats"),
    "PluginHost": ("loopx_recall_core.plugin.manager", "PluginHost"),
    "safe_readback": ("loopx_recall_core.plugin.manager", "safe_readback"),
    "planted_canaries": ("loopx_recall_core.qualification.canaries", "planted_canaries"),
    "secret_canaries": ("loopx_recall_core.qualification.canaries", "secret_canaries"),
    "vendor_canaries": ("loopx_recall_core.qualification.canaries", "vendor_canaries"),
    "build_corpus": ("loopx_recall_core.qualification.corpus", "build_corpus"),
    "GUARDED_FAMILIES": ("loopx_recall_core.qualification.guard_arm", "GUARDED_FAMILIES"),
    "HOT_PATH_RUNS": ("loopx_recall_core.qualification.guard_arm", "HOT_PATH_RUNS"),
    "guard_kind_of": ("loopx_recall_core.qualification.guard_arm", "kind_of"),
    "QualificationError": ("loopx_recall_core.qualification.harness", "QualificationError"),
    "run_qualification": ("loopx_recall_core.qualification.harness", "run_qualification"),
    "read_transcripts": ("loopx_recall_core.qualification.native_transcripts", "read_transcripts"),
    "total_steps": ("loopx_recall_core.qualification.harness", "total_steps"),
    "Archive": ("loopx_recall_core.qualification.transcripts", "Archive"),
    "append_session": ("loopx_recall_core.qualification.transcripts", "append_session"),
    "generate_archive": ("loopx_recall_core.qualification.transcripts", "generate_archive"),
    "build_request": ("loopx_recall_core.recall.replan.situation_admission", "build_request"),
    "query_terms": ("loopx_recall_core.recall.replan.terms", "query_terms"),
    "QualificationVerdict": ("loopx_recall_core.state", "QualificationVerdict"),
    "StateStore": ("loopx_recall_core.state", "StateStore"),
    "transcript_rules": ("loopx_recall_core.transcript_rules", None),
}


def __getattr__(name: str) -> Any:
    if name not in _SOURCES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    module, attribute = _SOURCES[name]
    value = importlib.import_module(module)
    if attribute is not None:
        value = getattr(value, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_SOURCES})


__all__ = [
    "EVIDENCE_TYPES",
    "GUARDED_FAMILIES",
    "HOT_PATH_RUNS",
    "Archive",
    "PluginHost",
    "QualificationError",
    "QualificationVerdict",
    "ReplanSituationV0",
    "StateStore",
    "append_session",
    "build_corpus",
    "build_request",
    "cli",
    "generate_archive",
    "guard_kind_of",
    "guard_stats",
    "guard_store",
    "planted_canaries",
    "qualification_guard_arm",
    "qualification_harness",
    "query_terms",
    "read_transcripts",
    "redaction",
    "run_qualification",
    "safe_readback",
    "secret_canaries",
    "structure",
    "total_steps",
    "transcript_rules",
    "vendor_canaries",
]
