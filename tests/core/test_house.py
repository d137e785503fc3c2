# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""House rules, read from the source with ``ast`` (nothing here imports the modules it checks).

- the import graph reads every import a module makes, wherever it is: at module level, in
  a function, under ``if TYPE_CHECKING:`` and as a PEP 562 ``_SOURCES`` entry. An import
  in a function runs later and one under ``TYPE_CHECKING`` never runs, but each says what
  the module stands on, and the house is what a reader has to know, not only what runs
  first; so all of them count;
- no import cycle among ``loopx_recall_core`` modules;
- every arrow between rooms points down: the rooms (each first-level package of the host
  with all it holds, or first-level module) import each other without a circle, so they
  stack in floors (:func:`floors`); and again at the finer grain where each sub-package
  of :data:`FINER` (``recall.replan``, ``recall.sessions``) is a room of its own apart
  from its parent's modules (:func:`sub_room_of`), so a wing and the sub-package it holds
  do not lean on each other either;
- no product module over :data:`MAX_LINES` lines unless its module docstring has a paragraph
  starting with :data:`LONG_MARKER` that says why;
- a provider plugin imports the host only through ``loopx_recall_core.plugin_api``, and
  its tests only through ``plugin_api`` and ``loopx_recall_core.testing``;
- the plugin surface and what it stands on (:data:`SURFACE`) import nothing of the
  library above it (:data:`ABOVE_SURFACE`), anywhere in a module: at module level, in a
  function, under ``if TYPE_CHECKING:``, or as a PEP 562 ``_SOURCES`` entry;
- docs/layout.md's tree names each first-level room of the host (``x/``, ``x.py``) and
  no room that is gone;
- outside ``runtimes/``, the host and the provider plugins name a runtime (claude, codex)
  only in docstrings and comments, but for :data:`RUNTIME_NAMES_ALLOWED`;
- the host names Obelisk only in docstrings and comments (as an example), the v0 wire
  contract's literal ``provider_id`` in ``contracts/historical.py``, the generated JSON
  schemas, and the extension catalogue's data file.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOST = ROOT / "loopx_recall_core"
PLUGIN_PACKAGES = sorted(p for p in (ROOT / "plugins").glob("*/loopx_*") if p.is_dir())
#: The tests' own provider plugin, held to the same rule (``test_fake_provider_e2e.py``).
TEST_PLUGINS = [ROOT / "tests" / "fake_journal_plugin.py"]
PLUGIN_TESTS = sorted(p for p in (ROOT / "plugins").glob("*/tests") if p.is_dir())
#: What a plugin's tests may import from the host: the surface, and the one test-support module.
PLUGIN_TEST_IMPORTS = {"loopx_recall_core.plugin_api", "loopx_recall_core.testing"}

#: The plugin surface and what it stands on (modules, or packages with all they hold) ...
SURFACE = (
    "plugin_api",
    "plugin.spec",
    "plugin.protocols",
    "plugin.records",
    "plugin.cache",
    "plugin.manager",
    "plugin._entry_points",
    "contracts",
    "state",
    "snippet_rules",
    "transcript_rules",
    "runtimes",
)
#: ... never import the library built on them.
ABOVE_SURFACE = (
    "recall",
    "guard",
    "session_hook",
    "capability_status",
    "operator_requests",
    "cleanup",
    "qualification",
    "external_evidence",
    "loopx_protocol",
    "plugin.distributions",
    "cli",
    "testing",
)

#: The wings whose sub-packages are rooms of their own at the finer grain. Not yet
#: ``qualification``: its ``corpus`` sub-package takes the wing's defaults (``__init__``),
#: ``canaries`` and ``templates`` while the wing's modules take ``corpus``.
FINER = ("recall", "guard")

MAX_LINES = 400
LONG_MARKER = "Long because:"

#: The one literal the host may spell, and where: the v0 wire contract's provider id.
V0_PROVIDER_ID = "obelisk-session-evidence"
V0_CONTRACT = "contracts/historical.py"
_OBELISK = re.compile("obelisk", re.IGNORECASE)


def _python_files(package: Path) -> list[Path]:
    return sorted(p for p in package.rglob("*.py") if "__pycache__" not in p.parts)


def _dotted(path: Path, base: Path) -> str:
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _imported_modules(
    node: ast.Import | ast.ImportFrom, module: str, is_package: bool, known: set[str]
) -> set[str]:
    """The modules of ``known`` that ``node`` names (``from pkg import sub`` names ``pkg.sub``)."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in known}
    target = _absolute(node, module, is_package)
    found = set()
    for alias in node.names:
        if f"{target}.{alias.name}" in known:
            found.add(f"{target}.{alias.name}")
        elif target in known:
            found.add(target)
    return found


def import_graph(base: Path = HOST.parent, package: Path = HOST) -> dict[str, set[str]]:
    files = {_dotted(path, base): path for path in _python_files(package)}
    known = set(files)
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        edges = {name for _line, name in _sources_entries(tree) if name in known}
        for node in _all_imports(tree):
            edges |= _imported_modules(node, module, is_package, known)
        graph[module] = edges - {module}
    return graph


def room_of(module: str) -> str:
    """The room a module is in: the first-level package or module of the host it belongs
    to (``pkg.recall.replan.flow`` is in ``recall``; the package's own ``__init__`` is
    ``__init__``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def packages_of(graph: dict[str, set[str]]) -> set[str]:
    """The modules of ``graph`` that are packages (another module's name starts with theirs)."""
    return {name.rsplit(".", 1)[0] for name in graph if "." in name} & set(graph)


def sub_room_of(module: str, packages: set[str], finer: tuple[str, ...] = FINER) -> str:
    """The room at the finer grain: a sub-package of a wing of ``finer`` with all it holds
    (``pkg.recall.replan.flow`` is in ``recall.replan``), else :func:`room_of`."""
    parts = module.split(".")
    if len(parts) > 2 and parts[1] in finer and ".".join(parts[:3]) in packages:
        return ".".join(parts[1:3])
    return room_of(module)


def room_graph(
    graph: dict[str, set[str]], finer: tuple[str, ...] = ()
) -> dict[str, set[str]]:
    """The arrows between rooms: room A -> room B when a module of A imports one of B
    (rooms as :func:`room_of` draws them, with the sub-packages of ``finer``'s wings
    rooms of their own, :func:`sub_room_of`)."""
    packages = packages_of(graph)

    def room(module: str) -> str:
        return sub_room_of(module, packages, finer)

    rooms: dict[str, set[str]] = {}
    for module, targets in graph.items():
        here = room(module)
        rooms.setdefault(here, set()).update(room(t) for t in targets if room(t) != here)
    return rooms


def floors(rooms: dict[str, set[str]]) -> dict[str, int]:
    """Each room's floor in an acyclic room graph: 1 for a room importing no other room,
    else one above the highest room it imports."""
    found: dict[str, int] = {}

    def floor(room: str) -> int:
        if room not in found:
            found[room] = 1 + max((floor(r) for r in rooms.get(room, ())), default=0)
        return found[room]

    for room in rooms:
        floor(room)
    return found


def arrows_up(rooms: dict[str, set[str]]) -> list[str]:
    """The arrows inside a room circle (``A -> B`` where B also reaches A): each points
    up from one side or the other, so the house wants none."""
    return sorted(
        f"{a} -> {b}"
        for circle in cycles(rooms)
        for a in circle
        for b in rooms.get(a, ())
        if b in circle
    )


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_the_graph_sees_every_import(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from pkg import c\n"
        "def f():\n    from pkg import a\n"
    )
    (package / "c.py").write_text("class K:\n    from .d import x\n")
    (package / "d.py").write_text("_SOURCES = {'y': ('pkg.e', 'y')}\n")
    (package / "e.py").write_text("def g():\n    import pkg.a\n")
    graph = import_graph(tmp_path, package)
    assert graph["pkg.a"] == {"pkg.b"}
    assert graph["pkg.b"] == {"pkg.a", "pkg.c"}
    assert graph["pkg.c"] == {"pkg.d"}
    assert graph["pkg.d"] == {"pkg.e"}
    assert graph["pkg.e"] == {"pkg.a"}
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c", "pkg.d", "pkg.e"]]


def test_no_import_cycle_in_the_host():
    assert cycles(import_graph()) == []


def test_the_room_rule_sees_an_arrow_up_inside_functions(tmp_path):
    package = tmp_path / "pkg"
    for folder in (package, package / "low", package / "high"):
        folder.mkdir()
        (folder / "__init__.py").write_text("")
    (package / "low" / "a.py").write_text("def f():\n    from pkg.high.b import x\n")
    (package / "low" / "c.py").write_text("X = 1\n")
    (package / "high" / "b.py").write_text("from pkg.low.c import X\n")
    (package / "top.py").write_text("from pkg.high import b\n")
    rooms = room_graph(import_graph(tmp_path, package))
    assert cycles(import_graph(tmp_path, package)) == []  # no module circle ...
    assert arrows_up(rooms) == ["high -> low", "low -> high"]  # ... but a room circle
    (package / "low" / "a.py").write_text("X = 2\n")
    rooms = room_graph(import_graph(tmp_path, package))
    assert arrows_up(rooms) == []
    assert floors(rooms) == {"__init__": 1, "low": 1, "high": 2, "top": 3}


def test_every_arrow_between_the_hosts_rooms_points_down():
    assert arrows_up(room_graph(import_graph())) == []


def test_the_finer_grain_sees_a_package_leaning_on_its_own_sub_package(tmp_path):
    package = tmp_path / "pkg"
    for folder in (package, package / "low", package / "low" / "sub"):
        folder.mkdir()
        (folder / "__init__.py").write_text("")
    (package / "low" / "a.py").write_text("def f():\n    from pkg.low.sub.b import x\n")
    (package / "low" / "c.py").write_text("X = 1\n")
    (package / "low" / "sub" / "b.py").write_text("from pkg.low.c import X\n")
    graph = import_graph(tmp_path, package)
    assert cycles(graph) == []
    assert arrows_up(room_graph(graph)) == []  # one room at the first level ...
    assert arrows_up(room_graph(graph, finer=("low",))) == ["low -> low.sub", "low.sub -> low"]
    (package / "low" / "a.py").write_text("X = 2\n")
    rooms = room_graph(import_graph(tmp_path, package), finer=("low",))
    assert arrows_up(rooms) == []
    assert floors(rooms) == {"__init__": 1, "low": 1, "low.sub": 2}


def test_every_arrow_between_sub_package_rooms_points_down():
    assert arrows_up(room_graph(import_graph(), finer=FINER)) == []


def _docstring(path: Path) -> str:
    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""


def _product_modules() -> list[Path]:
    return _python_files(HOST) + [p for package in PLUGIN_PACKAGES for p in _python_files(package)]


def test_long_modules_say_why():
    too_long = []
    for path in _product_modules():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        reasons = [
            paragraph
            for paragraph in re.split(r"\n\s*\n", _docstring(path))
            if paragraph.strip().startswith(LONG_MARKER)
        ]
        if lines > MAX_LINES and not any(len(r.strip()) > len(LONG_MARKER) + 10 for r in reasons):
            too_long.append(f"{path.relative_to(ROOT)} ({lines} lines)")
    assert too_long == [], f"over {MAX_LINES} lines without a {LONG_MARKER!r} paragraph"


def _all_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def _host_modules_named(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == "loopx_recall_core"]
    if node.level or (node.module or "").split(".")[0] != "loopx_recall_core":
        return []
    if node.module == "loopx_recall_core":
        return [f"loopx_recall_core.{a.name}" for a in node.names]
    return [node.module]


def _host_imports_of(path: Path) -> Iterator[tuple[int, str]]:
    """``(line, module)`` for every host module ``path`` imports, wherever the import is."""
    for node in _all_imports(ast.parse(path.read_text(encoding="utf-8"))):
        for name in _host_modules_named(node):
            yield node.lineno, name


def test_plugin_tests_import_the_host_only_through_plugin_api_and_testing():
    assert PLUGIN_TESTS, "no plugin tests found under plugins/"
    strays = [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for tests in PLUGIN_TESTS
        for path in _python_files(tests)
        for line, name in _host_imports_of(path)
        if name not in PLUGIN_TEST_IMPORTS
    ]
    assert strays == []


def _sources_entries(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """The modules a PEP 562 ``_SOURCES = {name: module | (module, attribute)}`` table
    names: imported on first use, so as much an import as an ``import`` statement."""
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        if not (isinstance(target, ast.Name) and target.id == "_SOURCES"):
            continue
        if not isinstance(node.value, ast.Dict):
            continue
        for value in node.value.values:
            if isinstance(value, ast.Tuple) and value.elts:
                value = value.elts[0]
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                yield value.lineno, value.value


def upward_imports(
    package: Path, lower: tuple[str, ...], upper: tuple[str, ...], base: Path | None = None
) -> list[str]:
    """Where a module of ``lower`` imports one of ``upper`` (names relative to ``package``,
    a package meaning everything in it): module-level, function-level, ``TYPE_CHECKING``
    and ``_SOURCES`` imports alike, relative ones resolved."""
    base = package.parent if base is None else base
    root = _dotted(package / "__init__.py", base)

    def inside(module: str, names: tuple[str, ...]) -> bool:
        return any(module == f"{root}.{n}" or module.startswith(f"{root}.{n}.") for n in names)

    found = []
    for path in _python_files(package):
        module = _dotted(path, base)
        if not inside(module, lower):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named: list[tuple[int, str]] = list(_sources_entries(tree))
        for node in _all_imports(tree):
            if isinstance(node, ast.Import):
                named += [(node.lineno, alias.name) for alias in node.names]
                continue
            target = _absolute(node, module, path.name == "__init__.py")
            # ``from pkg.recall import x`` names pkg.recall; ``from pkg import cli``, pkg.cli
            names = [target] if inside(target, upper) else []
            names += [f"{target}.{alias.name}" for alias in node.names if not names]
            named += [(node.lineno, name) for name in names]
        hits = {(line, name) for line, name in named if inside(name, upper)}
        found += [f"{path.relative_to(base)}:{line} {name}" for line, name in sorted(hits)]
    return found


def test_the_direction_rule_sees_every_kind_of_import(tmp_path):
    package = tmp_path / "pkg"
    (package / "recall").mkdir(parents=True)
    (package / "contracts").mkdir()
    for init in (package, package / "recall", package / "contracts"):
        (init / "__init__.py").write_text("")
    (package / "recall" / "flow.py").write_text("X = 1\n")
    (package / "cli.py").write_text("")
    (package / "state.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from pkg.recall import flow\n"
        "def f():\n    import pkg.cli\n"
        "_SOURCES = {'flow': 'pkg.recall.flow'}\n"
    )
    (package / "contracts" / "deep.py").write_text("def g():\n    from ..recall.flow import X\n")
    (package / "plugins.py").write_text("from pkg import state\nimport pkg.contracts\n")
    (package / "recall" / "up.py").write_text("from pkg import state\n")  # downward: fine
    found = upward_imports(package, ("state", "contracts", "plugins"), ("recall", "cli"))
    assert found == [
        "pkg/contracts/deep.py:2 pkg.recall.flow",
        "pkg/state.py:3 pkg.recall",
        "pkg/state.py:5 pkg.cli",
        "pkg/state.py:6 pkg.recall.flow",
    ]


def test_the_plugin_surface_imports_nothing_of_the_library_above_it():
    assert upward_imports(HOST, SURFACE, ABOVE_SURFACE) == []


def test_plugins_import_the_host_only_through_plugin_api():
    assert PLUGIN_PACKAGES, "no plugin package found under plugins/"
    strays = []
    files = [p for package in PLUGIN_PACKAGES for p in _python_files(package)] + TEST_PLUGINS
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _all_imports(tree):
            strays += [
                f"{path.relative_to(ROOT)}:{node.lineno} {name}"
                for name in _host_modules_named(node)
                if name != "loopx_recall_core.plugin_api"
            ]
    assert strays == []


def _docstring_starts(tree: ast.AST) -> set[tuple[int, int]]:
    starts = set()
    for node in ast.walk(tree):
        if isinstance(
            node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
        ) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                starts.add((first.value.lineno, first.value.col_offset))
    return starts


def obelisk_in_code(
    path: Path, allowed_literal: str | None = None, pattern: re.Pattern[str] = _OBELISK
) -> list[str]:
    """Where a ``.py`` file names Obelisk (or what ``pattern`` matches) outside docstrings
    and comments (``line: token``)."""
    source = path.read_text(encoding="utf-8")
    docstrings = _docstring_starts(ast.parse(source))
    kinds = {tokenize.NAME, tokenize.STRING}
    kinds |= {k for k in (getattr(tokenize, "FSTRING_MIDDLE", None),) if k is not None}
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in kinds or not pattern.search(token.string):
            continue
        if token.type == tokenize.STRING and token.start in docstrings:
            continue
        if allowed_literal is not None and token.string.strip("'\"") == allowed_literal:
            continue
        found.append(f"{token.start[0]}: {token.string[:60]}")
    return found


def _obelisk_allowed_file(relative: Path) -> bool:
    # generated schemas carry the v0 literal; the extension catalogue (package data) lists
    # the Obelisk plugin by name
    return (relative.parts[0] == "schemas" and relative.suffix == ".json") or (
        relative.suffix != ".py" and "catalog" in relative.name.lower()
    )


def test_obelisk_scan_skips_docstrings_and_comments_only(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        '"""Obelisk, as an example."""\n'
        "# obelisk in a comment\n"
        "def f(obelisk_bin):\n"
        '    """Runs OBELISK."""\n'
        '    return "obelisk-session-evidence", "OBELISK_HOME"\n'
    )
    assert [line.split(":")[0] for line in obelisk_in_code(module)] == ["3", "5", "5"]
    assert len(obelisk_in_code(module, allowed_literal=V0_PROVIDER_ID)) == 2


def host_files_naming_obelisk() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted(p for p in HOST.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        relative = path.relative_to(HOST)
        if path.suffix == ".py":
            allowed = V0_PROVIDER_ID if relative.as_posix() == V0_CONTRACT else None
            hits = obelisk_in_code(path, allowed)
        elif _obelisk_allowed_file(relative):
            continue
        else:
            text = path.read_text(encoding="utf-8", errors="replace")
            hits = [f"{n}: {line.strip()[:60]}" for n, line in enumerate(text.splitlines(), 1)
                    if _OBELISK.search(line)]
        if hits:
            found[relative.as_posix()] = hits
    return found


def test_the_host_names_obelisk_only_as_an_example():
    assert host_files_naming_obelisk() == {}


#: Product files outside ``runtimes/`` that may name a runtime in code (issue 43: runtime
#: knowledge has one home, the records and the transcript formats in ``runtimes/``), each
#: with why; everything else takes runtimes from there.
RUNTIME_NAMES_ALLOWED = {
    # the deprecated older name plugins were told to import (``_RENAMED``)
    "loopx_recall_core/plugin_api.py",
    # the message refusing Obelisk 0.2.0: a fact about that release (what it stores of a
    # Codex tool call), not about the runtime
    "plugins/obelisk-session-evidence/loopx_obelisk_session_evidence/adapter.py",
}


def product_files_naming_a_runtime() -> set[str]:
    files = [p for p in _python_files(HOST) if "runtimes" not in p.relative_to(HOST).parts]
    files += [p for package in PLUGIN_PACKAGES for p in _python_files(package)]
    pattern = re.compile("claude|codex", re.IGNORECASE)
    return {
        path.relative_to(ROOT).as_posix()
        for path in files
        if obelisk_in_code(path, pattern=pattern)
    }


def test_only_the_runtimes_home_names_a_runtime_in_code():
    assert product_files_naming_a_runtime() == RUNTIME_NAMES_ALLOWED


def test_no_host_module_imports_the_test_support_module():
    strays = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in _python_files(HOST)
        if path.name != "testing.py"
        for line, name in _host_imports_of(path)
        if name == "loopx_recall_core.testing"
    ]
    assert strays == []


def first_level_rooms() -> list[str]:
    """The host's first-level rooms as the layout page writes them: ``name/`` for a package
    (and ``schemas/``, package data), ``name.py`` for a module (not ``__init__``/``__main__``)."""
    return sorted(
        f"{path.name}/" if path.is_dir() else path.name
        for path in HOST.iterdir()
        if (path.suffix == ".py" and not path.name.startswith("__"))
        or (path.is_dir() and (path / "__init__.py").exists())
        or (path.is_dir() and path.name == "schemas")
    )


def layout_entries(page: str) -> list[str]:
    """The first-level entries of the host in the page's ``## Layout`` tree: on each line
    indented two spaces under ``loopx_recall_core/``, the leading names (``x.py``, ``x/``,
    ``x.json``, two spaces apart) before the words."""
    block = page.split("## Layout", 1)[1].split("```")[1]
    entries: list[str] = []
    inside = False
    for line in block.splitlines():
        if line.startswith("loopx_recall_core/"):
            inside = True
            continue
        if inside and line and not line.startswith(" "):
            break
        if inside and line.startswith("  ") and not line.startswith("   "):
            for name in re.split(r" {2,}", line.strip()):
                if not re.fullmatch(r"[\w.]+(\.py|\.json|/)", name):
                    break
                entries.append(name)
    return entries


def test_the_layout_reader_sees_the_tree_entries():
    page = (
        "## Layout\n\n```\nloopx_recall_core/   the host\n"
        "  a.py  b/   words a.py would not count\n"
        "    sub.py                   a second-level entry\n"
        "                              c.py in a description\n"
        "  d.json  e.py   more\n"
        "plugins/   not the host\n  f.py\n```\n"
    )
    assert layout_entries(page) == ["a.py", "b/", "d.json", "e.py"]


def test_the_layout_page_names_every_room():
    """docs/layout.md's tree names each first-level room of the host (``x/`` or ``x.py``)
    and no room that is not there, so the page a newcomer reads cannot drift from the tree."""
    entries = layout_entries((ROOT / "docs" / "layout.md").read_text(encoding="utf-8"))
    rooms = first_level_rooms()
    assert [room for room in rooms if room not in entries] == []
    assert [e for e in entries if e.endswith(("/", ".py")) and e not in rooms] == []
