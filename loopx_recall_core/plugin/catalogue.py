# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The catalogue of known extensions. It is data (``catalogue.json`` in this package), so no
host code names an extension; reading it imports neither pip nor any plugin."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache

import attrs

from loopx_recall_core.plugin._entry_points import normalize_dist_name

__all__ = ["KnownExtension", "catalogue", "did_you_mean", "find_known"]


@attrs.frozen(kw_only=True)
class KnownExtension:
    name: str
    distribution: str
    capability: str
    license: str
    external_runtime: str
    privacy: str
    #: False while the distribution is not published: install it from the source tree
    on_package_index: bool
    #: its folder in a clone of loopx-recall-core
    source_path: str

    @property
    def install_command(self) -> str:
        """The install command that works today."""
        if self.on_package_index:
            return f"loopx-recall extension install {self.name}"
        return f"loopx-recall extension install ./{self.source_path}"

    @property
    def not_on_index(self) -> str:
        """One line for a user who tried the name: why not, and the command that works."""
        return (
            f"{self.name} is not on the package index yet: in a clone of loopx-recall-core, "
            f"run `{self.install_command}`"
        )


@cache
def catalogue() -> tuple[KnownExtension, ...]:
    """The known extensions, read from the package's ``catalogue.json``."""
    from importlib import resources

    text = resources.files("loopx_recall_core.plugin").joinpath("catalogue.json").read_text("utf-8")
    return tuple(KnownExtension(**entry) for entry in json.loads(text))


def find_known(name: str) -> KnownExtension | None:
    """A catalogue entry by extension name or distribution name."""
    wanted = normalize_dist_name(name)
    for known in catalogue():
        if wanted in (normalize_dist_name(known.name), normalize_dist_name(known.distribution)):
            return known
    return None


def did_you_mean(name: str, also: Iterable[str] = ()) -> str:
    """`` (did you mean 'x'?)`` when ``name`` is a slip for a known extension's name or
    distribution (or one of ``also``: installed provider ids, distributions), else ``""``."""
    import difflib

    names = {n for k in catalogue() for n in (k.name, k.distribution)} | set(also)
    close = difflib.get_close_matches(name, sorted(names - {name}), n=1, cutoff=0.8)
    return f" (did you mean {close[0]!r}?)" if close else ""
