# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Our hooks in a TOML config file's inline ``[hooks]`` tables (a runtime record's hook file
of form ``toml``: Codex's ``config.toml``), for a user who keeps hooks there (``hook
install|uninstall <runtime>``; the JSON files: :mod:`.hook_install`; what our entries are:
:mod:`.hook_entries`).

What Codex documents, and what this relies on (developers.openai.com/codex/hooks and
/codex/config-advanced, checked 2026-12):

* Codex discovers hooks next to each active config layer in either of two forms,
  ``hooks.json`` or inline ``[hooks]`` tables in ``config.toml``; the user layer is
  ``~/.codex`` (``$CODEX_HOME``). Matching hooks from every file run. A layer holding
  both forms loads both and warns ("prefer one representation per layer"), so we write
  where the user already keeps hooks and never split them over two files.
* The inline tables have the JSON file's shape: ``[[hooks.<Event>]]`` is one
  ``{matcher?, hooks = [...]}`` group and ``[[hooks.<Event>.hooks]]`` one handler
  (``type = "command"``, ``command``, optional ``timeout`` in seconds, ``statusMessage``).
* Hooks are on by default (``[features] hooks = false`` turns them off; ``codex_hooks``
  is the deprecated key). Non-managed command hooks must be reviewed and trusted once
  before they run; Codex keeps per-hook enablement and trust in ``[hooks.state]``, which
  is not an event: we never read, write or count it (skillsaw's codex-hooks-valid rule
  describes that table).
* ``SessionStart`` (matcher on ``source``: ``startup``, ``resume``, ``clear``), ``Stop``,
  ``SessionEnd``,
  ``PreToolUse`` and ``PostToolUse`` (matcher on the tool name; shell calls are ``Bash``)
  are events; their stdin payloads are in :mod:`loopx_recall_core.guard`.

tomlkit keeps the user's text, comments and order byte for byte outside our own tables
(the standard library's ``tomllib`` reads TOML but cannot write it). It is imported here
only, and only by ``hook install|uninstall`` when they change a TOML file.
"""

from __future__ import annotations

import contextlib
import tomllib
from pathlib import Path
from typing import Any

__all__ = ["keeps_hooks", "merge", "unmerge"]

#: The comment heading each table of ours (``{runtime}``: the runtime's name).
_MARK = "added by `loopx-recall hook install`; `loopx-recall hook uninstall {runtime}` removes it"


def _what(runtime: str) -> str:
    """What messages call the runtime's TOML hooks file (its record's)."""
    from loopx_recall_core.runtimes import record

    files = [f.what for f in record(runtime).hook_files if f.form == "toml"]
    return files[0] if files else "the TOML hooks file"


def keeps_hooks(config: Path) -> bool:
    """True when ``config`` (a ``config.toml``) holds at least one hook event under
    ``[hooks]`` (``[hooks.state]``, Codex's own trust records, is no event)."""
    try:
        hooks = tomllib.loads(config.read_text(encoding="utf-8")).get("hooks")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return False  # tomllib recurses once per nesting level (a 500-deep array)
    return isinstance(hooks, dict) and any(
        isinstance(groups, list) for name, groups in hooks.items() if name != "state"
    )


def _parse(existing: bytes | None, runtime: str) -> Any:
    import tomlkit
    from tomlkit.exceptions import ParseError

    from loopx_recall_core.recall.hook_entries import InstallRefused

    what = _what(runtime)
    try:
        text = (existing or b"").decode("utf-8")
        document = tomlkit.parse(text)
    except UnicodeDecodeError:
        raise InstallRefused(f"{what} is not UTF-8 text") from None
    except ParseError as exc:
        raise InstallRefused(f"{what} is not valid TOML (line {exc.line})") from None
    except RecursionError:
        raise InstallRefused(f"{what} nests too deeply to be changed safely") from None
    hooks = document.get("hooks")
    if hooks is not None and (
        not isinstance(hooks, dict)
        or not all(isinstance(v, list) for k, v in hooks.items() if k != "state")
    ):
        raise InstallRefused(f"{what} has an unexpected shape at hooks")
    if isinstance(hooks, tomlkit.items.InlineTable):  # no table header can go inside one
        raise InstallRefused(f"{what} keeps hooks as one inline table; merge by hand (--print)")
    return document


def _events(hooks: Any) -> list[str]:
    return [name for name, groups in hooks.items() if name != "state" and isinstance(groups, list)]


def _remove_ours(document: Any, runtime: str) -> list[Any]:
    """Drop our handlers (a group or event we emptied goes too); returns them."""
    from loopx_recall_core.recall.hook_entries import is_ours

    hooks = document.get("hooks")
    removed: list[Any] = []
    if hooks is None:
        return removed
    for event in _events(hooks):
        groups = hooks[event]
        found = False
        for index in reversed(range(len(groups))):
            handlers = groups[index].get("hooks") if isinstance(groups[index], dict) else None
            if not isinstance(handlers, list):
                continue
            ours = [n for n, handler in enumerate(handlers) if is_ours(handler, runtime)]
            removed += [handlers[n] for n in ours]
            found = found or bool(ours)
            if ours and len(ours) == len(handlers):
                del groups[index]
            else:
                for n in reversed(ours):
                    del handlers[n]
        if found and not len(groups):
            del hooks[event]
    if removed and not len(hooks) and hooks.is_super_table():
        del document["hooks"]  # no [hooks] header of the user's: the table was ours
    return removed


def _group(document: Any, event: str, group: dict[str, Any], runtime: str) -> None:
    import tomlkit

    hooks = document.get("hooks")
    if hooks is None:
        hooks = document["hooks"] = tomlkit.table(is_super_table=True)
    if event not in hooks:
        hooks[event] = tomlkit.aot()
    groups = hooks[event]
    if not isinstance(groups, tomlkit.items.AoT):  # an inline array: an inline table in it
        groups.append(group)
        return
    table = tomlkit.table()
    table.add(tomlkit.comment(_MARK.format(runtime=runtime)))
    for key, value in group.items():
        if key != "hooks":
            table[key] = value
    handlers = tomlkit.aot()
    for handler in group["hooks"]:
        entry = tomlkit.table()
        for key, value in handler.items():
            entry[key] = value
        entry.add(tomlkit.nl())  # a blank line before whatever follows (removed with it)
        handlers.append(entry)
    table["hooks"] = handlers
    groups.append(table)


def merge(
    existing: bytes | None, runtime: str, agent_id: str, project_id: str, guard: bool
) -> bytes | None:
    """``config.toml`` with our groups (replacing our earlier ones); None: no change."""
    from loopx_recall_core.recall.hook_entries import settings_snippet

    raw = existing or b""
    without = unmerge(raw, runtime)[0] if raw else None
    base = raw if without is None else without  # ours out first, as uninstall takes them
    bare = bool(base) and not base.endswith(b"\n")
    # without a final newline our first table would be glued to the user's last line
    document = _parse(base + b"\n" if bare else base, runtime)
    for event, groups in settings_snippet(runtime, agent_id, project_id, guard)["hooks"].items():
        for group in groups:
            _group(document, event, group, runtime)
    new = document.as_string().encode("utf-8")
    if bare:
        new = _unglue(base, new)
    if new == raw or _same(new, raw):
        return None  # ours are there as install writes them: installing again changes nothing
    return new


def _same(new: bytes, raw: bytes) -> bool:
    try:
        return tomllib.loads(new.decode("utf-8")) == tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return False


def _unglue(raw: bytes, new: bytes) -> bytes:
    """The newline added after a last line that had none, taken out again wherever the
    text allows, so that a file with and one without a final newline merge differently
    (and uninstall can tell which it was): before a table appended after that line, the
    blank line tomlkit puts there is enough; at the end, the user's line ends the file."""
    if new.startswith(raw + b"\n\n"):
        return raw + new[len(raw) + 1 :]
    if new.endswith(b"\n" + raw.rsplit(b"\n", 1)[-1] + b"\n") or new == raw + b"\n":
        return new[:-1]
    return new


def unmerge(existing: bytes | None, runtime: str) -> tuple[bytes | None, list[Any]]:
    """``config.toml`` without our handlers (None: none there), and the handlers removed."""
    document = _parse(existing, runtime)
    removed = _remove_ours(document, runtime)
    if not removed:
        return None, removed
    left = document.as_string().encode("utf-8")
    return _as_before(left, existing or b"", removed, runtime), removed


def _as_before(left: bytes, merged: bytes, removed: list[Any], runtime: str) -> bytes:
    """``left`` (the file without our tables), minus what appending them added around
    the user's text, when that can be proven: tomlkit puts a blank line before a table it
    appends (and merge a newline after a last line without one); both stay behind when
    the table goes. The candidate whose merge gives back ``merged`` exactly is the file as
    it was; without one, ``left`` as it is."""
    from loopx_recall_core.recall.hook_entries import agent_project_pairs

    pairs = agent_project_pairs(removed)
    if len(pairs) != 1:
        return left
    # a blank line at the end is most often the one tomlkit put before our table (a file
    # ending in one newline is the common case; one ending in a blank line merges to the
    # same bytes): one newline less first; otherwise the file as it is first
    cuts = (1, 0, 2) if left.endswith(b"\n\n") else (0, 1)
    candidates = [left[: len(left) - cut] for cut in cuts if left.endswith(b"\n" * cut)]
    guarded = any(" guard " in str(handler.get("command", "")) for handler in removed)
    from loopx_recall_core.recall.hook_entries import InstallRefused

    for candidate in candidates:
        with contextlib.suppress(InstallRefused):  # a candidate that does not parse: not it
            if merge(candidate, runtime, *pairs[0], guarded) == merged:
                return candidate
    return left
