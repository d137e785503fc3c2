# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Running the real Claude Code and Codex CLIs headless for the real-runtime lane
(docs/real-runtime-lane.md): where ``scripts/ensure-runtimes`` installed them, and one
session of either, against :class:`~.model_server.ScriptedModel`, bounded in time.

Facts relied on (``@anthropic-ai/claude-code`` 2.1.328 and ``@openai/codex`` 0.169.0,
observed in this lane, and again by it on 2.1.332 and 0.171.0, the pins since 2026-12-06;
also /work/shared/AGENT_RUNTIMES.md):

* Claude Code: ``claude -p PROMPT --output-format json --dangerously-skip-permissions``
  with ``ANTHROPIC_BASE_URL``, a dummy ``ANTHROPIC_API_KEY`` and
  ``CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1``; as root it refuses
  ``--dangerously-skip-permissions`` unless ``IS_SANDBOX=1``. Without
  ``CLAUDE_CONFIG_DIR`` it reads ``~/.claude/settings.json`` (where ``hook install claude``
  writes) and writes its session to ``~/.claude/projects/<cwd slug>/<session id>.jsonl``.
* Codex: ``codex exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox
  --dangerously-bypass-hook-trust PROMPT`` (without the last flag ``codex exec`` skips the
  untrusted hooks silently); the model provider in ``$CODEX_HOME/config.toml``
  (``base_url``, ``env_key``, ``wire_api = "responses"``); it reads hooks from
  ``$CODEX_HOME/hooks.json`` and writes its rollout to
  ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl``.
* Codex 0.169 at startup, unless told otherwise, synchronizes its curated plugins and asks
  ChatGPT's catalogs: through the lane's proxy it tried ``CONNECT github.com:443``,
  ``api.github.com:443`` and ``chatgpt.com:443`` (observed). ``[features] plugins = false``
  stops that (github/gh-aw#57004: "Codex enables plugins by default, causing API-key and
  BYOK runs to contact unavailable ChatGPT catalogs and synchronize curated plugins at
  startup"; observed: no proxied request with it), with ``check_for_update_on_startup =
  false`` and ``[analytics] enabled = false`` (Codex's config reference) for the version
  check and analytics.
* Both honour ``HTTPS_PROXY``/``HTTP_PROXY`` and ``NO_PROXY`` (Claude Code's documented
  proxy settings; Codex's HTTP client, reqwest, reads them): they are pointed at the
  scripted server, which refuses and records every proxied request, so a test can prove
  nothing left the loopback model (``model.proxied``).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
RUNTIMES = ROOT / ".cache" / "runtimes"
STAMP = RUNTIMES / ".installed"
#: The pinned versions scripts/ensure-runtimes installs (its stamp file says which).
CLAUDE_CODE_VERSION = "2.1.332"
CODEX_VERSION = "0.171.0"
#: One headless session may take this long at most (it takes 2 to 6 s here).
SESSION_TIMEOUT_S = 120


def installed() -> str | None:
    """None when both pinned runtimes are installed, else why not (one line)."""
    want = f"@anthropic-ai/claude-code@{CLAUDE_CODE_VERSION} @openai/codex@{CODEX_VERSION}"
    try:
        stamp = STAMP.read_text().strip()
    except OSError:
        stamp = ""
    if stamp != want:
        return (f"the real runtimes are not installed in {RUNTIMES} ({want}): "
                "run scripts/ensure-runtimes (scripts/test does)")  # fmt: skip
    for name in ("claude", "codex"):
        if not os.access(RUNTIMES / "node_modules" / ".bin" / name, os.X_OK):
            return f"{RUNTIMES}/node_modules/.bin/{name} is missing: run scripts/ensure-runtimes"
    return None


def base_env(home: Path, model_port: int, extra: dict[str, str]) -> dict[str, str]:
    """The runtime's whole environment: nothing from the caller's but PATH (with the test
    venv's bin first, so ``pytest`` is the suite's), a throw-away HOME, dummy keys and
    every proxy pointed at the scripted server."""
    proxy = f"http://127.0.0.1:{model_port}"
    return {
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "HTTPS_PROXY": proxy, "HTTP_PROXY": proxy, "https_proxy": proxy, "http_proxy": proxy,
        "ALL_PROXY": proxy, "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
        **extra,
    }  # fmt: skip


def run_claude(home: Path, cwd: Path, port: int, extra: dict[str, str]) -> dict:
    env = base_env(home, port, {
        "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}",
        "ANTHROPIC_API_KEY": "sk-ant-lane-dummy",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
        **({"IS_SANDBOX": "1"} if os.geteuid() == 0 else {}),
        **extra,
    })  # fmt: skip
    command = [str(RUNTIMES / "node_modules" / ".bin" / "claude"), "-p", "Run the project's steps.",
               "--output-format", "json", "--dangerously-skip-permissions"]  # fmt: skip
    return json.loads(_run(command, cwd, env))


def codex_config(codex_home: Path, port: int) -> None:
    codex_home.mkdir(parents=True, exist_ok=True)
    (codex_home / "config.toml").write_text(
        'model = "lane-model"\n'
        'model_provider = "lane"\n'
        "check_for_update_on_startup = false\n"
        "[model_providers.lane]\n"
        'name = "lane"\n'
        f'base_url = "http://127.0.0.1:{port}/v1"\n'
        'env_key = "LANE_MODEL_KEY"\n'
        'wire_api = "responses"\n'
        "[analytics]\n"
        "enabled = false\n"
        "[features]\n"
        "plugins = false\n"
    )


def run_codex(home: Path, cwd: Path, port: int, extra: dict[str, str]) -> str:
    codex_home = home / ".codex"
    env = base_env(home, port, {"CODEX_HOME": str(codex_home),
                                "LANE_MODEL_KEY": "lane-dummy", **extra})  # fmt: skip
    command = [str(RUNTIMES / "node_modules" / ".bin" / "codex"), "exec", "--skip-git-repo-check",
               "--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust",
               "Run the project's steps."]  # fmt: skip
    return _run(command, cwd, env)


def _run(command: list[str], cwd: Path, env: dict[str, str]) -> str:
    """Run one headless session in its own process group; on the time bound the whole
    group is killed (the runtime and its shells)."""
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)  # fmt: skip
    try:
        out, err = proc.communicate(timeout=SESSION_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError(f"{command[0]} did not finish within {SESSION_TIMEOUT_S} s") from None
    finally:
        with contextlib.suppress(ProcessLookupError):  # anything left running in its group
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 0, (proc.returncode, err.decode(errors="replace")[-2000:])
    return out.decode()


def transcript(home: Path, runtime: str, session: str) -> Path:
    """The file the runtime wrote for ``session``."""
    if runtime == "claude":
        found = list((home / ".claude" / "projects").glob(f"*/{session}.jsonl"))
    else:
        found = list((home / ".codex" / "sessions").rglob(f"rollout-*-{session}.jsonl"))
    assert len(found) == 1, (runtime, session, found)
    return found[0]


#: Recorded transcripts keep, whole, only what the lane itself put in: the shell calls and
#: their outputs (Claude Code's user/assistant ``message`` and ``toolUseResult``; Codex's
#: ``function_call``/``function_call_output`` items and command events). Every other string
#: longer than this, or with a space and longer than :data:`WORDS_CHARS`, is the runtime's own
#: text (system prompts, tool and skill listings, instructions: another project's prose) and
#: is replaced by a stand-in (ids, hashes, names and short values stay).
PROSE_CHARS = 80
WORDS_CHARS = 24
_KEPT_CODEX_ITEMS = frozenset({"function_call", "function_call_output", "item_completed",
                               "exec_command_end", "exec_command_begin"})  # fmt: skip


def _slug(path: str) -> str:
    """Claude Code's project folder name for a cwd (every non-alphanumeric is ``-``)."""
    return "".join(c if c.isalnum() else "-" for c in path)


def _kept(runtime: str, line: dict) -> set[str]:
    """The top-level keys of a transcript line whose strings stay whole."""
    if runtime == "claude" and line.get("type") in ("user", "assistant"):
        return {"message", "toolUseResult"}
    payload = line.get("payload")
    if runtime != "codex" or not isinstance(payload, dict):
        return set()
    kind = payload.get("type")
    item = payload.get("item") or {}
    command = kind != "item_completed" or item.get("type") == "CommandExecution"
    return {"payload"} if kind in _KEPT_CODEX_ITEMS and command else set()


def _shorten(value: object) -> object:
    if isinstance(value, str) and (
        len(value) > PROSE_CHARS or (len(value) > WORDS_CHARS and any(c.isspace() for c in value))
    ):
        return f"[left out: {len(value)} characters of the runtime's own text]"
    if isinstance(value, dict):
        return {key: _shorten(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_shorten(item) for item in value]
    return value


def recorded_form(runtime: str, text: str, home: Path) -> str:
    """A transcript as the fixtures keep it: the test HOME, its folder and this checkout
    replaced by synthetic paths, the runtime's own prose left out (:data:`PROSE_CHARS`);
    every line, key and the lane's own content are as the runtime wrote them."""
    for real, synthetic in ((str(home), "/home/lane"), (str(home.parent), "/tmp/lane"),
                            (str(ROOT), "/opt/loopx-recall-core"),
                            (_slug(str(home)), _slug("/home/lane"))):  # fmt: skip
        text = text.replace(real, synthetic)
    out = []
    for raw in text.splitlines():
        line = json.loads(raw)
        kept = _kept(runtime, line)
        out.append(json.dumps({k: v if k in kept else _shorten(v) for k, v in line.items()},
                              ensure_ascii=False))  # fmt: skip
    return "\n".join(out) + "\n"


def record(runtime: str, label: str, home: Path, session: str) -> None:
    """With ``LOOPX_RECALL_LANE_RECORD=<folder>``, write the session's transcript there in
    its recorded form (:func:`recorded_form`) as ``<runtime>-<label>.jsonl``: how the
    fixtures in tests/obelisk_double/recorded/ are made."""
    folder = os.environ.get("LOOPX_RECALL_LANE_RECORD")
    if folder:
        text = transcript(home, runtime, session).read_text()
        (Path(folder) / f"{runtime}-{label}.jsonl").write_text(recorded_form(runtime, text, home))
