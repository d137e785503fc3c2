# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
# ruff: noqa: E501  (a table of small projects: one case per entry reads best unwrapped)
"""Capture real failing tool outputs for the decisive-line tests and benchmark.

Each case writes a small failing project into ``$WORK/<name>/``, runs the real tool there
through ``bash -c '<command> 2>&1'`` (stdout and stderr merged, as an agent's shell tool
shows them), and stores the output byte for byte as ``captured/<name>.out`` with its
facts in ``captured/cases.json``: the command, the exit status, the tool's version, and
``decisive``: the line (or the part of it) a reader needs to know what went wrong,
chosen BY HAND when the case was written, never by the code under test. A case whose
label is not in its real output fails the capture.

Not a test and not run by the suite. Run by hand (see captured/README.md):

    PATH=/tmp/evcap/venv/bin:/tmp/evcap/nodetools/node_modules/.bin:$PATH \
        python tests/core/decisive_lines/capture.py /tmp/evcap/proj [NAME...]
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent / "captured"
#: Terminal colour codes (CSI sequences): labels are checked against the text without them.
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")

PY_ADD = "def add(a, b):\n    return a - b\n"

CASES: list[dict] = [
    # ---------------------------------------------------------------- pytest
    {
        "name": "pytest_assert_equal",
        "tool": "pytest",
        "cmd": "pytest",
        "files": {
            "calc.py": PY_ADD,
            "test_calc.py": "from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n",
        },
        "decisive": "assert -1 == 5",
    },
    {
        "name": "pytest_keyerror",
        "tool": "pytest",
        "cmd": "pytest -q",
        "files": {
            "test_cfg.py": "def load():\n    return {'host': 'x'}\n\n"
            "def test_port():\n    assert load()['port'] == 80\n"
        },
        "decisive": "KeyError: 'port'",
    },
    {
        "name": "pytest_three_failures",
        "tool": "pytest",
        "cmd": "pytest",
        "files": {
            "test_many.py": "".join(f"def test_ok_{i}():\n    assert True\n\n" for i in range(12))
            + "def test_a():\n    assert [1, 2] == [1, 3]\n\n"
            "def test_b():\n    raise ValueError('bad input: 42')\n\n"
            "def test_c():\n    assert 'abc'.upper() == 'abc'\n"
        },
        "decisive": "assert [1, 2] == [1, 3]",
    },
    {
        "name": "pytest_collection_import_error",
        "tool": "pytest",
        "cmd": "pytest",
        "files": {"test_imp.py": "import yamlish_missing_module\n\ndef test_x():\n    pass\n"},
        "decisive": "ModuleNotFoundError: No module named 'yamlish_missing_module'",
    },
    {
        "name": "pytest_verbose_long",
        "tool": "pytest",
        "cmd": "pytest -v",
        "files": {
            "test_long.py": "import pytest\n\n@pytest.mark.parametrize('n', range(60))\n"
            "def test_n(n):\n    assert n != 37, f'n hit the bad value {n}'\n"
        },
        "decisive": "AssertionError: n hit the bad value 37",
    },
    {
        "name": "pytest_fixture_missing",
        "tool": "pytest",
        "cmd": "pytest",
        "files": {"test_fix.py": "def test_db(database):\n    assert database\n"},
        "decisive": "fixture 'database' not found",
    },
    {
        "name": "pytest_syntax_error",
        "tool": "pytest",
        "cmd": "pytest",
        "files": {"test_syn.py": "def test_x(:\n    pass\n"},
        "decisive": "SyntaxError",
    },
    {
        "name": "pytest_color",
        "tool": "pytest",
        "cmd": "pytest --color=yes",
        "files": {
            "calc.py": PY_ADD,
            "test_calc.py": "from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n",
        },
        "decisive": "assert -1 == 5",
    },
    {
        "name": "pytest_x_print_noise",
        "tool": "pytest",
        "cmd": "pytest -x -s",
        "files": {
            "test_noise.py": "def test_noise():\n    for i in range(80):\n"
            "        print(f'progress step {i} of 80 ok')\n"
            "    raise RuntimeError('database connection refused on port 5432')\n"
        },
        "decisive": "RuntimeError: database connection refused on port 5432",
    },
    # ---------------------------------------------------------------- python
    {
        "name": "python_zero_division",
        "tool": "python",
        "cmd": "python main.py",
        "files": {"main.py": "def ratio(a, b):\n    return a / b\n\nprint(ratio(1, 0))\n"},
        "decisive": "ZeroDivisionError: division by zero",
    },
    {
        "name": "python_chained",
        "tool": "python",
        "cmd": "python main.py",
        "files": {
            "main.py": "import json\n\ndef read(text):\n    try:\n        return json.loads(text)\n"
            "    except ValueError as e:\n        raise RuntimeError('config is not JSON') from e\n\n"
            "read('{bad')\n"
        },
        "decisive": "RuntimeError: config is not JSON",
    },
    {
        "name": "python_syntax_error",
        "tool": "python",
        "cmd": "python main.py",
        "files": {"main.py": "print('a'\nx = 1\n"},
        "decisive": "SyntaxError: '(' was never closed",
    },
    {
        "name": "python_module_not_found",
        "tool": "python",
        "cmd": "python main.py",
        "files": {"main.py": "import requestz\n"},
        "decisive": "ModuleNotFoundError: No module named 'requestz'",
    },
    {
        "name": "python_noisy_then_traceback",
        "tool": "python",
        "cmd": "python main.py",
        "files": {
            "main.py": "for i in range(120):\n    print(f'processed record {i}')\n"
            "rows = {}\nprint(rows['total'])\n"
        },
        "decisive": "KeyError: 'total'",
    },
    {
        "name": "python_system_exit",
        "tool": "python",
        "cmd": "python main.py --env prod",
        "files": {
            "main.py": "import sys\nprint('loading settings')\n"
            "sys.exit('fatal: settings.prod.toml not found')\n"
        },
        "decisive": "fatal: settings.prod.toml not found",
    },
    {
        "name": "python_unittest",
        "tool": "python",
        "cmd": "python -m unittest",
        "files": {
            "test_u.py": "import unittest\n\nclass T(unittest.TestCase):\n"
            "    def test_eq(self):\n        self.assertEqual(sum([1, 2]), 4)\n"
        },
        "decisive": "AssertionError: 3 != 4",
    },
    # ---------------------------------------------------------------- mypy
    {
        "name": "mypy_one_error",
        "tool": "mypy",
        "cmd": "mypy app.py",
        "files": {"app.py": "def size(x: str) -> int:\n    return x\n"},
        "decisive": 'error: Incompatible return value type (got "str", expected "int")',
    },
    {
        "name": "mypy_many_errors",
        "tool": "mypy",
        "cmd": "mypy app.py",
        "files": {
            "app.py": "def f(x: int) -> str:\n    return str(x)\n\n"
            "f('a')\ny: int = f(1)\nz = undefined_name\n"
        },
        "decisive": 'error: Argument 1 to "f" has incompatible type "str"; expected "int"',
    },
    {
        "name": "mypy_missing_import",
        "tool": "mypy",
        "cmd": "mypy app.py",
        "files": {"app.py": "import notapackage_zz\n"},
        "decisive": 'error: Cannot find implementation or library stub for module named "notapackage_zz"',
    },
    # ---------------------------------------------------------------- ruff
    {
        "name": "ruff_unused_import",
        "tool": "ruff",
        "cmd": "ruff check --no-cache app.py",
        "files": {"app.py": "import os\n\nprint(1)\n"},
        "decisive": "F401 [*] `os` imported but unused",
    },
    {
        "name": "ruff_concise",
        "tool": "ruff",
        "cmd": "ruff check --no-cache --output-format concise .",
        "files": {"a.py": "import sys\nx == 1\n", "b.py": "def f():\n    return undefined_zz\n"},
        "decisive": "F401 [*] `sys` imported but unused",
    },
    {
        "name": "ruff_format_check",
        "tool": "ruff",
        "cmd": "ruff format --no-cache --check .",
        "files": {"a.py": "x=1\ny = [1,2,\n 3]\n"},
        "decisive": "File would be reformatted",
    },
    # ---------------------------------------------------------------- pip
    {
        "name": "pip_no_index",
        "tool": "pip",
        "cmd": "pip install --no-index requests-nonexistent-zz",
        "files": {},
        "decisive": "ERROR: No matching distribution found for requests-nonexistent-zz",
    },
    {
        "name": "pip_bad_pyproject",
        "tool": "pip",
        "cmd": "pip install --no-index --no-build-isolation .",
        "files": {"pyproject.toml": "[project]\nname = 'demo'\nversion = \n"},
        "decisive": "TOMLDecodeError: Invalid value (at line 3, column 11)",
    },
    {
        "name": "pip_invalid_requirement",
        "tool": "pip",
        "cmd": "pip install --no-index 'demo>>1'",
        "files": {},
        "decisive": "ERROR: No matching distribution found for demo>>1",
    },
    # ---------------------------------------------------------------- node
    {
        "name": "node_type_error",
        "tool": "node",
        "cmd": "node main.js",
        "files": {"main.js": "const user = undefined;\nconsole.log(user.name);\n"},
        "decisive": "TypeError: Cannot read properties of undefined (reading 'name')",
    },
    {
        "name": "node_syntax_error",
        "tool": "node",
        "cmd": "node main.js",
        "files": {"main.js": "function f( {\n  return 1;\n}\n"},
        "decisive": "SyntaxError",
    },
    {
        "name": "node_module_not_found",
        "tool": "node",
        "cmd": "node main.js",
        "files": {"main.js": "const x = require('left-padzz');\n"},
        "decisive": "Error: Cannot find module 'left-padzz'",
    },
    {
        "name": "node_unhandled_rejection",
        "tool": "node",
        "cmd": "node main.js",
        "files": {
            "main.js": "async function main() { throw new Error('upstream returned 503'); }\nmain();\n"
        },
        "decisive": "Error: upstream returned 503",
    },
    # ---------------------------------------------------------------- npm
    {
        "name": "npm_test_fails",
        "tool": "npm",
        "cmd": "npm test",
        "files": {
            "package.json": json.dumps(
                {"name": "demo", "version": "1.0.0", "scripts": {"test": "node test.js"}}
            ),
            "test.js": "const assert = require('assert');\nassert.strictEqual(1 + 1, 3);\n",
        },
        "decisive": "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal",
    },
    {
        "name": "npm_missing_script",
        "tool": "npm",
        "cmd": "npm run lint",
        "files": {"package.json": json.dumps({"name": "demo", "version": "1.0.0", "scripts": {}})},
        "decisive": 'npm error Missing script: "lint"',
    },
    {
        "name": "npm_ci_no_lockfile",
        "tool": "npm",
        "cmd": "npm ci --no-audit --no-fund",
        "files": {"package.json": json.dumps({"name": "demo", "version": "1.0.0"})},
        "decisive": "can only install with an existing package-lock.json",
    },
    {
        "name": "npm_install_offline_missing",
        "tool": "npm",
        "cmd": "npm install --no-audit --no-fund --offline left-padzz",
        "files": {"package.json": json.dumps({"name": "demo", "version": "1.0.0"})},
        "decisive": "npm error code ENOTCACHED",
    },
    # ---------------------------------------------------------------- tsc
    {
        "name": "tsc_type_error",
        "tool": "tsc",
        "cmd": "tsc --noEmit app.ts",
        "files": {"app.ts": "const n: number = 'five';\n"},
        "decisive": "error TS2322: Type 'string' is not assignable to type 'number'.",
    },
    {
        "name": "tsc_many_errors",
        "tool": "tsc",
        "cmd": "tsc --noEmit app.ts",
        "files": {"app.ts": "function f(x: number): string { return x; }\nf('a');\nmissingFn();\n"},
        "decisive": "error TS2322: Type 'number' is not assignable to type 'string'.",
    },
    {
        "name": "tsc_pretty",
        "tool": "tsc",
        "cmd": "tsc --noEmit --pretty app.ts",
        "files": {"app.ts": "interface P { name: string }\nconst p: P = { nam: 'x' };\n"},
        "decisive": "error TS2561: Object literal may only specify known properties",
    },
    # ---------------------------------------------------------------- eslint
    {
        "name": "eslint_unused_var",
        "tool": "eslint",
        "cmd": "eslint app.js",
        "files": {
            "app.js": "const unused = 1;\n",
            "eslint.config.js": "module.exports = [{rules: {'no-unused-vars': 'error'}}];\n",
        },
        "decisive": "'unused' is assigned a value but never used",
    },
    {
        "name": "eslint_many",
        "tool": "eslint",
        "cmd": "eslint .",
        "files": {
            "a.js": "var a = 1\nif (a == 2) { debugger; }\n",
            "eslint.config.js": "module.exports = [{rules: {eqeqeq: 'error', 'no-debugger': 'error',"
            " 'no-var': 'error'}}];\n",
        },
        "decisive": "Expected '===' and instead saw '=='",
    },
    # ---------------------------------------------------------------- jest / vitest
    {
        "name": "jest_expect",
        "tool": "jest",
        "cmd": "jest",
        "files": {
            "package.json": json.dumps({"name": "demo", "version": "1.0.0"}),
            "sum.test.js": "test('adds', () => { expect(1 + 2).toBe(4); });\n",
        },
        "decisive": "expect(received).toBe(expected)",
    },
    {
        "name": "jest_throw",
        "tool": "jest",
        "cmd": "jest --ci",
        "files": {
            "package.json": json.dumps({"name": "demo", "version": "1.0.0"}),
            "io.test.js": "function parse(s) { return JSON.parse(s); }\n"
            "test('parses', () => { expect(parse('{x')).toEqual({}); });\n",
        },
        "decisive": "SyntaxError",
    },
    {
        "name": "vitest_expect",
        "tool": "vitest",
        "cmd": "vitest run",
        "files": {
            "package.json": json.dumps({"name": "demo", "version": "1.0.0", "type": "module"}),
            "sum.test.js": "import { test, expect } from 'vitest';\n"
            "test('adds', () => { expect(1 + 2).toBe(4); });\n",
        },
        "decisive": "AssertionError: expected 3 to be 4",
    },
    # ---------------------------------------------------------------- cargo / rustc
    {
        "name": "cargo_type_mismatch",
        "tool": "cargo",
        "cmd": "cargo build --offline",
        "files": {
            "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
            "src/main.rs": 'fn main() {\n    let n: u32 = "five";\n    println!("{}", n);\n}\n',
        },
        "decisive": "error[E0308]: mismatched types",
    },
    {
        "name": "cargo_unresolved",
        "tool": "cargo",
        "cmd": "cargo check --offline",
        "files": {
            "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
            "src/main.rs": 'fn main() {\n    println!("{}", totl);\n}\n',
        },
        "decisive": "error[E0425]: cannot find value `totl` in this scope",
    },
    {
        "name": "cargo_borrow",
        "tool": "cargo",
        "cmd": "cargo build --offline",
        "files": {
            "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
            "src/main.rs": "fn main() {\n    let v = vec![1];\n    let w = v;\n"
            '    println!("{:?} {:?}", v, w);\n}\n',
        },
        "decisive": "error[E0382]: borrow of moved value: `v`",
    },
    {
        "name": "cargo_test_fails",
        "tool": "cargo",
        "cmd": "cargo test --offline",
        "files": {
            "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
            "src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 { a - b }\n\n#[cfg(test)]\nmod tests {\n"
            "    #[test]\n    fn adds() { assert_eq!(super::add(2, 3), 5); }\n}\n",
        },
        "decisive": "assertion `left == right` failed",
    },
    {
        "name": "cargo_color",
        "tool": "cargo",
        "cmd": "cargo build --offline --color always",
        "files": {
            "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
            "src/main.rs": 'fn main() {\n    let n: u32 = "five";\n    println!("{}", n);\n}\n',
        },
        "decisive": "mismatched types",
    },
    {
        "name": "rustc_direct",
        "tool": "rustc",
        "cmd": "rustc main.rs",
        "files": {"main.rs": 'fn main() { let x = 5; x = 6; println!("{x}"); }\n'},
        "decisive": "error[E0384]: cannot assign twice to immutable variable `x`",
    },
    {
        "name": "cargo_panic_run",
        "tool": "cargo",
        "cmd": "cargo run --offline -q",
        "files": {
            "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
            "src/main.rs": "fn main() {\n    let v: Vec<u8> = Vec::new();\n"
            '    let first = v.get(0).expect("input list is empty");\n    println!("{first}");\n}\n',
        },
        "decisive": "input list is empty",
    },
    # ---------------------------------------------------------------- make / gcc / javac
    {
        "name": "make_gcc_error",
        "tool": "make",
        "cmd": "make",
        "files": {
            "Makefile": "all:\n\tgcc -c main.c -o main.o\n",
            "main.c": "int main(void) { return undeclared_var; }\n",
        },
        "decisive": "error: \u2018undeclared_var\u2019 undeclared",
    },
    {
        "name": "make_no_rule",
        "tool": "make",
        "cmd": "make deploy",
        "files": {"Makefile": "all:\n\techo ok\n"},
        "decisive": "No rule to make target 'deploy'",
    },
    {
        "name": "make_recipe_fails",
        "tool": "make",
        "cmd": "make test",
        "files": {"Makefile": "test:\n\t@echo running checks\n\t@test -f config.ini\n"},
        "decisive": "make: *** [Makefile:3: test] Error 1",
    },
    {
        "name": "gcc_error",
        "tool": "gcc",
        "cmd": "gcc -c main.c",
        "files": {
            "main.c": '#include <stdio.h>\nint main(void) { printf("%d\\n", 1) return 0; }\n'
        },
        "decisive": "error: expected \u2018;\u2019 before \u2018return\u2019",
    },
    {
        "name": "javac_error",
        "tool": "javac",
        "cmd": "javac Main.java",
        "files": {
            "Main.java": 'public class Main { public static void main(String[] a) { int x = "s"; } }\n'
        },
        "decisive": "error: incompatible types: String cannot be converted to int",
    },
    # ---------------------------------------------------------------- git
    {
        "name": "git_checkout_missing",
        "tool": "git",
        "cmd": "git checkout feature/nope",
        "setup": "git init -q . && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m init",
        "files": {},
        "decisive": "error: pathspec 'feature/nope' did not match any file(s) known to git",
    },
    {
        "name": "git_push_no_remote",
        "tool": "git",
        "cmd": "git push origin main",
        "setup": "git init -q -b main . && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m init",
        "files": {},
        "decisive": "fatal: 'origin' does not appear to be a git repository",
    },
    {
        "name": "git_merge_conflict",
        "tool": "git",
        "cmd": "git merge other",
        "setup": "git init -q -b main . && echo a > f.txt && git add f.txt && "
        "git -c user.email=a@b -c user.name=a commit -q -m a && git checkout -q -b other && "
        "echo b > f.txt && git -c user.email=a@b -c user.name=a commit -q -am b && "
        "git checkout -q main && echo c > f.txt && git -c user.email=a@b -c user.name=a commit -q -am c",
        "files": {},
        "decisive": "CONFLICT (content): Merge conflict in f.txt",
    },
    {
        "name": "git_apply_fails",
        "tool": "git",
        "cmd": "git apply fix.patch",
        "setup": "git init -q . && printf 'one\\ntwo\\n' > f.txt",
        "files": {"fix.patch": "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-uno\n+one!\n two\n"},
        "decisive": "error: patch failed: f.txt:1",
    },
    {
        "name": "git_not_a_repo",
        "tool": "git",
        "cmd": "git status",
        "files": {},
        "decisive": "fatal: not a git repository",
    },
    # ---------------------------------------------------------------- shell
    {
        "name": "shell_command_not_found",
        "tool": "bash",
        "cmd": "deploy-tool-zz --prod",
        "files": {},
        "decisive": "deploy-tool-zz: command not found",
    },
    {
        "name": "shell_ls_missing",
        "tool": "ls",
        "cmd": "ls build/output",
        "files": {},
        "decisive": "No such file or directory",
    },
    {
        "name": "shell_script_set_e",
        "tool": "bash",
        "cmd": "bash build.sh",
        "files": {
            "build.sh": 'set -e\nfor i in $(seq 1 30); do echo "step $i done"; done\n'
            "cp dist/app.tar.gz /tmp/release/\n"
        },
        "decisive": "cannot stat 'dist/app.tar.gz': No such file or directory",
    },
]

#: Written, labelled and captured AFTER the rules in loopx_recall_core/decisive_lines.py
#: were fixed, and never used to change them: the benchmark reports them apart.
HELD_OUT: list[dict] = [
    {
        "name": "ho_pytest_fixture_error",
        "tool": "pytest",
        "cmd": "pytest -q",
        "files": {
            "test_setup.py": "import pytest\n\n@pytest.fixture\ndef conn():\n"
            "    raise ConnectionError('redis at 127.0.0.1:6390 refused the connection')\n\n"
            "def test_get(conn):\n    assert conn\n"
        },
        "decisive": "ConnectionError: redis at 127.0.0.1:6390 refused the connection",
    },
    {
        "name": "ho_pytest_dict_diff",
        "tool": "pytest",
        "cmd": "pytest",
        "files": {
            "test_d.py": "def test_cfg():\n    got = {'name': 'api', 'port': 8080, 'debug': True}\n"
            "    assert got == {'name': 'api', 'port': 8000, 'debug': True}\n"
        },
        "decisive": "{'port': 8080} != {'port': 8000}",
    },
    {
        "name": "ho_python_file_not_found",
        "tool": "python",
        "cmd": "python load.py",
        "files": {
            "load.py": "import json\n\nwith open('data/config.json') as f:\n    print(json.load(f))\n"
        },
        "decisive": "FileNotFoundError: [Errno 2] No such file or directory: 'data/config.json'",
    },
    {
        "name": "ho_python_argparse",
        "tool": "python",
        "cmd": "python cli.py",
        "files": {
            "cli.py": "import argparse\np = argparse.ArgumentParser()\n"
            "p.add_argument('--name', required=True)\np.parse_args()\n"
        },
        "decisive": "error: the following arguments are required: --name",
    },
    {
        "name": "ho_python_sqlite",
        "tool": "python",
        "cmd": "python db.py",
        "files": {
            "db.py": "import sqlite3\nsqlite3.connect(':memory:').execute('select * from users')\n"
        },
        "decisive": "sqlite3.OperationalError: no such table: users",
    },
    {
        "name": "ho_unittest_error",
        "tool": "python",
        "cmd": "python -m unittest -v",
        "files": {
            "test_e.py": "import unittest\n\nclass T(unittest.TestCase):\n"
            "    def test_parse(self):\n        int('twelve')\n"
        },
        "decisive": "ValueError: invalid literal for int() with base 10: 'twelve'",
    },
    {
        "name": "ho_mypy_two_files",
        "tool": "mypy",
        "cmd": "mypy --strict pkg",
        "files": {
            "pkg/__init__.py": "",
            "pkg/a.py": "def f(x):\n    return x\n",
            "pkg/b.py": "from pkg.a import f\n\nn: int = 'x'\n",
        },
        "decisive": "error: Function is missing a type annotation",
    },
    {
        "name": "ho_node_json_parse",
        "tool": "node",
        "cmd": "node read.js",
        "files": {"read.js": "const data = JSON.parse('{\"a\": 1,}');\nconsole.log(data);\n"},
        "decisive": "SyntaxError",
    },
    {
        "name": "ho_npm_build_tsc",
        "tool": "npm",
        "cmd": "npm run build",
        "files": {
            "package.json": json.dumps(
                {"name": "demo", "version": "1.0.0", "scripts": {"build": "tsc --noEmit index.ts"}}
            ),
            "index.ts": "let total: number = 0;\ntotal = total + '1';\n",
        },
        "decisive": "error TS2322: Type 'string' is not assignable to type 'number'.",
    },
    {
        "name": "ho_cargo_no_method",
        "tool": "cargo",
        "cmd": "cargo build --offline",
        "files": {
            "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
            "src/main.rs": "fn main() {\n    let mut v = vec![3, 1];\n    v.sortt();\n}\n",
        },
        "decisive": "error[E0599]: no method named `sortt` found for struct `Vec<{integer}>` in the current scope",
    },
    {
        "name": "ho_make_missing_source",
        "tool": "make",
        "cmd": "make",
        "files": {"Makefile": "app: src/app.c\n\tgcc -o app src/app.c\n"},
        "decisive": "No rule to make target 'src/app.c', needed by 'app'",
    },
    {
        "name": "ho_git_cherry_pick_conflict",
        "tool": "git",
        "cmd": "git cherry-pick other",
        "setup": "git init -q -b main . && echo a > f.txt && git add f.txt && "
        "git -c user.email=a@b -c user.name=a commit -q -m a && git checkout -q -b other && "
        "echo b > f.txt && git -c user.email=a@b -c user.name=a commit -q -am b && "
        "git checkout -q main && echo c > f.txt && git -c user.email=a@b -c user.name=a commit -q -am c",
        "files": {},
        "decisive": "error: could not apply",
    },
    {
        "name": "ho_bash_unbound",
        "tool": "bash",
        "cmd": "bash deploy.sh",
        "files": {"deploy.sh": 'set -euo pipefail\necho deploying\necho "$DEPLOY_TARGET"\n'},
        "decisive": "DEPLOY_TARGET: unbound variable",
    },
    {
        "name": "ho_pip_requirements_missing",
        "tool": "pip",
        "cmd": "pip install --no-index -r requirements-dev.txt",
        "files": {},
        "decisive": "ERROR: Could not open requirements file",
    },
    {
        "name": "ho_jest_to_equal",
        "tool": "jest",
        "cmd": "jest --ci",
        "files": {
            "package.json": json.dumps({"name": "demo", "version": "1.0.0"}),
            "user.test.js": "test('user', () => { expect({id: 1, name: 'ann'}).toEqual({id: 1, name: 'bob'}); });\n",
        },
        "decisive": "expect(received).toEqual(expected)",
    },
    {
        "name": "ho_curl_refused",
        "tool": "curl",
        "cmd": "curl -sS http://127.0.0.1:9/health",
        "files": {},
        "decisive": "curl: (7) Failed to connect to 127.0.0.1 port 9",
    },
]


def version(tool: str) -> str:
    argv = {
        "make": ["make", "--version"],
        "gcc": ["gcc", "--version"],
        "bash": ["bash", "--version"],
        "ls": ["ls", "--version"],
        "javac": ["javac", "-version"],
        "rustc": ["rustc", "-V"],
        "cargo": ["cargo", "-V"],
        "git": ["git", "--version"],
        "node": ["node", "--version"],
        "npm": ["npm", "--version"],
        "python": ["python", "--version"],
        "pip": ["pip", "--version"],
        "jest": ["jest", "--version"],
        "vitest": ["vitest", "--version"],
    }.get(tool, [tool, "--version"])
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    text = (done.stdout or done.stderr).strip().splitlines()
    return text[0] if text else "unknown"


def main(work: Path, only: list[str]) -> int:
    """Capture every case, or only the named ones (the others' facts are kept)."""
    HERE.mkdir(exist_ok=True)
    known = {}
    if only and (HERE / "cases.json").exists():
        known = {fact["name"]: fact for fact in json.loads((HERE / "cases.json").read_text())}
    facts = []
    bad = 0
    for case in [*CASES, *HELD_OUT]:
        if only and case["name"] not in only:
            if case["name"] in known:
                facts.append(known[case["name"]])
            continue
        folder = work / case["name"]
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for name, text in case["files"].items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text)
        if case.get("setup"):
            subprocess.run(
                ["bash", "-c", case["setup"]], cwd=folder, check=True, capture_output=True
            )
        done = subprocess.run(
            ["bash", "-c", case["cmd"] + " 2>&1"],
            cwd=folder,
            capture_output=True,
            check=False,
            timeout=300,
        )
        output = done.stdout.decode("utf-8", "replace")
        (HERE / f"{case['name']}.out").write_text(output)
        ok = case["decisive"] in ANSI.sub("", output) and done.returncode != 0
        bad += not ok
        print(("ok  " if ok else "BAD ") + case["name"], done.returncode, file=sys.stderr)
        facts.append(
            {
                "name": case["name"],
                "tool": case["tool"],
                "command": case["cmd"],
                "cwd": str(folder),
                "exit_code": done.returncode,
                "version": version(case["tool"]),
                "decisive": case["decisive"],
                "held_out": case in HELD_OUT,
            }
        )
    (HERE / "cases.json").write_text(json.dumps(facts, indent=1) + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), sys.argv[2:]))
