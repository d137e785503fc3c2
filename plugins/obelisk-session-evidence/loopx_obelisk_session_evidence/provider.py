# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The provider object the host talks to.

``capability status`` loads this module only to ask ``readback``: what only a recall
needs (the evidence checks, the host's contracts and snippet rules) is imported by
``retrieve`` and ``_query`` when they run.

Long because: the provider's three answers (readback, one recall, a run of pages) share
one query, one deadline and one set of refusals (a release outside the range, a runtime
that does not answer, a failed call); splitting them would split those too.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from loopx_obelisk_session_evidence import PROVIDER_ID, __version__
from loopx_obelisk_session_evidence.adapter import (
    LOWEST_ACCEPTED,
    TEMPLATE_DIGEST,
    TEMPLATE_VERSION,
    MissingColumns,
    UnsupportedRelease,
    acceptance,
    call_template,
    release_text,
)
from loopx_obelisk_session_evidence.binding import BINDING_OPTIONS, DEFAULT_WINDOW_DAYS, bind
from loopx_obelisk_session_evidence.escapes import current_escapes
from loopx_obelisk_session_evidence.executable import (
    binary_identity,
    binding_key,
    cache,
    cached_facts,
    find_obelisk,
    forget_version,
    known_version,
    note_query_seconds,
    query_seconds,
    schema_verdict,
    store_facts,
    store_schema_verdict,
)
from loopx_obelisk_session_evidence.qualification import ObeliskQualification, identity_of
from loopx_obelisk_session_evidence.scope import (
    Window,
    claimed_index_ids,
    roots_of,
    session_aliases,
)
from loopx_recall_core.plugin_api import (
    OUTPUT_WINDOW,
    BindingOption,
    ProviderFailure,
    ProviderReadback,
    RuntimeIdentity,
    SessionCandidate,
    digest,
    index_session_name,
)

if TYPE_CHECKING:
    from loopx_recall_core.plugin_api import (
        HistoricalEvidenceRequestV0,
        HistoricalEvidenceResultV0,
    )

STDOUT_CAP = 2 * 1024 * 1024
#: A run of pages (the guard's whole-window set): up to 640 pages of 64 rows of 2,000
#: characters at the ceilings, though a set's pages are compact (400 characters a row).
PAGES_STDOUT_CAP = 96 * 1024 * 1024
#: In-scope transcripts checked for freshness; beyond this the index cannot be called fresh.
MAX_TRANSCRIPTS = 2000
_READBACK_TIMEOUT_S = 20.0
#: What a readback may take when no query of this binary has been timed yet: the version
#: check, then one query (about 4.5 s on 0.2.4 and later from outside an agent session,
#: docs/obelisk-releases.md) with room for a loaded machine.
_READBACK_UNTIMED_S = 12.0
#: ``capability status``'s own floor for a readback (the host's STATUS_READBACK_S).
_STATUS_FLOOR_S = 3.0
#: The readback's ``--version`` check (``capability status`` answers within 5 s, issue 29):
#: a working Obelisk answers in well under a second; one that does not is named.
_READBACK_VERSION_TIMEOUT_S = 2.5
#: What ``extension list`` and ``capability status`` say when no Obelisk is found: how to
#: get it and how to point at it (no path: the configured one may be private).
#: Short (one terminal line or two): the rest is in the README and docs/real-obelisk.md.
HOW_TO_GET = (
    f"install Obelisk {release_text(LOWEST_ACCEPTED)} or later (`npm install -g "
    "@obelisk-apps/cli` or github.com/tommy0103/obelisk), then name it: on PATH, "
    "--obelisk-bin PATH or LOOPX_RECALL_OBELISK_BIN"
)
NOT_FOUND = f"obelisk not found: {HOW_TO_GET}"
#: The executable or the Node ``capability enable`` pinned is gone (an upgrade moved it, a
#: version manager dropped that Node): said as such, with the command that pins again.
_PIN_AGAIN = (
    "run `loopx-recall capability enable agent-turn-recall ...` again from a shell where "
    "`obelisk` runs (or with --obelisk-bin PATH): it pins the executable and its Node; "
    "--show-private shows both paths"
)
PINNED_GONE = f"the obelisk executable pinned at enable is gone: {_PIN_AGAIN}"
NODE_GONE = f"the Node pinned at enable for the obelisk launcher is gone: {_PIN_AGAIN}"
#: No index of one user's sessions holds more matching rows than this.
_MAX_COUNT = 2**31
#: Failures that say the runtime is unwell (not that a row was out of scope): status shows
#: them until the next readback, and the binary's version is probed again.
_RUNTIME_FAILURES = frozenset(
    {
        "provider_unavailable",
        "unsupported_runtime_version",
        "provider_timeout",
        "output_too_large",
        "malformed_output",
        "provider_failed",
    }
)


def _binary(binding: Mapping[str, Any] | None) -> str | None:
    """The obelisk executable for ``binding`` (its ``--obelisk-bin`` first), or None."""
    return find_obelisk((binding or {}).get("private", {}).get("obelisk_bin"))


def _executable(binding: Mapping[str, Any] | None) -> str:
    found = _binary(binding)
    if found is None:
        raise ProviderFailure("provider_unavailable")
    return found


def _query(
    executable: str,
    binding: Mapping[str, Any],
    *,
    deadline: float,
    terms: list[str],
    types: list[str],
    window: Window,
    max_snippet_chars: int,
    max_rows: int,
    excluded: list[str],
    claimed: list[str] | None = None,
    stdout_cap: int = 0,
    list_sessions: bool = False,
) -> tuple[dict[str, Any], str]:
    """One template run for ``binding``; returns the parsed result and its freshness.

    The transcript scan and the query share ``deadline`` (``time.monotonic()``).
    """
    from loopx_obelisk_session_evidence.evidence import freshness, in_scope_transcripts

    transcripts = in_scope_transcripts(binding, deadline, window, cache())
    given, resolved = roots_of(binding["private"])
    roots = {*given, *resolved}
    params = {
        "sources": list(binding["history_sources"]),
        "roots": sorted(r.rstrip("/") or "/" for r in roots),
        "escapes": current_escapes(binding, cache()),
        "exclude_paths": list(binding["private"].get("exclude_paths") or []),
        "terms": terms,
        "evidence_types": types,
        "exclude_sessions": excluded,
        "claimed_sessions": claimed,
        "since_ms": window.since_ms,
        "until_ms": window.until_ms,
        "max_snippet_chars": max_snippet_chars,
        "output_chars": OUTPUT_WINDOW,
        "max_rows": max_rows,
        "transcripts": transcripts[:MAX_TRANSCRIPTS],
        "echo": False,
        "list_sessions": list_sessions,
    }
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise ProviderFailure("provider_timeout")
    started = time.monotonic()
    try:
        result = call_template(executable, params, timeout=remaining,
                               stdout_cap=stdout_cap or STDOUT_CAP)  # fmt: skip
    except MissingColumns as lacking:
        _note_schema(executable, [], lacking.missing)
        raise
    finally:
        # What a query of this binary costs (a timed-out one at least that much): status
        # waits that long before it calls the binary unready (issue 41).
        _note_cost(executable, time.monotonic() - started)
    _note_schema(executable, result["schema_columns"], [])
    result = {**result, "query_ms": round((time.monotonic() - started) * 1000)}
    complete = len(transcripts) <= MAX_TRANSCRIPTS
    # The running sessions' own files change while we answer and are not history: they
    # say nothing about whether the index covers the history asked for.
    history = [t for t in transcripts[:MAX_TRANSCRIPTS] if not _running(t, excluded)]
    return result, freshness(result, history, complete=complete)


def _note_cost(executable: str, seconds: float) -> None:
    with contextlib.suppress(OSError):  # a binary that went away leaves nothing to remember
        note_query_seconds(binary_identity(executable), seconds)


def _note_schema(executable: str, columns: list[str], missing: list[str]) -> None:
    with contextlib.suppress(OSError):
        store_schema_verdict(binary_identity(executable), columns, missing)


def _release_said(executable: str, version: tuple[int, int, int]) -> str:
    """What status says of the release: accepted by its index's schema (and whether it was
    run here), or not yet checked against an index."""
    try:
        missing = schema_verdict(binary_identity(executable))
    except OSError:
        missing = None
    if missing == []:
        return acceptance(version)
    return (
        f"Obelisk {'.'.join(map(str, version))}: not refused; its index's schema is "
        "checked by the first query"
    )


def _indexed_sessions(
    binding: Mapping[str, Any], window: Window, deadline: float
) -> dict[tuple[str, str], int]:
    """{(runtime, session id): last message time in ``window``, epoch ms} for the sessions
    the index holds in ``binding``'s scope (the template's ``list_sessions``; a Codex
    session by its thread, as its hooks and candidates name it). Fails closed: any row
    outside the bound runtimes or the window, or of another shape, is malformed output."""
    result, _freshness = _query(
        _executable(binding), binding, deadline=deadline, terms=[], types=[], window=window,
        max_snippet_chars=1, max_rows=MAX_TRANSCRIPTS, excluded=[], list_sessions=True,
    )  # fmt: skip
    rows = result.get("sessions")
    if not isinstance(rows, list):
        raise ProviderFailure("malformed_output")
    sources = set(binding["history_sources"])
    found: dict[tuple[str, str], int] = {}
    for row in rows:
        if not isinstance(row, Mapping):
            raise ProviderFailure("malformed_output")
        source, session, last_ms = row.get("source"), row.get("session_id"), row.get("last_ms")
        if (source not in sources or not isinstance(session, str) or not session
                or type(last_ms) is not int
                or not window.since_ms - 1 <= last_ms <= window.until_ms + 1):  # fmt: skip
            raise ProviderFailure("malformed_output")
        name = session.removeprefix(index_session_name(source, ""))  # the runtime's own id
        found[(source, name)] = last_ms
    return found


def _running(transcript: str, excluded: list[str]) -> bool:
    """Whether ``transcript`` is an excluded session's file: Claude names it
    ``<sessionId>.jsonl``, Codex ``rollout-<time>-<thread id>.jsonl``."""
    stem = os.path.basename(transcript).removesuffix(".jsonl")
    return any(stem == name or stem.endswith("-" + name) for name in excluded if ":" not in name)


def _omitted(counts: object, types: list[str]) -> int:
    """The rows the template counted but did not return: one bounded count per type."""
    if not isinstance(counts, Mapping) or set(counts) - set(types):
        raise ProviderFailure("malformed_output")
    values = list(counts.values())
    if any(type(v) is not int or not 0 <= v <= _MAX_COUNT for v in values):
        raise ProviderFailure("malformed_output")
    return sum(values)


def _index_revision(result: Mapping[str, Any]) -> str:
    return "obelisk-index:" + digest(result.get("markers", [])).removeprefix("sha256:")


def _facts(result: Mapping[str, Any], index_freshness: str) -> dict[str, Any]:
    """What status shows of the index, remembered from the last readback or recall."""
    return {
        "freshness": index_freshness,
        "index_revision_digest": digest(_index_revision(result)),
        "query_ms": result.get("query_ms"),
        "taken_at": None,
    }


def _result(
    request: HistoricalEvidenceRequestV0,
    items: list[Any],
    omitted: int,
    *,
    index_revision: str,
    freshness: str,
    cross_agent_used: bool,
) -> HistoricalEvidenceResultV0:
    from loopx_recall_core.plugin_api import HistoricalEvidenceResultV0, ScopeApplied

    scope = request.scope
    return HistoricalEvidenceResultV0(
        schema_version="historical_evidence_result_v0",
        request_id=request.request_id,
        provider_id=PROVIDER_ID,
        provider_version=__version__,
        index_revision=index_revision,
        scope_applied=ScopeApplied(
            agent_id=scope.agent_id,
            project_id=scope.project_id,
            repository_id=scope.repository_id,
            cross_agent_used=cross_agent_used,
        ),
        freshness=freshness,
        items=tuple(items),
        truncated=omitted > 0,
        omitted_count=omitted,
    )


def _window(binding: Mapping[str, Any]) -> Window:
    return Window.last_days(int(binding.get("window_days", DEFAULT_WINDOW_DAYS)))


class ObeliskSessionEvidence:
    provider_id = PROVIDER_ID
    provider_version = __version__
    #: What text output says after a provider_unavailable outcome, or after a refused
    #: release (then the one line naming it and why).
    unavailable_hint = f"{HOW_TO_GET} (`loopx-recall extension list` says what is missing)"
    #: what text output says after an answer from an index that is behind the transcripts
    refresh_hint = "refresh the index with `obelisk --build`"

    def binding_options(self) -> list[BindingOption]:
        return list(BINDING_OPTIONS)

    def bind(self, options: Mapping[str, Any], *, cwd: str) -> Mapping[str, Any]:
        return bind(options, cwd=cwd)

    def session_candidates(
        self, binding: Mapping[str, Any], *, timeout: float
    ) -> list[SessionCandidate]:
        from loopx_obelisk_session_evidence.candidates import session_candidates

        window = _window(binding)

        def indexed(deadline: float) -> dict[tuple[str, str], int]:
            return _indexed_sessions(binding, window, deadline)

        return session_candidates(
            binding, window, timeout=timeout, indexed=indexed, cache=cache()
        )

    def qualification_runtime(self, home: Path) -> ObeliskQualification:
        return ObeliskQualification(home)

    def runtime_identity(
        self, binding: Mapping[str, Any] | None, *, timeout: float
    ) -> RuntimeIdentity | None:
        executable = _binary(binding)
        if executable is None:
            return None
        try:
            return identity_of(executable, timeout)
        except ProviderFailure:
            return None

    def readback_seconds(self, binding: Mapping[str, Any] | None) -> float:
        """How long this binding's readback needs now (``capability status`` bounds the
        readback with it, issue 41): no time of its own when the facts of the last call
        of the same binary and binding can be shown; else the version check and one
        query as long as the last query of this binary took, twice over, within the
        readback's 20 s; ``_READBACK_UNTIMED_S`` when none was timed yet. Reads the
        provider's cache only: it starts no process."""
        executable = _binary(binding)
        if executable is None or binding is None:
            return 0.0
        try:
            identity = binary_identity(executable)
        except OSError:
            return 0.0
        if cached_facts(binding_key(binding, identity)) is not None:
            return 0.0
        cost = query_seconds(identity)
        if cost is None:
            return _READBACK_UNTIMED_S
        return min(_READBACK_TIMEOUT_S, _READBACK_VERSION_TIMEOUT_S + 2 * cost + 1.0)

    def readback(self, binding: Mapping[str, Any] | None) -> ProviderReadback:
        base = {"provider_id": PROVIDER_ID, "version": __version__}
        executable = _binary(binding)
        private = (binding or {}).get("private") or {}
        runtime: dict[str, Any] = {
            "executable_found": executable is not None,
            # what `capability enable` pinned (the paths: --show-private), used whatever
            # the caller's PATH: the obelisk executable and the folder of its Node
            "executable_pinned": bool(private.get("obelisk_bin")),
            "node_pinned": bool(private.get("node_dir")),
            "template_version": TEMPLATE_VERSION,
            "template_digest": TEMPLATE_DIGEST,
        }
        if executable is None:
            return ProviderReadback(
                **base,
                ready=False,
                runtime=runtime,
                unavailable_reason=PINNED_GONE if private.get("obelisk_bin") else NOT_FOUND,
            )
        node_dir = private.get("node_dir")
        if node_dir and not os.access(os.path.join(node_dir, "node"), os.X_OK):
            runtime["node_found"] = False
            return ProviderReadback(**base, ready=False, runtime=runtime,
                                    unavailable_reason=NODE_GONE)  # fmt: skip
        # One deadline for the version check, the transcript scan and the query: what
        # the host gives this readback (readback_seconds), less a margin so a query that
        # overruns is named here rather than cut off by the host.
        budget = max(_STATUS_FLOOR_S, self.readback_seconds(binding)) - 0.5
        deadline = time.monotonic() + budget
        try:
            version, identity = known_version(executable, _READBACK_VERSION_TIMEOUT_S)
        except UnsupportedRelease as refused:
            # Every recall would be refused: never ready, and say which release and why.
            runtime["runtime_version"] = ".".join(map(str, refused.version))
            return ProviderReadback(
                **base, ready=False, runtime=runtime, unavailable_reason=refused.hint
            )
        except ProviderFailure as failure:
            silent = failure.reason == "provider_timeout"
            return ProviderReadback(
                **base,
                ready=False,
                runtime=runtime,
                unavailable_reason=f"obelisk did not answer --version within "
                f"{_READBACK_VERSION_TIMEOUT_S:g} s"
                if silent
                else failure.reason,
            )
        try:
            runtime["runtime_version"] = ".".join(map(str, version))
            if binding is None:
                runtime["release"] = _release_said(executable, version)
                return ProviderReadback(**base, ready=True, runtime=runtime)
            key = binding_key(binding, identity)
            facts = cached_facts(key)
            runtime["readback_source"] = "last_call" if facts is not None else "query"
            if facts is None:
                result, index_freshness = _query(
                    executable,
                    binding,
                    deadline=deadline,
                    terms=[],
                    types=[],
                    window=_window(binding),
                    max_snippet_chars=1,
                    max_rows=1,
                    excluded=[],
                )
                store_facts(key, _facts(result, index_freshness))
                facts = cached_facts(key) or _facts(result, index_freshness)
        except MissingColumns as lacking:
            # Its index lacks what the template reads: every recall would be refused.
            refused = lacking.refusal(version)
            runtime["release"] = refused.hint
            return ProviderReadback(
                **base, ready=False, runtime=runtime, unavailable_reason=refused.hint
            )
        except UnsupportedRelease as refused:
            # Every recall would be refused: never ready, and say which release and why.
            runtime["runtime_version"] = ".".join(map(str, refused.version))
            return ProviderReadback(
                **base, ready=False, runtime=runtime, unavailable_reason=refused.hint
            )
        except ProviderFailure as failure:
            return ProviderReadback(
                **base, ready=False, runtime=runtime, unavailable_reason=failure.reason
            )
        runtime["release"] = _release_said(executable, version)
        if isinstance(facts.get("refused"), str):
            runtime["release"] = facts["refused"]
            return ProviderReadback(
                **base, ready=False, runtime=runtime, unavailable_reason=facts["refused"]
            )
        runtime["index_revision_digest"] = facts.get("index_revision_digest")
        runtime["readback_taken_at"] = facts.get("taken_at")
        runtime["query_ms"] = facts.get("query_ms")
        # How many links under the roots lead outside them (their paths are left out).
        runtime["escaping_links"] = len(binding["private"].get("escapes") or [])
        if isinstance(facts.get("failure"), str):
            return ProviderReadback(
                **base,
                ready=False,
                runtime=runtime,
                unavailable_reason=f"the last call failed: {facts['failure']}",
            )
        return ProviderReadback(
            **base,
            ready=True,
            runtime=runtime,
            freshness=facts.get("freshness"),
        )

    def retrieve(
        self,
        request: HistoricalEvidenceRequestV0,
        binding: Mapping[str, Any],
        *,
        timeout: float,
        exclude_sessions: tuple[str, ...] = (),
    ) -> HistoricalEvidenceResultV0:
        return self.retrieve_pages(
            [request], binding, timeout=timeout, exclude_sessions=exclude_sessions
        )[0]

    def retrieve_pages(
        self,
        requests: Sequence[HistoricalEvidenceRequestV0],
        binding: Mapping[str, Any],
        *,
        timeout: float,
        exclude_sessions: tuple[str, ...] = (),
    ) -> list[HistoricalEvidenceResultV0]:
        """One template run (one Obelisk process) for a run of page requests that differ
        only in their ids (the host's PagedRecallProvider): the rows of all pages asked
        for at once, verified, then cut into pages in order."""
        from loopx_obelisk_session_evidence.evidence import capped_items, paged_items, verify_rows

        request = requests[0]

        # One wall-clock budget for the version check, the transcript scan and the query.
        deadline = time.monotonic() + timeout
        executable = _executable(binding)
        try:
            version, identity = known_version(executable, min(timeout, 10.0))
        except UnsupportedRelease as refused:
            self.unavailable_hint = refused.hint  # refused before any query
            raise
        limits = request.limits
        window = _window(binding)
        excluded = session_aliases(list(exclude_sessions), binding["history_sources"])
        types = list(request.evidence_types)
        # Claimed agent sessions: the host's list, applied in SQL and again on every row.
        claimed = claimed_index_ids(binding)
        try:
            result, index_freshness = _query(
                executable,
                binding,
                deadline=deadline,
                terms=list(request.query_terms),
                types=types,
                window=window,
                max_snippet_chars=limits.max_snippet_chars,
                max_rows=limits.max_items * len(requests),
                excluded=excluded,
                claimed=claimed,
                stdout_cap=STDOUT_CAP if len(requests) == 1 else PAGES_STDOUT_CAP,
            )
        except MissingColumns as lacking:
            # Refused by what its index offers: one line naming the missing columns.
            refused = lacking.refusal(version)
            self.unavailable_hint = refused.hint
            store_facts(
                binding_key(binding, identity),
                {"failure": refused.reason, "refused": refused.hint},
            )
            raise refused from None
        except ProviderFailure as failure:
            if failure.reason in _RUNTIME_FAILURES:
                store_facts(binding_key(binding, identity), {"failure": failure.reason})
                forget_version(identity)
            raise
        allowed = frozenset(claimed) if claimed is not None else None
        verify_rows(result["evidence"], types, binding, window, excluded, allowed)
        omitted = _omitted(result["omitted"], types)
        store_facts(binding_key(binding, identity), _facts(result, index_freshness))
        files = result.get("indexed_files")
        transcripts = [f.get("jsonl_path") for f in files if isinstance(f, dict)] if isinstance(
            files, list) else []  # fmt: skip
        roots = [root for found in roots_of(binding["private"]) for root in found]
        if len(requests) == 1:  # one answer: what fits the limits, skipping what does not
            items, capped = capped_items(result["evidence"], types, limits, transcripts, roots)
            pages = [(items, capped)]
        else:
            pages = paged_items(
                result["evidence"], types, limits, len(requests), transcripts, roots
            )
        return [
            _result(
                page_request,
                items,
                omitted + following,
                index_revision=_index_revision(result),
                freshness=index_freshness,
                cross_agent_used=claimed is None,  # runtime identity cannot exclude others
            )
            for page_request, (items, following) in zip(requests, pages, strict=False)
        ]
