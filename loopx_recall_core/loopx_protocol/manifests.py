# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Our two LoopX extension manifests, shipped as package data in ``data/``.

``history`` (extension ``loopx-recall-history``) provides the capability
``agent-history-recall`` with its integration profile beside it; ``decision-context``
(extension ``loopx-recall-decision-context``) implements LoopX's ``decision-context``.
Both run the console script ``loopx-recall-loopx-provider`` found on ``PATH``: LoopX
resolves a bare entrypoint with ``shutil.which``. When LoopX lives in another environment
whose ``PATH`` does not reach ours, :func:`write_copy` writes a copy naming the provider
script by absolute path (and, for ``history``, its profile beside it: LoopX reads the
profile relative to the manifest and refuses one outside its folder).
"""

from __future__ import annotations

import json
import os
import sys
import sysconfig
from pathlib import Path

__all__ = [
    "ENTRYPOINT",
    "MANIFESTS",
    "TIMEOUT_SECONDS",
    "default_entrypoint",
    "manifest_path",
    "manifest_text",
    "write_copy",
]

DATA = Path(__file__).resolve().parent / "data"
ENTRYPOINT = "loopx-recall-loopx-provider"
#: Our manifests' ``timeout_seconds``: LoopX kills the provider after it.
TIMEOUT_SECONDS = 30
#: manifest name -> (file, integration profile beside it or None)
MANIFESTS = {
    "history": ("loopx-recall-history.toml", "agent-history-recall.profile.json"),
    "decision-context": ("loopx-recall-decision-context.toml", None),
}
_ENTRYPOINT_LINE = f'entrypoint = "{ENTRYPOINT}"'


def manifest_path(name: str) -> Path:
    """The packaged manifest file (inside the installed package)."""
    return DATA / MANIFESTS[name][0]


def manifest_text(name: str, *, entrypoint: str | None = None) -> str:
    """The manifest's TOML; with ``entrypoint``, naming that command instead."""
    text = manifest_path(name).read_text(encoding="utf-8")
    if entrypoint is None:
        return text
    if _ENTRYPOINT_LINE not in text:  # the packaged files always hold it (tested)
        raise ValueError("the packaged manifest has no entrypoint line")
    return text.replace(_ENTRYPOINT_LINE, f"entrypoint = {json.dumps(entrypoint)}")


def default_entrypoint() -> str:
    """The absolute path of this environment's ``loopx-recall-loopx-provider`` script."""
    scripts = Path(sysconfig.get_path("scripts"))
    candidate = scripts / ENTRYPOINT
    if candidate.is_file():
        return str(candidate)
    # a venv whose scripts folder sysconfig misreports: the interpreter's own folder
    return str(Path(sys.executable).parent / ENTRYPOINT)


def write_copy(name: str, folder: Path, *, entrypoint: str) -> Path:
    """Write the manifest (with ``entrypoint``) and its profile into ``folder``; return the
    manifest's path. Files are replaced atomically; the folder is created if missing."""
    folder.mkdir(parents=True, exist_ok=True)
    manifest_file, profile = MANIFESTS[name]
    if profile is not None:
        _replace(folder / profile, (DATA / profile).read_text(encoding="utf-8"))
    target = folder / manifest_file
    _replace(target, manifest_text(name, entrypoint=entrypoint))
    return target


def _replace(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
