# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Small records a provider plugin returns to the host (readback, binding options, and the
Stage 0 qualification records: :class:`CorpusScope`, :class:`RuntimeIdentity`,
:data:`FAULT_KINDS`)."""

from __future__ import annotations

from typing import Any, Literal

import attrs

from loopx_recall_core.contracts.fields import text

__all__ = [
    "FAULT_KINDS",
    "BindingOption",
    "CorpusScope",
    "ProviderFailure",
    "ProviderReadback",
    "RuntimeIdentity",
    "SessionCandidate",
]

RuntimeValue = str | int | bool | None


@attrs.frozen(kw_only=True)
class ProviderReadback:
    """A provider's lifecycle readback, public-safe by construction.

    ``runtime`` holds facts such as ``executable_found``, ``runtime_version``,
    ``index_revision_digest`` or ``template_version``: never paths, terms or snippets.
    """

    provider_id: str = attrs.field(validator=text(96))
    version: str = attrs.field(validator=text(64))
    declared: bool = True
    installed: bool = True
    ready: bool
    unavailable_reason: str | None = None
    freshness: Literal["fresh", "stale", "incomplete", "unknown"] | None = None
    runtime: dict[str, RuntimeValue] = attrs.field(factory=dict)

    def __attrs_post_init__(self) -> None:
        if not self.ready and not self.unavailable_reason:
            raise ValueError("a provider that is not ready must say why")

    def as_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen(kw_only=True)
class BindingOption:
    """One ``loopx-recall capability enable`` option a provider declares.

    ``name`` is the long option without dashes (``journal-dir``); ``choices`` limits its
    values; ``multiple`` makes it repeatable; ``private`` marks values kept out of status.
    """

    name: str
    help: str
    multiple: bool = False
    choices: tuple[str, ...] | None = None
    is_int: bool = False
    private: bool = False


class ProviderFailure(Exception):
    """Raised by a provider for a typed failure the host reports as such.

    ``reason`` is a code from ``loopx_recall_core.recall.outcome.REASON_CODES`` (e.g.
    ``provider_unavailable``, ``unsupported_runtime_version``, ``malformed_output``).
    The exception message is never shown; put nothing private in it anyway.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


#: The runtime faults Stage 0 asks a provider to stage (``QualificationRuntime.fault_probes``).
#: ``garbage``: output that is not JSON; ``undefined``: the bare word a script returning
#: nothing prints; ``empty``: no output, exit 0; ``error``: the runtime's error envelope,
#: exit 1; ``crash``: half an answer, then an abort; ``noise``: log lines before a real
#: answer; ``flood``: endless output; ``inject``: a real answer plus a row from another
#: repository and runtime; ``hang``: never answers; ``stale``: real answers from an index
#: that is not refreshed (the host stages it for its late-content family, not as a probe).
FAULT_KINDS = (
    "garbage",
    "undefined",
    "empty",
    "error",
    "crash",
    "noise",
    "flood",
    "inject",
    "hang",
    "stale",
)


@attrs.frozen(kw_only=True)
class CorpusScope:
    """The scope of one synthetic Stage 0 case, as the host describes it.

    ``runtimes``: agent runtimes whose sessions count (``claude``, ``codex``); ``roots``:
    absolute repository roots inside the archive; ``window_days``: how far back history
    counts; ``cwd``: the folder the agent works in (one of the roots).
    """

    runtimes: tuple[str, ...]
    roots: tuple[str, ...]
    window_days: int
    cwd: str


@attrs.frozen(kw_only=True)
class SessionCandidate:
    """A session of a bound runtime in the bound repository and window, found on disk by
    the provider (``session_candidates``): whether anyone claimed it is the host's to say.
    ``session_id`` is the runtime's own id (what a hook or ``session claim`` names);
    ``first_words`` is the start of the first user prompt, for the owner's terminal only."""

    runtime: str = attrs.field(validator=text(32))
    session_id: str = attrs.field(validator=text(256))
    started_at: str | None = None
    last_activity: str | None = None
    first_words: str | None = None


@attrs.frozen(kw_only=True)
class RuntimeIdentity:
    """Which runtime a Stage 0 verdict was earned on: its version and a digest of the
    executable (``sha256:...``). Public-safe: no path."""

    runtime_version: str = attrs.field(validator=text(64))
    binary_digest: str = attrs.field(validator=text(80))

    @property
    def key(self) -> str:
        return f"{self.runtime_version} {self.binary_digest}"
