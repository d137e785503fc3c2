# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx-recall extension``: what provider extensions exist, are installed, and are ready."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import attrs
import click

from loopx_recall_core.cli._common import Rejected, emit, format_option, handle_failures
from loopx_recall_core.cli._pip import pip_install, pip_uninstall
from loopx_recall_core.extensions import (
    CATALOGUE,
    ExtensionRefused,
    arrived,
    check_install_spec,
    find_known,
    installed_extensions,
    installed_view,
    requirement_name,
    uninstall_target,
)
from loopx_recall_core.hookspecs import ENTRY_POINT_GROUP
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
            state = "not loaded (LOOPX_RECALL_LOAD_PLUGINS)"
        elif row["ready"]:
            state = "ready"
        else:
            reasons = {p["unavailable_reason"] for p in row["providers"]} - {None}
            state = "not ready: " + ("; ".join(sorted(reasons)) or "no providers")
        lines.append(f"{row['name']} ({row['distribution']} {row['version']}): {state}")
    if not lines:
        lines.append("no extensions installed")
    for known in data.get("available", []):
        if known["installed"]:
            mark = "installed"
        elif known["on_package_index"]:
            mark = "available"
        else:
            mark = "from source only"
        lines.append(f"[{mark}] {known['name']} -> {known['distribution']}: {known['privacy']}")
        if not known["installed"]:
            lines.append(f"    install: {known['install_command']}")
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
            {
                **attrs.asdict(known),
                "install_command": known.install_command,
                "installed": known.distribution in installed,
            }
            for known in CATALOGUE
        ]
    emit(data, output_format, _render_list)


def _install_target(spec: str) -> tuple[str, str | None]:
    """pip target for NAME | REQUIREMENT | PATH, and the distribution when known."""
    known = find_known(spec)
    if known is not None and not Path(spec).exists():
        return known.distribution, known.distribution
    return spec, requirement_name(spec)


def _render_installed(data: dict[str, Any]) -> str:
    arrived_rows = data["arrived"]
    if arrived_rows:
        head = "installed " + ", ".join(
            f"{row['distribution']} {row['version']}" for row in arrived_rows
        )
    else:
        head = "already installed, nothing changed"
    return head + ".\n" + _render_list(data)


@extension.command("install")
@click.argument("spec")
@click.option("--upgrade", is_flag=True, help="Upgrade the extension if already installed.")
@click.option("--editable", is_flag=True, help="Install a local path in editable mode.")
@format_option
@handle_failures()
def install(spec: str, upgrade: bool, editable: bool, output_format: str) -> None:
    """Install an extension by catalogue NAME, pip REQUIREMENT or local PATH.

    An extension that is not on the package index yet is installed from its PATH in a
    clone of loopx-recall-core (`loopx-recall extension list --available` shows the
    command).

    Runs `python -m pip` for this interpreter with the running loopx-recall-core version
    pinned, so an extension never up- or downgrades the host. pip options (-r, -i,
    --index-url, ...) are refused, and the command fails (exit 1) when pip succeeded but
    no distribution registering loopx providers arrived.
    """
    try:
        check_install_spec(spec)
    except ExtensionRefused as exc:
        raise Rejected(str(exc)) from None
    if editable and not Path(spec).exists():
        raise click.UsageError("--editable needs a local path")
    known = find_known(spec)
    if known is not None and not known.on_package_index and not Path(spec).exists():
        raise Rejected(known.not_on_index)
    target, distribution = _install_target(spec)
    before = installed_extensions()
    pip_install(target, upgrade=upgrade, editable=editable)
    importlib.invalidate_caches()
    after = installed_extensions()
    new = arrived(before, after)
    if not new and (distribution is None or normalize_dist_name(distribution) not in after):
        raise Rejected(
            "pip finished but no loopx-recall extension arrived: what it installed registers no "
            f"{ENTRY_POINT_GROUP} entry point. Check the name or path "
            "(`loopx-recall extension list --available` shows the catalogue) and that the "
            "package is a loopx provider extension; anything pip installed was left in "
            "place (remove it with pip)"
        )
    rows = installed_view(load_host())
    emit(
        {
            "schema_version": "loopx_extension_list_v0",
            "extensions": rows,
            "arrived": [{"distribution": ext.distribution, "version": ext.version} for ext in new],
        },
        output_format,
        _render_installed,
    )


@extension.command("uninstall")
@click.argument("name")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@handle_failures()
def uninstall(name: str, yes: bool) -> None:
    """Remove an extension's distribution only.

    Only a distribution that registers loopx provider entry points can be removed (pip,
    click or loopx-recall-core itself are refused before pip runs). Never deletes
    Obelisk's index or any provider data, and keeps enablements (status then shows the
    provider as not installed). Plugins are not imported, so a broken one can always be
    removed.
    """
    try:
        distribution, provider_ids = uninstall_target(name)
    except ExtensionRefused as exc:
        raise Rejected(str(exc)) from None
    if not yes:
        click.confirm(f"Uninstall {distribution}? Provider data is kept.", abort=True)
    pip_uninstall(distribution)
    try:
        kept = sum(1 for e in StateStore().read().enablements if e.provider_id in provider_ids)
    except StateError:
        kept = 0
    click.echo(f"uninstalled {distribution}; {kept} enablement(s) kept, provider data untouched")
