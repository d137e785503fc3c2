# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx extension``: what provider extensions exist, are installed, and are ready."""

from __future__ import annotations

import importlib
from importlib import metadata
from pathlib import Path
from typing import Any

import attrs
import click

from loopx_recall_core.cli._common import Rejected, emit, format_option, handle_failures
from loopx_recall_core.cli._pip import pip_install, pip_uninstall
from loopx_recall_core.extensions import CATALOGUE, find_known, installed_view
from loopx_recall_core.plugins import load_host, normalize_dist_name
from loopx_recall_core.state import StateError, StateStore


@click.group()
def extension() -> None:
    """Install, remove and list provider extensions."""


def _render_list(data: dict[str, Any]) -> str:
    lines = []
    for row in data["extensions"]:
        if row["status"] == "broken":
            state = f"BROKEN ({row['error_class']}: {row['error']})"
        elif row["status"] == "not_loaded":
            state = "not loaded (LOOPX_LOAD_PLUGINS)"
        elif row["ready"]:
            state = "ready"
        else:
            reasons = {p["unavailable_reason"] for p in row["providers"]} - {None}
            state = "not ready: " + ("; ".join(sorted(reasons)) or "no providers")
        lines.append(f"{row['name']} ({row['distribution']} {row['version']}): {state}")
    if not lines:
        lines.append("no extensions installed")
    for known in data.get("available", []):
        mark = "installed" if known["installed"] else "available"
        lines.append(f"[{mark}] {known['name']} -> {known['distribution']}: {known['privacy']}")
    return "\n".join(lines)


@extension.command("list")
@click.option("--available", is_flag=True, help="Also list the catalogue of known extensions.")
@format_option
@handle_failures()
def list_extensions(available: bool, output_format: str) -> None:
    """List installed extensions with their readiness; broken ones are listed too."""
    rows = installed_view(load_host())
    data: dict[str, Any] = {"schema_version": "loopx_extension_list_v0", "extensions": rows}
    if available:
        installed = {row["distribution"] for row in rows}
        data["available"] = [
            {**attrs.asdict(known), "installed": known.distribution in installed}
            for known in CATALOGUE
        ]
    emit(data, output_format, _render_list)


def _install_target(spec: str) -> tuple[str, str | None]:
    """pip target for NAME | REQUIREMENT | PATH, and the distribution when known."""
    known = find_known(spec)
    if known is not None and not Path(spec).exists():
        return known.distribution, known.distribution
    return spec, None


@extension.command("install")
@click.argument("spec")
@click.option("--upgrade", is_flag=True, help="Upgrade the extension if already installed.")
@click.option("--editable", is_flag=True, help="Install a local path in editable mode.")
@format_option
@handle_failures()
def install(spec: str, upgrade: bool, editable: bool, output_format: str) -> None:
    """Install an extension by catalogue NAME, pip REQUIREMENT or local PATH.

    Runs `python -m pip` for this interpreter with the running loopx-recall-core version
    pinned, so an extension never up- or downgrades the host.
    """
    if editable and not Path(spec).exists():
        raise click.UsageError("--editable needs a local path")
    target, _distribution = _install_target(spec)
    pip_install(target, upgrade=upgrade, editable=editable)
    importlib.invalidate_caches()
    rows = installed_view(load_host())
    emit(
        {"schema_version": "loopx_extension_list_v0", "extensions": rows},
        output_format,
        lambda d: "installed.\n" + _render_list(d),
    )


@extension.command("uninstall")
@click.argument("name")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@handle_failures()
def uninstall(name: str, yes: bool) -> None:
    """Remove an extension's distribution only.

    Never deletes Obelisk's index or any provider data, and keeps enablements (status
    then shows the provider as not installed). Plugins are not imported, so a broken one
    can always be removed.
    """
    known = find_known(name)
    distribution = known.distribution if known else name
    if normalize_dist_name(distribution) == "loopx-recall-core":
        raise Rejected("refusing to uninstall loopx-recall-core itself; use pip for that")
    try:
        metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        raise Rejected(f"{distribution} is not installed") from None
    if not yes:
        click.confirm(f"Uninstall {distribution}? Provider data is kept.", abort=True)
    pip_uninstall(distribution)
    try:
        kept = len(StateStore().read().enablements)
    except StateError:
        kept = 0
    click.echo(f"uninstalled {distribution}; {kept} enablement(s) kept, provider data untouched")
