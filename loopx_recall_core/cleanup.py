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
files (``~/.loopx``: ``loopx extension disable ID``), provider extensions
(``loopx-recall extension uninstall NAME``) and this package (``pip uninstall``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Item", "inventory", "remove"]

#: The folder the README's LoopX section writes manifest copies to.
MANIFESTS = Path("~/.config/loopx-recall-manifests")


@dataclass(frozen=True)
class Item:
    """One thing we wrote: ``kind`` says what, ``path`` where, ``action`` what removing
    it does (``""``: listed only, ``how`` says how to remove it)."""

    kind: str
    path: Path
    what: str
    action: str
    how: str = ""


def _hook_files(roots: list[Path]) -> list[tuple[str, Path]]:
    from loopx_recall_core import runtimes

    found: list[tuple[str, Path]] = []
    for name in runtimes.HOOK_RUNTIMES:
        for entry in runtimes.record(name).hook_files:
            if entry.scope == "user":
                found.append((name, runtimes.hook_file(name, "user", entry.form)))
            else:
                found += [(name, runtimes.hook_file(name, entry.scope, entry.form, root))
                          for root in roots]  # fmt: skip
    return found


def _roots() -> list[Path]:
    """Repository roots: every enablement's, and this folder's repository's."""
    from loopx_recall_core.guard.repository_scope import repository_roots
    from loopx_recall_core.recall.hook_install import _repository_root
    from loopx_recall_core.state import StateStore

    roots: set[Path] = set()
    with contextlib.suppress(Exception):  # a damaged state folder: the rest is listed
        for enablement in StateStore().read().enablements:
            roots.update(Path(root) for root in repository_roots(enablement.binding))
    here = _repository_root(Path.cwd())
    if here is not None:
        roots.add(here)
    return sorted(roots)


def _read(path: Path) -> bytes | None:
    from loopx_recall_core.private_files import StateError, read_file

    try:
        return read_file(path, 4_000_000, "a hooks file")
    except StateError:
        return None


def inventory() -> list[Item]:
    """Everything we wrote that is still there, hooks first, the state folder last."""
    from loopx_recall_core.recall import hook_install
    from loopx_recall_core.state import state_root

    items: list[Item] = []
    seen: set[Path] = set()
    files = [(r, p) for r, p in _hook_files(_roots()) if not (p in seen or seen.add(p))]
    for runtime, path in files:
        existing = _read(path)
        if existing is None:
            continue
        try:
            pairs = hook_install.unmerge(existing, runtime, toml=path.suffix == ".toml")[1]
        except hook_install.InstallRefused:
            continue
        if pairs:
            items.append(Item("hooks", path, f"{runtime} hooks for {len(pairs)} agent(s)",
                              "our entries removed, the rest kept"))  # fmt: skip
    for _runtime, path in files:
        for backup in sorted(path.parent.glob(path.name + ".loopx-backup*")):
            items.append(Item("backup", backup, "a backup of the file before our change",
                              "deleted"))  # fmt: skip
    for root in _roots():
        exclude = root / ".git" / "info" / "exclude"
        try:
            if "/.claude/settings.local.json" in exclude.read_text(errors="replace"):
                items.append(Item("exclude", exclude, "one line keeping the personal "
                                  "settings file out of git", "",
                                  "kept: it only hides .claude/settings.local.json"))  # fmt: skip
        except OSError:
            pass
    manifests = MANIFESTS.expanduser()
    if manifests.is_dir():
        items.append(Item("manifests", manifests, "copies of our LoopX manifests", "deleted"))
    loopx = Path("~/.loopx/extensions/state.json").expanduser()
    if loopx.is_file() and b"loopx-recall" in (loopx.read_bytes()[:4_000_000]):
        items.append(Item("loopx", loopx, "LoopX's record of our extensions", "",
                          "LoopX's own file: `loopx extension disable loopx-recall-history` "
                          "(and loopx-recall-decision-context)"))  # fmt: skip
    root = Path(os.path.abspath(state_root()))
    if os.path.lexists(root):
        items.append(Item("state", root, "the state folder: enablements, private results, "
                          "receipt key, session ledger, guard sets, hook log, reports",
                          "deleted"))  # fmt: skip
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
            runtime = item.what.split(" ", 1)[0]
            toml = item.path.suffix == ".toml"
            existing = _read(item.path)
            new, _pairs = hook_install.unmerge(existing, runtime, toml=toml)
            if new is None:
                continue
            original = hook_install.original_if_unchanged(item.path, existing, runtime, toml=toml)
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
