# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The shape of a runtime record (:mod:`loopx_recall_core.runtimes`). Tiny slotted
classes that take their fields by position or keyword: the guard's hot path imports the
records, so this imports nothing and builds no class at import time beyond these five
(``typing.NamedTuple`` costs about a millisecond per class there)."""

from __future__ import annotations

__all__ = ["HookFile", "OutputForm", "Runtime", "ShellTool", "Transcripts"]


class _Record:
    """Fields from ``__slots__`` (in order), set once by position or keyword."""

    __slots__ = ()

    def __init__(self, *args: object, **kwargs: object) -> None:
        names = self.__slots__
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}: too many fields")
        values = dict(zip(names, args, strict=False))
        if set(values) & set(kwargs) or set(kwargs) - set(names):
            raise TypeError(f"{type(self).__name__}: a field given twice or unknown")
        values.update(kwargs)
        missing = [n for n in names if n not in values]
        if missing:
            raise TypeError(f"{type(self).__name__}: missing {', '.join(missing)}")
        for name in names:
            object.__setattr__(self, name, values[name])

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("runtime records are read-only")

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"{type(self).__name__}({fields})"


class ShellTool(_Record):
    """A tool whose input is a shell command, as a transcript or hook payload names it."""

    __slots__ = ("name", "source")
    name: str
    #: Where the name was seen (a document, an observed run, the runtime's own binary).
    source: str


class OutputForm(_Record):
    """One way a runtime writes a shell call's exit status into its output text.
    ``pattern`` (a regular expression, compiled on first use) matches at the start of the
    text, group 1 the status; ``sample`` is a failed call's output in this form (exit 3,
    content synthetic), which the tests check the host and the plugin's query template
    both read as a failure."""

    __slots__ = ("name", "pattern", "sample", "source")
    name: str
    pattern: str
    sample: str
    source: str


class HookFile(_Record):
    """Where a runtime reads hooks for one install scope: ``path`` is relative to the
    runtime's config folder (``scope == "user"``) or to the repository root
    (``"project-local"``); ``form`` is ``json`` or ``toml``."""

    __slots__ = ("scope", "path", "form", "what")  # noqa: RUF023 - the positional order
    scope: str
    path: str
    form: str
    #: What messages call it ("the Claude Code settings file").
    what: str


class Transcripts(_Record):
    """Where a runtime writes its sessions' transcripts (one JSON Lines file a session),
    and how a file names its session.

    * ``folder``: under the home folder (``$HOME``; the runtime's own config variable does
      not move it for the index, which reads the home folder's);
    * ``layout``: ``"cwd"``, one folder per working folder, named by
      :func:`loopx_recall_core.runtimes.cwd_folder_name`; or ``"day"``, one folder per
      local start date (``YYYY/MM/DD``), with files of older versions loose in ``folder``;
    * ``name``: a session's file name, ``{id}`` where the runtime's session id stands;
    * ``session_from``: ``"file-name"`` (the id is the file's name less ``.jsonl``) or
      ``"first-line"`` (the first line's ``session_meta`` payload ``id``: a fork or
      sub-agent thread is a session of its own, as the runtime's hooks name it).
    """

    __slots__ = ("folder", "layout", "name", "session_from", "source")
    folder: str
    layout: str
    name: str
    session_from: str
    #: Where these facts were seen.
    source: str


class Runtime(_Record):
    """Everything the host knows about one agent runtime."""

    __slots__ = (
        "config_default", "config_env", "end_events", "end_events_source", "failure_event",
        "hook_events", "hook_files", "hook_matcher", "hook_timeout_s", "index_prefix", "name",
        "output_forms", "payload_keys", "post_tool_status", "shell_tools", "title",
        "transcripts", "trust",
    )  # fmt: skip

    #: The name everywhere: CLI arguments, the ledger, the index's ``source`` column.
    name: str
    #: The product's own name, for messages.
    title: str
    #: How the index names its sessions: ``prefix + <runtime's own id>``.
    index_prefix: str
    #: The runtime's config folder: the environment variable that moves it, and its
    #: default under the home folder (None: we install no hooks for this runtime).
    config_env: str | None
    config_default: str | None
    #: The files we install hooks into, by scope (empty: a history source only).
    hook_files: tuple[HookFile, ...]
    #: The events we install, in order; the command hook reads ``hook_event_name``.
    hook_events: tuple[str, ...]
    #: The events the runtime fires when a turn or a session ends, which ``hook install
    #: --guard`` adds to the claiming hook (``loopx-recall hook <runtime>``): there the
    #: agent's guard set is made, so the next session starts with one. Empty: the runtime
    #: sends none we can use (``end_events_source`` says why).
    end_events: tuple[str, ...]
    #: Where ``end_events`` (or their absence) was seen, and the payload keys observed.
    end_events_source: str
    #: The event the runtime fires after a failed call (None: it fires PostToolUse only).
    failure_event: str | None
    #: The matcher our tool hooks use (the shell tool's name in hook payloads).
    hook_matcher: str
    #: What the runtime allows a command hook installed without a ``timeout`` (ours) before
    #: it cancels it, in seconds (None: we install no hooks for it).
    hook_timeout_s: float | None
    #: The payload keys we read, per event (documentation and the tests' doubles).
    payload_keys: dict[str, tuple[str, ...]]
    shell_tools: tuple[ShellTool, ...]
    output_forms: tuple[OutputForm, ...]
    #: Where its transcripts are on disk (None: we read and write none of its files).
    transcripts: Transcripts | None
    #: How to trust freshly installed hooks (None: the runtime runs them as written).
    trust: str | None
    #: For a runtime whose PostToolUse carries no exit status: ``(transcript path, call
    #: id) -> status or None``, read from what the runtime wrote before the hook ran.
    post_tool_status: object
