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

import importlib
from typing import TYPE_CHECKING, Any

#: The one table of this module's names, as in ``plugin_api``: where each lives (a module,
#: or ``(module, attribute)`` when the attribute is named otherwise there, ``(module,
#: None)`` for that module itself). ``__all__`` is the table's names; the ``TYPE_CHECKING``
#: block below says the same to type checkers (tests/core/test_facades.py holds them equal).
_SOURCES: dict[str, str | tuple[str, str | None]] = {
    "cli": "loopx_recall_core.cli",
    "structure": "loopx_recall_core.contracts",
    "EVIDENCE_TYPES": "loopx_recall_core.contracts.historical",
    "ReplanSituationV0": "loopx_recall_core.contracts.replan",
    "guard_store": ("loopx_recall_core.guard.store", None),
    "guard_stats": "loopx_recall_core.guard.stats",
    "PluginHost": "loopx_recall_core.plugin.manager",
    "safe_readback": "loopx_recall_core.plugin.manager",
    "planted_canaries": "loopx_recall_core.qualification.canaries",
    "secret_canaries": "loopx_recall_core.qualification.canaries",
    "vendor_canaries": "loopx_recall_core.qualification.canaries",
    "build_corpus": "loopx_recall_core.qualification.corpus",
    "qualification_guard_arm": ("loopx_recall_core.qualification.guard_arm", None),
    "GUARDED_FAMILIES": "loopx_recall_core.qualification.guard_arm",
    "HOT_PATH_RUNS": "loopx_recall_core.qualification.guard_arm",
    "guard_kind_of": ("loopx_recall_core.qualification.guard_arm", "kind_of"),
    "qualification_harness": ("loopx_recall_core.qualification.harness", None),
    "QualificationError": "loopx_recall_core.qualification.harness",
    "run_qualification": "loopx_recall_core.qualification.harness",
    "total_steps": "loopx_recall_core.qualification.harness",
    "read_transcripts": "loopx_recall_core.qualification.native_transcripts",
    "Archive": "loopx_recall_core.qualification.transcripts",
    "append_session": "loopx_recall_core.qualification.transcripts",
    "generate_archive": "loopx_recall_core.qualification.transcripts",
    "build_request": "loopx_recall_core.recall.replan.situation_admission",
    "query_terms": "loopx_recall_core.recall.replan.terms",
    "redaction": ("loopx_recall_core.redaction", None),
    "QualificationVerdict": "loopx_recall_core.state",
    "StateStore": "loopx_recall_core.state",
    "transcript_rules": ("loopx_recall_core.transcript_rules", None),
}

__all__ = sorted(_SOURCES)

if TYPE_CHECKING:
    # ``X as X``: re-exported for type checkers; a name renamed here is bound below
    from loopx_recall_core import redaction as redaction
    from loopx_recall_core import transcript_rules as transcript_rules
    from loopx_recall_core.cli import cli as cli
    from loopx_recall_core.contracts import structure as structure
    from loopx_recall_core.contracts.historical import EVIDENCE_TYPES as EVIDENCE_TYPES
    from loopx_recall_core.contracts.replan import ReplanSituationV0 as ReplanSituationV0
    from loopx_recall_core.guard import store as _guard_store
    from loopx_recall_core.guard.stats import guard_stats as guard_stats
    from loopx_recall_core.plugin.manager import PluginHost as PluginHost
    from loopx_recall_core.plugin.manager import safe_readback as safe_readback
    from loopx_recall_core.qualification import guard_arm as _qualification_guard_arm
    from loopx_recall_core.qualification import harness as _qualification_harness
    from loopx_recall_core.qualification.canaries import planted_canaries as planted_canaries
    from loopx_recall_core.qualification.canaries import secret_canaries as secret_canaries
    from loopx_recall_core.qualification.canaries import vendor_canaries as vendor_canaries
    from loopx_recall_core.qualification.corpus import build_corpus as build_corpus
    from loopx_recall_core.qualification.guard_arm import GUARDED_FAMILIES as GUARDED_FAMILIES
    from loopx_recall_core.qualification.guard_arm import HOT_PATH_RUNS as HOT_PATH_RUNS
    from loopx_recall_core.qualification.guard_arm import kind_of as _guard_kind_of
    from loopx_recall_core.qualification.harness import QualificationError as QualificationError
    from loopx_recall_core.qualification.harness import run_qualification as run_qualification
    from loopx_recall_core.qualification.harness import total_steps as total_steps
    from loopx_recall_core.qualification.native_transcripts import (
        read_transcripts as read_transcripts,
    )
    from loopx_recall_core.qualification.transcripts import Archive as Archive
    from loopx_recall_core.qualification.transcripts import append_session as append_session
    from loopx_recall_core.qualification.transcripts import generate_archive as generate_archive
    from loopx_recall_core.recall.replan.situation_admission import build_request as build_request
    from loopx_recall_core.recall.replan.terms import query_terms as query_terms
    from loopx_recall_core.state import QualificationVerdict as QualificationVerdict
    from loopx_recall_core.state import StateStore as StateStore

    guard_store = _guard_store
    qualification_guard_arm = _qualification_guard_arm
    qualification_harness = _qualification_harness
    guard_kind_of = _guard_kind_of


def __getattr__(name: str) -> Any:
    if name not in _SOURCES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    source = _SOURCES[name]
    module, attribute = (source, name) if isinstance(source, str) else source
    value = importlib.import_module(module)
    if attribute is not None:
        value = getattr(value, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_SOURCES})
