# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The provider object the host talks to."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from typing import Any

from loopx_obelisk_session_evidence import PROVIDER_ID, __version__
from loopx_obelisk_session_evidence.binding import BINDING_OPTIONS, bind
from loopx_recall_core.providers_api import BindingOption, ProviderReadback

OBELISK_BIN_ENV = "LOOPX_OBELISK_BIN"


def find_obelisk(configured: str | None = None) -> str | None:
    """The obelisk executable: the binding's, else ``$LOOPX_OBELISK_BIN``, else PATH."""
    candidate = configured or os.environ.get(OBELISK_BIN_ENV) or "obelisk"
    return shutil.which(candidate)


class ObeliskSessionEvidence:
    provider_id = PROVIDER_ID
    provider_version = __version__

    def binding_options(self) -> list[BindingOption]:
        return list(BINDING_OPTIONS)

    def bind(self, options: Mapping[str, Any], *, cwd: str) -> Mapping[str, Any]:
        return bind(options, cwd=cwd)

    def readback(self, binding: Mapping[str, Any] | None) -> ProviderReadback:
        if find_obelisk() is None:
            return ProviderReadback(
                provider_id=PROVIDER_ID,
                version=__version__,
                ready=False,
                unavailable_reason="obelisk executable not found",
                runtime={"executable_found": False},
            )
        return ProviderReadback(
            provider_id=PROVIDER_ID,
            version=__version__,
            ready=False,
            unavailable_reason="adapter not available in this version",
            runtime={"executable_found": True},
        )

    def retrieve(self, request: Any, binding: Mapping[str, Any], *, timeout: float) -> Any:
        raise RuntimeError("adapter not available in this version")
