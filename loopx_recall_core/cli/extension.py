# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""``loopx extension``: what provider extensions exist, are installed, and are ready."""

from __future__ import annotations

from typing import Any

import attrs
import click

from loopx_recall_core.cli._common import emit, format_option, handle_failures
from loopx_recall_core.extensions import CATALOGUE, installed_view
from loopx_recall_core.plugins import load_host


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
