# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The plugin machinery, one home: what a provider plugin is and how the host loads it.

* :mod:`.spec`: the hook specifications (pluggy);
* :mod:`.protocols`: the provider objects' Protocols and the entry-point group;
* :mod:`.records`: the records providers and the host exchange;
* :mod:`.manager`: loading plugins one at a time, provider lookup, deadlines;
* :mod:`._entry_points`: the entry-point listing (without ``importlib.metadata``);
* :mod:`.cache`: a provider's small private cache under the state root;
* :mod:`.distributions`, :mod:`.catalogue`, :mod:`._pip`: provider distributions, which
  the ``extension`` commands install, list and remove.

Plugins import none of these: :mod:`loopx_recall_core.plugin_api` is their one door.
"""
