# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall cleanup``: everything loopx-recall wrote outside its distributions, listed,
and removed on request (issue 31 item 16).

What we write, and where (each found the way the code that writes it finds it):

* our hooks in the runtimes' hook files (:mod:`loopx_recall_core.recall.hook_install`):
  each runtime's user files (:func:`loopx_recall_core.runtimes.hook_file`) and the
  project-local ones at every repository root an enablement names and at this folder's
  repository; removed FIRST, so that no runtime is left running a hook into a state
  folder or an environment that is about to go (a hook whose program is gone fails every
  call);
* the one backup beside each such file (``<name>.loopx-backup``; older versions kept one
  per run, ``<name>.loopx-backup-<time>``);
* the line ``hook install --scope project-local`` adds to a clone's ``info/exclude``
  (listed, left: it only keeps a personal file out of git);
* copies of our LoopX manifests written with ``loopx manifest --into`` (the README's
  ``~/.config/loopx-recall-manifests``);
* the state folder (``loopx-recall state path``): enablements, verdicts, private results,
  the receipt key, the session ledger, the guard's sets, the hook log, reports; last.

Not ours, so listed with the command that removes them and never touched: LoopX's own
files (``~/.loopx``: ``loopx extension disable ID --execute``), provider extensions
(``loopx-recall extension uninstall NAME``) and this package (``pip uninstall``).

Every step of the way out says what it leaves and the command that removes it
(:func:`left`: ``capability disable``, ``hook uninstall``, ``extension uninstall``,
``cleanup --remove``).

The way out needs no install: this module runs on the standard library alone (``python3
-m loopx_recall_core.cleanup`` from a clone of this repository, :func:`main`), so hooks
whose ``loopx-recall`` is gone (a deleted venv: the runtime then fails every call, exit
127) are found and removed after the environment is. Without the package's dependencies
the enablements are read straight from ``state.json`` (for their repository roots),
``platformdirs``' default state folder is computed as it computes it, and a Codex
``config.toml`` holding our hooks is listed with what it needs (``tomlkit``).

Long because: the way out has one home, from finding what we wrote (with or without the
package's dependencies) through removing it to saying what each step leaves.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Item", "inventory", "left", "main", "remove", "render", "uninstall_command"]

#: The folder the README's LoopX section writes manifest copies to.
MANIFESTS = Path("~/.config/loopx-recall-manifests")
#: What cleanup does not remove: the installed packages (the last step of the way out).
PACKAGES = (
    "the installed packages: `loopx-recall extension uninstall NAME` for each extension "
    "(`loopx-recall extension list` names them), then `pip uninstall loopx-recall-core`, "
    "or delete the environment they are in"
)


@dataclass(frozen=True)
class Item:
    """One thing we wrote: ``kind`` says what, ``path`` where, ``action`` what ``--remove``
    does to it (``""``: nothing; ``how`` says how to remove it). Hooks also say whose
    (``runtime``, ``scope``, the (agent, project) ``pairs``) and ``gone``: the programs they
    run that are no longer there."""

    kind: str
    path: Path
    what: str
    action: str
    how: str = ""
    runtime: str = ""
    scope: str = ""
    pairs: tuple[tuple[str, str], ...] = ()
    gone: tuple[str, ...] = ()


def uninstall_command(runtime: str, scope: str) -> str:
    """The command that removes our hooks of ``runtime`` from the file of ``scope``."""
    local = " --scope project-local" if scope == "project-local" else ""
    return f"loopx-recall hook uninstall {runtime}{local}"


def _hook_files(roots: list[Path]) -> list[tuple[str, str, Path]]:
    from loopx_recall_core import runtimes

    found: list[tuple[str, str, Path]] = []
    for name in runtimes.HOOK_RUNTIMES:
        for entry in runtimes.record(name).hook_files:
            if entry.scope == "user":
                found.append((name, "user", runtimes.hook_file(name, "user", entry.form)))
            else:
                found += [(name, entry.scope,
                           runtimes.hook_file(name, entry.scope, entry.form, root))
                          for root in roots]  # fmt: skip
    return found


def _bindings() -> list[object]:
    """Every enablement's binding: through the state store, or (the package's dependencies
    missing: :func:`main` without an install) straight from ``state.json``, as the guard's
    hot path reads it. A damaged state folder gives none: the rest is still listed."""
    try:
        from loopx_recall_core.state import StateStore
    except ImportError:
        from loopx_recall_core.jsonio import loads
        from loopx_recall_core.private_files import read_file

        with contextlib.suppress(Exception):
            raw = read_file(_state_root() / "state.json", 16_000_000, "the loopx state file")
            state = loads(raw) if raw else {}
            entries = state.get("enablements", ()) if isinstance(state, dict) else ()
            return [e.get("binding") for e in entries if isinstance(e, dict)]
        return []
    with contextlib.suppress(Exception):
        return [enablement.binding for enablement in StateStore().read().enablements]
    return []


def _roots() -> list[Path]:
    """Repository roots: every enablement's, and this folder's repository's."""
    from loopx_recall_core.guard.repository_scope import repository_roots
    from loopx_recall_core.recall.hook_install import _repository_root

    roots = {Path(root) for binding in _bindings() for root in repository_roots(binding)}
    here = _repository_root(Path.cwd())
    if here is not None:
        roots.add(here)
    return sorted(roots)


def _state_root() -> Path:
    """The state folder; without ``platformdirs`` (no install) its Linux and macOS default,
    as ``platformdirs.user_state_path("loopx-recall", appauthor=False)`` makes it."""
    from loopx_recall_core.private_files import state_root

    try:
        return state_root()
    except ImportError:
        if sys.platform == "darwin":
            return Path("~/Library/Application Support/loopx-recall").expanduser()
        state = os.environ.get("XDG_STATE_HOME", "").strip()
        return Path(state if os.path.isabs(state) else "~/.local/state").expanduser() / (
            "loopx-recall"
        )


def _read(path: Path) -> bytes | None:
    from loopx_recall_core.private_files import StateError, read_file

    try:
        return read_file(path, 4_000_000, "a hooks file")
    except StateError:
        return None


def _programs_gone(existing: bytes, runtime: str, toml: bool) -> tuple[str, ...]:
    """The programs our hook commands in this file run that are not there (or not
    executable): a deleted or moved venv."""
    from loopx_recall_core.recall.hook_entries import command_ids
    from loopx_recall_core.recall.hook_health import _commands, _runs

    if toml:
        import tomllib

        try:
            hooks = tomllib.loads(existing.decode("utf-8")).get("hooks")
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError):
            return ()
    else:
        from loopx_recall_core.jsonio import JsonInputError, loads

        try:
            value = loads(existing)
        except JsonInputError:
            return ()
        hooks = value.get("hooks") if isinstance(value, dict) else None
    programs = {ids[0] for *_, command in _commands(hooks)
                if (ids := command_ids(command, runtime)) is not None}  # fmt: skip
    return tuple(sorted(p for p in programs if not _runs(p)))


def _hooks_item(runtime: str, scope: str, path: Path) -> Item | None:
    from loopx_recall_core.recall import hook_install

    existing = _read(path)
    if existing is None:
        return None
    toml = path.suffix == ".toml"
    try:
        pairs = hook_install.unmerge(existing, runtime, toml=toml)[1]
    except hook_install.InstallRefused:
        return None
    except ImportError:  # config.toml without tomlkit (no install): listed, not changed
        if not _has_ours(existing, runtime):
            return None
        return Item("hooks", path, f"{runtime} hooks", "", "left: changing config.toml "
                    "needs tomlkit: run `loopx-recall cleanup` where the package is "
                    "installed, or `pip install tomlkit` for this Python",
                    runtime, scope, (), _programs_gone(existing, runtime, toml))  # fmt: skip
    if not pairs:
        return None
    gone = _programs_gone(existing, runtime, toml)
    what = f"{runtime} hooks for {len(pairs)} agent(s)"
    if gone:
        what += f" (their program {', '.join(gone)} is gone: every call fails)"
    action = ("--remove deletes it (hook install made it, with ours only)"
              if hook_install.made_from_nothing(path, existing, runtime, toml=toml)
              else "--remove removes our entries and keeps the rest")  # fmt: skip
    return Item("hooks", path, what, action, "", runtime, scope, tuple(pairs), gone)


def _has_ours(existing: bytes, runtime: str) -> bool:
    """A TOML file holds at least one of our hook commands (read with tomllib)."""
    import tomllib

    from loopx_recall_core.recall.hook_entries import command_ids
    from loopx_recall_core.recall.hook_health import _commands

    try:
        hooks = tomllib.loads(existing.decode("utf-8")).get("hooks")
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError):
        return False
    return any(command_ids(command, runtime) for *_, command in _commands(hooks))


def inventory() -> list[Item]:
    """Everything we wrote that is still there, hooks first, the state folder last."""
    items: list[Item] = []
    seen: set[Path] = set()
    roots = _roots()
    files = [(r, s, p) for r, s, p in _hook_files(roots) if not (p in seen or seen.add(p))]
    for runtime, scope, path in files:
        item = _hooks_item(runtime, scope, path)
        if item is not None:
            items.append(item)
    for _runtime, _scope, path in files:
        for backup in sorted(path.parent.glob(path.name + ".loopx-backup*")):
            items.append(Item("backup", backup, "a backup of the file as it was before "
                              "our last change (it may hold our hooks)",
                              "--remove deletes it"))  # fmt: skip
    from loopx_recall_core.recall.hook_install import LOCAL_FILES

    for root, local in ((root, local) for root in roots for local in LOCAL_FILES):
        exclude = root / ".git" / "info" / "exclude"
        try:
            if f"/{local}" in exclude.read_text(errors="replace"):
                items.append(Item("exclude", exclude, "one line keeping the personal "
                                  "settings file out of git", "",
                                  f"left: it only hides {local}; "
                                  f"delete the line `/{local}` to undo "
                                  "it"))  # fmt: skip
        except OSError:
            pass
    manifests = MANIFESTS.expanduser()
    if manifests.is_dir():
        items.append(Item("manifests", manifests, "copies of our LoopX manifests",
                          "--remove deletes them"))  # fmt: skip
    loopx = Path("~/.loopx/extensions/state.json").expanduser()
    if loopx.is_file() and b"loopx-recall" in (loopx.read_bytes()[:4_000_000]):
        items.append(Item("loopx", loopx, "LoopX's record of our extensions", "",
                          "LoopX's own file: `loopx extension disable loopx-recall-history "
                          "--execute` (and loopx-recall-decision-context)"))  # fmt: skip
    root = Path(os.path.abspath(_state_root()))
    if os.path.lexists(root):
        items.append(Item("state", root, "the state folder: enablements, private results, "
                          "receipt key, session ledger, guard sets, hook log, reports",
                          "--remove deletes it"))  # fmt: skip
    return items


def remove(items: list[Item]) -> list[Item]:
    """Remove what can be removed, in the inventory's order (hooks first); returns what
    was removed. A hooks file is changed as ``hook uninstall`` changes it (the user's
    bytes back when nothing else changed)."""
    from loopx_recall_core.recall import hook_install

    done: list[Item] = []
    for item in items:
        if not item.action:
            continue
        if item.kind == "hooks":
            toml = item.path.suffix == ".toml"
            existing = _read(item.path)
            new, _pairs = hook_install.unmerge(existing, item.runtime, toml=toml)
            if new is None:
                continue
            original = hook_install.original_if_unchanged(item.path, existing, item.runtime,
                                                          toml=toml)  # fmt: skip
            if hook_install.made_from_nothing(item.path, existing, item.runtime, toml=toml):
                item.path.unlink()  # install made it: no `{}` of ours is left behind
            else:
                hook_install.write_with_backup(item.path, new if original is None else original,
                                               existing, backup=False)  # fmt: skip
        elif item.kind == "state" and item.path.is_dir() and not item.path.is_symlink():
            _remove_state(item.path)
        elif item.path.is_dir() and not item.path.is_symlink():
            shutil.rmtree(item.path)
        else:
            item.path.unlink(missing_ok=True)
        done.append(item)
    return done


def _remove_state(root: Path) -> None:
    """The state folder goes under the state lock, the generation moved on first
    (:func:`loopx_recall_core.owner_decisions.decided`): a making under way writes nothing
    into it meanwhile, and finds it gone after (it never makes it again). A folder that
    cannot be locked (not yours, open to others) is removed as it is."""
    from loopx_recall_core.owner_decisions import decided
    from loopx_recall_core.private_files import StateError

    try:
        with decided(root):
            _remove_tree(root)
            return
    except StateError:
        pass
    _remove_tree(root)


def _remove_tree(root: Path, attempts: int = 20) -> None:
    """Move the folder aside under a name of its own (one rename: from then on nothing
    reaches it by its path, so a making under way can add nothing to it), then remove it.
    What such a making added between a folder's listing and its removal ("Directory not
    empty") is removed at the next attempt."""
    import errno

    aside = root.with_name(f".{root.name}.removed-{os.urandom(6).hex()}")
    try:
        os.rename(root, aside)
    except OSError:
        aside = root
    for attempt in range(attempts):
        try:
            shutil.rmtree(aside)
            return
        except FileNotFoundError:
            return
        except OSError as exc:
            if exc.errno != errno.ENOTEMPTY or attempt == attempts - 1:
                raise


def left(items: list[Item], pairs: set[tuple[str, str]] | None = None) -> list[str]:
    """What a step of the way out leaves, one line each with the command that removes it:
    our hooks (only those naming one of ``pairs`` when given), then the rest of what
    loopx-recall wrote."""
    lines = []
    for item in items:
        if item.kind != "hooks" or (pairs is not None and not set(item.pairs) & pairs):
            continue
        gone = ", whose program is gone" if item.gone else ""
        lines.append(f"left: {item.runtime} hooks in {item.path}{gone} still run at every "
                     f"session: `{uninstall_command(item.runtime, item.scope)}` removes "
                     "them")  # fmt: skip
    rest = [item for item in items if item.kind != "hooks"]
    if rest:
        kinds = ", ".join(sorted({item.kind for item in rest}, key=[i.kind for i in rest].index))
        lines.append(f"left: {len(rest)} more item(s) loopx-recall wrote ({kinds}): "
                     "`loopx-recall cleanup` lists them, `loopx-recall cleanup --remove` "
                     "removes them")  # fmt: skip
    return lines


def record(items: list[Item], removed: list[Item], removing: bool) -> dict:
    """The ``loopx_recall_cleanup_v0`` record."""
    return {
        "schema_version": "loopx_recall_cleanup_v0",
        "removing": removing,
        "items": [
            {"kind": i.kind, "path": str(i.path), "what": i.what, "action": i.action,
             "how": i.how, "removed": i in removed}
            for i in items
        ],
        "left": PACKAGES if removing else None,
    }  # fmt: skip


def render(data: dict, command: str = "loopx-recall cleanup") -> str:
    """The text of a ``loopx_recall_cleanup_v0`` record: in list mode what ``--remove``
    would do to each item, after ``--remove`` what it did; then what stays."""
    if not data["items"]:
        text = "nothing of loopx-recall's is left (hooks, backups, manifests, state folder)"
        return text + (f"\nleft: {data['left']}" if data.get("left") else "")
    lines = []
    for item in data["items"]:
        then = (item["removed"] and "removed") or item["action"] or item["how"]
        if data["removing"] and not item["removed"] and item["action"]:
            then = "not removed (it changed meanwhile): run `loopx-recall cleanup` again"
        lines.append(f"{item['kind']:<9} {item['path']}\n          {item['what']}: {then}")
    if not data["removing"]:
        lines.append(f"`{command} --remove` does what each line says (hooks first, the "
                     "state folder last)")  # fmt: skip
    elif data.get("left"):
        lines.append(f"left: {data['left']}")
    return "\n".join(lines)


_USAGE = "usage: python3 -m loopx_recall_core.cleanup [--remove [--yes]] [--format text|json]"


def main(argv: list[str] | None = None) -> int:
    """``python3 -m loopx_recall_core.cleanup``: ``loopx-recall cleanup`` on the standard
    library alone, for when no environment with the package is left (run it from a clone
    of this repository, in the project whose project-local hooks it should find too)."""
    from loopx_recall_core.terminal import dumps, terminal_text

    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["--help"], ["-h"]):
        print(_USAGE + "\n\n" + (main.__doc__ or "").split("\n\n")[0].replace("\n   ", ""))
        return 0
    output_format = "text"
    if "--format" in args:
        at = args.index("--format")
        output_format = args[at + 1] if at + 1 < len(args) else ""
        del args[at : at + 2]
    if output_format not in ("text", "json") or set(args) - {"--remove", "--yes"}:
        print(f"error: {_USAGE}", file=sys.stderr)
        return 2
    removing = "--remove" in args
    items = inventory()
    removed: list[Item] = []
    removable = [item for item in items if item.action]
    if removing and removable and "--yes" not in args:
        if not sys.stdin.isatty():
            print(f"error: removing {len(removable)} item(s): pass --yes to go ahead (no "
                  "terminal to ask)", file=sys.stderr)  # fmt: skip
            return 1
        listing = render(record(items, [], False), "python3 -m loopx_recall_core.cleanup")
        print(terminal_text(listing), file=sys.stderr)
        answer = input(f"remove {len(removable)} item(s) listed above? [y/N]: ")
        if answer.strip().lower() not in ("y", "yes"):
            print("Aborted!", file=sys.stderr)
            return 1
    if removing and removable:
        from loopx_recall_core.private_files import StateError
        from loopx_recall_core.recall.hook_install import InstallRefused

        try:
            removed = remove(items)
        except (InstallRefused, StateError, OSError) as exc:
            message = exc.strerror if isinstance(exc, OSError) else str(exc)
            print(f"error: cleanup stopped: {message}", file=sys.stderr)
            return 1
    data = record(items, removed, removing)
    text = render(data, "python3 -m loopx_recall_core.cleanup")
    print(dumps(data) if output_format == "json" else terminal_text(text))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
