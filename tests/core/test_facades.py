# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""The two facades (``plugin_api``, a plugin's one door, and ``testing``, its tests' other
door) write their names in one table, ``_SOURCES``: the names are imported on first use from
there and ``__all__`` is its names. Type checkers read the ``TYPE_CHECKING`` block instead,
so it must say the same: each public name bound there, from the same place, re-exported
explicitly (``from M import X as X``, or a private import bound to the name below it), and
nothing more. Read from the source with ``ast``; then each name is resolved for real.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

HOST = Path(__file__).resolve().parents[2] / "loopx_recall_core"
FACADES = ["plugin_api", "testing"]


def _type_checking_block(tree: ast.Module) -> list[ast.stmt]:
    for node in tree.body:
        test = node.test if isinstance(node, ast.If) else None
        if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
            return node.body  # type: ignore[union-attr]
    raise AssertionError("no top-level `if TYPE_CHECKING:` block")


def type_checking_names(source: str) -> tuple[dict[str, tuple[str, str]], list[str]]:
    """``({public name: (module, attribute)}, problems)`` of a facade's ``TYPE_CHECKING``
    block: ``from M import A as N`` binds N to ``(M, A)``, ``N = _P`` gives N what ``_P``
    was bound to. A problem is an import that is not an explicit re-export (no ``as``, or a
    public alias other than the name itself), or a statement of any other kind."""
    bound: dict[str, tuple[str, str]] = {}
    problems: list[str] = []
    for node in _type_checking_block(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            for alias in node.names:
                name = alias.asname
                if name is None or (not name.startswith("_") and name != alias.name):
                    problems.append(f"line {node.lineno}: {alias.name} as {name}")
                    name = name or alias.name
                bound[name] = (node.module, alias.name)
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Name)
            and node.value.id in bound
        ):
            bound[node.targets[0].id] = bound[node.value.id]
        else:
            problems.append(f"line {node.lineno}: not an import or a renaming")
    public = {name: where for name, where in bound.items() if not name.startswith("_")}
    return public, problems


def table_imports(sources: dict[str, object]) -> dict[str, tuple[str, str]]:
    """The ``_SOURCES`` table as the ``from M import A`` each entry means: ``"m"`` is
    attribute ``name`` of m, ``(m, a)`` attribute ``a``, ``(m, None)`` the module m itself."""
    found = {}
    for name, source in sources.items():
        if isinstance(source, str):
            found[name] = (source, name)
        else:
            module, attribute = source  # type: ignore[misc]
            found[name] = (module, attribute) if attribute else tuple(module.rsplit(".", 1))
    return found


@pytest.mark.parametrize("facade", FACADES)
def test_the_type_checking_block_says_what_the_table_says(facade):
    module = importlib.import_module(f"loopx_recall_core.{facade}")
    public, problems = type_checking_names((HOST / f"{facade}.py").read_text(encoding="utf-8"))
    assert problems == []
    assert public == table_imports(module._SOURCES)
    assert module.__all__ == sorted(module._SOURCES)


@pytest.mark.parametrize("facade", FACADES)
def test_every_name_of_the_table_resolves_to_its_source(facade):
    module = importlib.import_module(f"loopx_recall_core.{facade}")
    for name, (where, attribute) in table_imports(module._SOURCES).items():
        source = importlib.import_module(where)
        expected = getattr(source, attribute, None)
        if expected is None:  # ``(m, None)``: the submodule itself
            expected = importlib.import_module(f"{where}.{attribute}")
        assert getattr(module, name) is expected, name
    with pytest.raises(AttributeError):
        module.no_such_name  # noqa: B018


def test_the_check_sees_a_block_that_drifted():
    source = (
        "from typing import TYPE_CHECKING\n"
        "_SOURCES = {'a': 'm.x', 'b': ('m.y', 'c'), 'd': ('m.z', None)}\n"
        "if TYPE_CHECKING:\n"
        "    from m.x import a as a\n"
        "    from m.y import c as _c\n"
        "    from m import z as d\n"
        "    from m.w import e\n"
        "    b = _c\n"
    )
    public, problems = type_checking_names(source)
    assert problems == ["line 6: z as d", "line 7: e as None"]
    table = table_imports({"a": "m.x", "b": ("m.y", "c"), "d": ("m.z", None)})
    assert public == {**table, "e": ("m.w", "e")}  # one name more than the table: a drift
    assert public != table
