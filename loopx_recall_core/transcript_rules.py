# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Rules about agent-runtime transcripts on disk that the host and its providers must apply
identically, so each has one owner here (providers get them through ``plugin_api``):

* :func:`under`: path containment, on a ``/`` boundary;
* :func:`window_start_ms` / :func:`window_start`: where a ``window_days`` window begins,
  exact to the millisecond (one computation, as epoch milliseconds or as the transcripts'
  own ISO text, which compares as text);
* :func:`exit_code`: the exit status a shell tool's output carries, in any form a
  supported runtime writes (the forms live in :mod:`loopx_recall_core.runtimes`).

Where transcripts lie is the runtime records' (:func:`loopx_recall_core.runtimes.cwd_folder_name`
and its neighbours, in ``plugin_api`` too).

Standard library only: imported by provider plugins on their hot path.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

__all__ = [
    "epoch_ms",
    "exit_code",
    "under",
    "window_start",
    "window_start_ms",
]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ONE_MS = timedelta(milliseconds=1)


def under(path: str | None, roots: Iterable[str]) -> bool:
    """``path`` is a root or below one, on a ``/`` boundary (``/a/bc`` is not under ``/a/b``)."""
    return bool(path) and any(
        path == root or path.startswith(root.rstrip("/") + "/") for root in roots
    )


def epoch_ms(moment: datetime) -> int:
    """Milliseconds since the epoch of an aware ``moment``, floored (integer arithmetic)."""
    return (moment - _EPOCH) // _ONE_MS


def window_start_ms(days: int, now: datetime | None = None) -> int:
    """The oldest in-window instant, ``now - days``, in epoch milliseconds."""
    return epoch_ms((now or datetime.now(UTC)) - timedelta(days=days))


def window_start(days: int, now: datetime | None = None) -> str:
    """:func:`window_start_ms` as ``YYYY-MM-DDTHH:MM:SS.mmmZ``, the transcripts' ISO form."""
    millis = window_start_ms(days, now)
    moment = _EPOCH + millis * _ONE_MS
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{millis % 1000:03d}Z"


def exit_code(output: str) -> int | None:
    """The exit status a shell tool's output carries (``Exit code N``, ``Exit code: N``,
    Codex 0.169's ``Process exited with code N`` header), if any: one rule,
    :func:`loopx_recall_core.runtimes.exit_status`."""
    from loopx_recall_core.runtimes import exit_status

    return exit_status(output)
