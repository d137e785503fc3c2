# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Speaking LoopX's own extension protocols (LoopX 2.1.1).

* :mod:`.provider`: ``loopx-recall-loopx-provider``, the process LoopX runs (one JSON
  request on stdin, one JSON object on stdout);
* :mod:`.capability`: our capability ``agent-history-recall`` for ``loopx capability
  invoke`` (operations ``history`` and ``replan``, public results);
* :mod:`.decision_context`: LoopX's ``decision-context`` advisory provider protocol;
* :mod:`.mapping`: the one place our records become LoopX's;
* :mod:`.manifests`: the two manifests, package data in ``data/``.

Each request runs the same library functions as ``loopx-recall recall history`` and
``recall replan``: admission, enablement and scope apply unchanged.
"""
