# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``hook install|uninstall``: our lifecycle hooks in a runtime's hooks file.

Both runtimes read ``{"hooks": {"<Event>": [{"matcher": ..., "hooks": [{"type":
"command", "command": ...}]}]}}`` (Claude Code: ``~/.claude/settings.json`` or the
project's ``.claude/settings.local.json``; Codex: ``hooks.json`` in ``$CODEX_HOME`` or
``~/.codex``; facts and sources in :mod:`loopx_recall_core.guard`). We add a
``SessionStart`` group running ``loopx-recall hook <runtime>`` (it claims the session and
starts the guard's prefetch) and, with the guard, ``Stop`` and ``SessionEnd`` groups running
the same command (the agent's set for the next session), ``PreToolUse`` and ``PostToolUse`` groups
(Claude Code: ``PostToolUseFailure`` too; matcher ``Bash``) running ``loopx-recall guard
<runtime>``. A Codex user who keeps hooks inline in ``config.toml`` gets them there
(:mod:`.toml_hooks`). Our entries are recognised by their
command, exactly as :func:`hook_command` writes it, so installing again for another agent
or policy replaces them, and uninstalling removes exactly them (a user's handler that
merely starts the same way is the user's).

What our entries are (the command we write, how we know ours, the fragment we add) is
:mod:`.hook_entries`, which this module and :mod:`.toml_hooks` both read.

The user's file is edited in place (:mod:`.json_splice`; TOML: :mod:`.toml_hooks`): only
our entries' bytes change; it keeps its owner, mode and hard links; one backup beside it;
and uninstall gives back the original bytes when nothing else changed since install.

Long because: the user's file has one home here, from finding it (scope, the runtime
record, git's exclude file) through merging and removing our entries to writing it back
with its backup, owner and links.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from loopx_recall_core import runtimes
from loopx_recall_core.jsonio import JsonInputError, loads
from loopx_recall_core.recall.hook_entries import (
    InstallRefused,
    agent_project_pairs,
    command_ids,
    hook_command,
    is_ours,
    settings_snippet,
)

__all__ = [
    "InstallRefused",
    "command_ids",
    "default_path",
    "hook_command",
    "keep_out_of_git",
    "merge",
    "settings_snippet",
    "unmerge",
    "write_with_backup",
]


def what_file(runtime: str, form: str = "json") -> str:
    """What messages call the file (``json`` or ``toml``) a runtime's hooks live in."""
    files = [f for f in runtimes.record(runtime).hook_files if f.form == form]
    return files[0].what if files else "the hooks file"


def _parse(existing: bytes | None, runtime: str) -> dict[str, Any]:
    what = what_file(runtime)
    try:
        settings = loads(existing) if existing and existing.strip() else {}
    except JsonInputError as exc:  # its text already says "not valid JSON (line ...)"
        raise InstallRefused(f"{what} is {exc}") from None
    if not isinstance(settings, dict):
        raise InstallRefused(f"{what} must hold a JSON object ({{...}})")
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict) or not all(
        isinstance(groups, list) for groups in hooks.values()
    ):
        raise InstallRefused(f"{what} has an unexpected shape at hooks")
    return settings


def _without_ours(settings: dict[str, Any], runtime: str) -> tuple[dict[str, Any], list[dict]]:
    """``settings`` without our entries (a group or event we emptied goes too), and the
    entries removed."""
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return dict(settings), []
    removed: list[dict] = []
    kept_hooks: dict[str, Any] = {}
    for event, groups in hooks.items():
        kept_groups = []
        for group in groups:
            entries = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(entries, list):
                kept_groups.append(group)
                continue
            ours = [e for e in entries if is_ours(e, runtime)]
            removed += ours
            if not ours:
                kept_groups.append(group)
            elif len(ours) < len(entries):
                kept_groups.append({**group, "hooks": [e for e in entries if e not in ours]})
        if kept_groups or not groups:
            kept_hooks[event] = kept_groups
    result = dict(settings)
    if kept_hooks or not hooks or not removed:
        result["hooks"] = kept_hooks
    else:
        del result["hooks"]
    return result, removed


def merge(
    existing: bytes | None,
    runtime: str,
    agent_id: str,
    project_id: str,
    guard: bool,
    *,
    toml: bool = False,
) -> bytes | None:
    """The file with our entries (replacing any earlier ones of ours); None: no change.
    Only our entries' bytes change (:mod:`.json_splice`). ``toml``: the file is Codex's
    ``config.toml`` (:mod:`.toml_hooks`)."""
    if toml:
        from loopx_recall_core.recall import toml_hooks

        return toml_hooks.merge(existing, runtime, agent_id, project_id, guard)
    from loopx_recall_core.recall import json_splice

    settings = _parse(existing, runtime)
    _result, removed = _without_ours(settings, runtime)
    snippet = settings_snippet(runtime, agent_id, project_id, guard)["hooks"]
    present = settings.get("hooks", {})
    if sorted(map(json.dumps, removed)) == sorted(
        json.dumps(h) for groups in snippet.values() for g in groups for h in g["hooks"]
    ) and all(g in present.get(event, []) for event, groups in snippet.items() for g in groups):
        return None  # ours are there as install writes them, wherever the user's now sit
    text = _text(existing)
    text, _count = json_splice.remove_handlers(text, lambda h: is_ours(h, runtime))
    new = json_splice.add_groups(text, snippet).encode("utf-8")
    return None if new == (existing or b"") else new


def _text(existing: bytes | None) -> str:
    return (existing or b"").decode("utf-8")  # _parse has checked it is UTF-8


def unmerge(
    existing: bytes | None, runtime: str, *, toml: bool = False
) -> tuple[bytes | None, list[tuple[str, str]]]:
    """The file without our entries (None: none there), and the (agent, project) pairs
    they named."""
    if toml:
        from loopx_recall_core.recall import toml_hooks

        new, removed = toml_hooks.unmerge(existing, runtime)
        return new, agent_project_pairs(removed)
    from loopx_recall_core.recall import json_splice

    settings = _parse(existing, runtime)
    _result, removed = _without_ours(settings, runtime)
    if not removed:
        return None, []
    text, _count = json_splice.remove_handlers(_text(existing), lambda h: is_ours(h, runtime))
    return text.encode("utf-8"), agent_project_pairs(removed)


def _repository_root(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return None


#: The runtimes' project-local hook files, relative to the repository root (the records':
#: Claude Code's personal ``.claude/settings.local.json``); each is kept out of git by one
#: exclude line, anchored at the root (``/`` + the path).
LOCAL_FILES = tuple(
    f.path for r in runtimes.RECORDS.values() for f in r.hook_files if f.scope == "project-local"
)


def _exclude_file(root: Path) -> Path | None:
    """Where git keeps the exclude file of the repository at ``root``, asked of git
    (``git rev-parse --git-path info/exclude``: a linked worktree or a submodule keeps it
    in its common git folder, not under ``.git``), and only when it lies inside that
    repository's own git folder (``--git-common-dir``): a ``.git`` file naming some other
    folder that git does not take for a repository is never followed. None otherwise."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--path-format=absolute",
             "--git-common-dir", "--git-path", "info/exclude"],
            capture_output=True, text=True, timeout=30, check=False,
            stdin=subprocess.DEVNULL, env=env,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = done.stdout.splitlines()
    if done.returncode != 0 or len(lines) != 2:
        return None
    common = Path(lines[0])
    if common.is_symlink() or not common.is_dir():
        return None
    common = common.resolve()
    exclude = Path(lines[1])
    try:
        folder = exclude.parent.resolve(strict=False)
    except OSError:
        return None
    if folder != common / "info" or exclude.name != "exclude":
        return None
    return folder / "exclude"


def keep_out_of_git(settings: Path) -> bool:
    """A project-local hooks file (:data:`LOCAL_FILES`: Claude Code's
    ``.claude/settings.local.json``) is personal (our hook names this machine's venv and
    the agent); Claude Code has git ignore it when it creates it, and so do we: unless a
    ``.gitignore`` at the root or beside it, or the clone's ``info/exclude``, already names
    it, add it to ``info/exclude`` (this clone only, nothing committed). True when a line
    was added."""
    local = next((p for p in LOCAL_FILES if settings.as_posix().endswith("/" + p)), None)
    if local is None:
        return False
    root = Path(settings.as_posix()[: -len(local) - 1])
    exclude = _exclude_file(root)
    if exclude is None:
        return False
    for listed in (root / ".gitignore", settings.parent / ".gitignore", exclude):
        try:
            if settings.name in listed.read_text(encoding="utf-8", errors="replace"):
                return False
        except OSError:
            continue
    try:
        exclude.parent.mkdir(exist_ok=True)  # info/ only: never the git folder itself
        if exclude.is_symlink():
            return False
        before = exclude.read_bytes() if exclude.exists() else b""
        line = ("" if not before or before.endswith(b"\n") else "\n") + f"/{local}\n"
        fd = os.open(exclude, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(line)
    except OSError:
        return False
    return True


def default_path(runtime: str, scope: str) -> Path:
    """The runtime record's hooks file for ``scope`` (:func:`runtimes.hook_file`): Claude
    Code ``$CLAUDE_CONFIG_DIR/settings.json`` else ``~/.claude/settings.json`` (user) or
    ``<repository root>/.claude/settings.local.json`` (project-local, not committed);
    Codex ``$CODEX_HOME/hooks.json`` else ``~/.codex/hooks.json`` (user only)."""
    rec = runtimes.record(runtime)
    if not any(f.scope == scope for f in rec.hook_files):
        raise InstallRefused(
            f"{rec.title} hooks are installed with --scope user (or name --settings)"
        )
    root = None
    if scope != "user":
        root = _repository_root(Path.cwd())
        if root is None:
            raise InstallRefused(
                f"--scope {scope} needs a git repository here (or use --scope user)"
            )
    return runtimes.hook_file(runtime, scope, "json", root)


def config_keeps_hooks(hooks_file: Path) -> bool:
    """True when ``config.toml`` beside ``hooks_file`` keeps hook events inline
    (``[hooks]``; Codex's own ``[hooks.state]`` is no event): then the user keeps them
    there, and ours go there too rather than splitting them over two files."""
    from loopx_recall_core.recall.toml_hooks import keeps_hooks

    return keeps_hooks(hooks_file.parent / "config.toml")


#: The one backup beside the file: what it held before our last change to it.
BACKUP_SUFFIX = ".loopx-backup"


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def _read_backup(path: Path) -> bytes | None:
    from loopx_recall_core.private_files import StateError, read_file

    try:
        return read_file(backup_path(path), 4_000_000, "the backup")
    except StateError:
        return None


def original_if_unchanged(
    path: Path, existing: bytes | None, runtime: str, *, toml: bool = False
) -> bytes | None:
    """The backup's bytes when the file is exactly what ``hook install`` made of them
    (nothing else changed since): uninstall then gives the user's own bytes back, even
    where removing ours alone cannot (an empty file, an empty ``{}`` or ``[]``)."""
    backup = _read_backup(path)
    if backup is None or existing is None:
        return None
    try:
        if unmerge(backup, runtime, toml=toml)[0] is not None:
            return None  # the backup holds entries of ours: not the user's original
        pairs = unmerge(existing, runtime, toml=toml)[1]
        if len(pairs) != 1:
            return None
        guarded = b" guard " + runtime.encode() in existing
        for guard in (guarded, not guarded):
            if merge(backup, runtime, *pairs[0], guard, toml=toml) == existing:
                return backup
    except InstallRefused:
        return None
    return None


def made_from_nothing(
    path: Path, existing: bytes | None, runtime: str, *, toml: bool = False
) -> bool:
    """True when the file is exactly what ``hook install`` writes where there was no file,
    and the backup beside it, if any, is too (an install again, e.g. with ``--guard``):
    uninstall then takes both away, as it was (removing ours alone would leave a ``{}`` of
    ours behind)."""
    if toml or existing is None:
        return False
    backup = _read_backup(path)
    try:
        return _as_install_made_it(existing, runtime) and (
            backup is None or _as_install_made_it(backup, runtime)
        )
    except InstallRefused:
        return False


def _as_install_made_it(data: bytes, runtime: str) -> bool:
    pairs = unmerge(data, runtime)[1]
    return len(pairs) == 1 and any(
        merge(None, runtime, *pairs[0], guard) == data for guard in (True, False)
    )


def needs_backup(path: Path, existing: bytes | None, runtime: str, *, toml: bool) -> bool:
    """Install keeps the file as the user had it: a new backup when the file holds none of
    ours (or there is none yet); when it holds ours, the backup from before them stays."""
    if existing is None:
        return False
    try:
        has_ours = unmerge(existing, runtime, toml=toml)[0] is not None
    except InstallRefused:
        has_ours = False
    return not has_ours or _read_backup(path) is None


def check_writable(path: Path) -> None:
    """InstallRefused unless ``path`` can be written as we write it (checked for every
    file before any is written)."""
    if path.is_symlink() or path.parent.is_symlink():
        raise InstallRefused(
            "the hooks file or its folder is a symbolic link; refusing to write through "
            "it (merge by hand, see --print)"
        )
    mode = path.stat().st_mode & 0o777 if path.exists() else None
    if mode is not None and not mode & 0o200:  # its owner made it read-only: not ours to undo
        raise InstallRefused(
            "the hooks file is read-only; make it writable or merge by hand (--print)"
        )


def write_with_backup(
    path: Path, new: bytes, existing: bytes | None, *, backup: bool = True
) -> Path | None:
    """Write ``new`` to ``path``, keeping ``existing`` as THE backup beside it (one file,
    ``<name>.loopx-backup``, replaced, never one per run) when ``backup``; returns its
    path. The user's file keeps its owner, group and mode (run as root for another user's
    HOME, it stays theirs), and a file with other hard links is written in place so every
    link still shows it; otherwise it is replaced atomically."""
    from loopx_recall_core.private_files import write_atomic

    check_writable(path)
    before = path.stat() if path.exists() else None
    path.parent.mkdir(parents=True, exist_ok=True)
    kept = None
    if existing is not None and backup:
        kept = backup_path(path)
        write_atomic(path.parent, kept.name, existing, prefix=".loopx-", what="a backup")
        _keep_owner(kept, before, 0o600)
    if before is not None and before.st_nlink > 1:
        _write_in_place(path, new)
    else:
        write_atomic(path.parent, path.name, new, prefix=".loopx-", what="the hooks file")
        _keep_owner(path, before, None)
    return kept


def _keep_owner(path: Path, before: os.stat_result | None, mode: int | None) -> None:
    if before is None:
        return
    os.chmod(path, mode if mode is not None else before.st_mode & 0o7777,
             follow_symlinks=False)  # fmt: skip
    now = path.stat()
    if (now.st_uid, now.st_gid) != (before.st_uid, before.st_gid):
        try:
            os.chown(path, before.st_uid, before.st_gid, follow_symlinks=False)
        except OSError:
            raise InstallRefused(
                "cannot give the hooks file back to its owner; run as its owner"
            ) from None


def _write_in_place(path: Path, new: bytes) -> None:
    """Overwrite the file itself (same inode: its hard links, owner and mode stay)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW)
        try:
            os.ftruncate(fd, 0)
            view = memoryview(new)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise InstallRefused(f"cannot write the hooks file ({exc.strerror})") from None
