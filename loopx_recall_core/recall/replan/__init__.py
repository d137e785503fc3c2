# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Replan integration: typed situation -> admission -> recall -> route comparison -> legality.

Retrieval refines Replan reasoning; it never settles a Replan and adds no terminal state.
:func:`replan` is the one entry point; it is pure apart from the ``recall`` callable,
which it calls once and only when the situation is admitted.

Modules: :mod:`.admission` (trigger conditions, stage gate via the host admission),
:mod:`.terms` (query terms), :mod:`.routes` (normalization), :mod:`.snippets` (the
snippet convention providers follow), :mod:`.comparison` (verdicts), :mod:`.legality`.

:mod:`.flow` holds :func:`replan`; nothing is imported here on purpose, so a sub-module
loads without the contracts.
"""
