# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Real-world-shaped settings files for ``hook install`` + ``hook uninstall`` (issue 31).

Each is shaped like a file people keep: Claude Code's ``settings.json`` (keys it documents:
``permissions``, ``env``, ``model``, ``statusLine``, ``hooks`` with ``matcher`` groups of
``{"type": "command", "command"}`` handlers, ``enabledPlugins``; docs.anthropic.com/en/docs/
claude-code/settings and /hooks), Codex's ``hooks.json`` (the same ``hooks`` shape) and
``config.toml`` (``model``, ``approval_policy``, ``[profiles.*]``, ``[mcp_servers.*]``,
``[features]``, inline ``[hooks]`` tables and ``[hooks.state]``;
developers.openai.com/codex/config-reference and /codex/hooks). The layouts vary the
way hand-edited and tool-written files do: CRLF, tabs, 4 spaces, one line, no final
newline, ``\\u`` escapes and lone surrogates, ``1.50``/``1e3``/``-0``, comments (TOML), and
every TOML table form (header, dotted key, inline table, array of tables, inline array).
"""

from __future__ import annotations

USER_HOOK = '{"type": "command", "command": "~/bin/lint --fix"}'
LOOKALIKE = '{"type": "command", "command": "loopx-recall hook claude --agent-id a --project-id j && notify-send started"}'  # noqa: E501

JSON_FILES: dict[str, str] = {
    "empty": "",
    "empty-object": "{}",
    "empty-object-newline": "{}\n",
    "whitespace-only": "\n",
    "spaced-empty-object": "{ }\n",
    "two-space": '{\n  "model": "opus",\n  "permissions": {\n    "allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"],\n    "deny": ["Read(./.env)"]\n  }\n}\n',  # noqa: E501
    "four-space-crlf": '{\r\n    "env": {\r\n        "CLAUDE_CODE_ENABLE_TELEMETRY": "1",\r\n        "OTEL_METRICS_EXPORTER": "otlp"\r\n    },\r\n    "cleanupPeriodDays": 20\r\n}\r\n',  # noqa: E501
    "tabs": '{\n\t"includeCoAuthoredBy": false,\n\t"statusLine": {\n\t\t"type": "command",\n\t\t"command": "~/.claude/statusline.sh"\n\t}\n}\n',  # noqa: E501
    "one-line": '{"model":"sonnet","permissions":{"allow":["Bash(git diff:*)"]}}',
    "one-line-spaced": '{"model": "sonnet", "cleanupPeriodDays": 30}\n',
    "no-final-newline": '{\n  "theme": "dark",\n  "verbose": true\n}',
    "numbers": '{\n  "ratio": 1.50,\n  "big": 1e3,\n  "neg": -0,\n  "exp": 2.5E-3,\n  "n": 12345678901234567890\n}\n',  # noqa: E501
    "escapes": '{\n  "greeting": "caf\\u00e9 \\u2603 \\"quoted\\" \\/ \\\\",\n  "raw": "héllo ☃",\n  "lone": "\\ud800"\n}\n',  # noqa: E501
    "key-spacing": '{\n  "model" : "opus" ,\n  "verbose":true\n}\n',
    "user-hooks-other-events": '{\n  "hooks": {\n    "Stop": [\n      {\n        "hooks": [\n          {\n            "type": "command",\n            "command": "say done"\n          }\n        ]\n      }\n    ],\n    "Notification": [{"hooks": [{"type": "command", "command": "notify-send Claude"}]}]\n  }\n}\n',  # noqa: E501
    "user-hooks-same-events": '{\n  "permissions": {"allow": []},\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "Edit|Write",\n        "hooks": [' + USER_HOOK + ']\n      }\n    ],\n    "SessionStart": [\n      {\n        "matcher": "startup",\n        "hooks": [{"type": "command", "command": "echo hi", "timeout": 5}]\n      }\n    ]\n  }\n}\n',  # noqa: E501
    "lookalike-handler": '{\n  "hooks": {\n    "SessionStart": [\n      {\n        "hooks": [\n          ' + LOOKALIKE + '\n        ]\n      }\n    ]\n  }\n}\n',  # noqa: E501
    "empty-hooks-later-keys": '{\n  "hooks": {\n    "Stop": []\n  },\n  "model": "opus"\n}\n',
    "hooks-first-crlf-tabs": '{\r\n\t"hooks": {\r\n\t\t"PostToolUse": [\r\n\t\t\t{\r\n\t\t\t\t"matcher": "Write",\r\n\t\t\t\t"hooks": [{"type": "command", "command": "prettier --write"}]\r\n\t\t\t}\r\n\t\t]\r\n\t},\r\n\t"model": "opus"\r\n}',  # noqa: E501
    "plugins-and-mcp": '{\n  "enabledPlugins": {\n    "formatter@acme-tools": true\n  },\n  "enableAllProjectMcpServers": false,\n  "enabledMcpjsonServers": ["memory", "github"],\n  "apiKeyHelper": "/bin/generate_temp_api_key.sh"\n}\n',  # noqa: E501
    "deep-user-value": '{\n  "x": ' + "[" * 60 + "1" + "]" * 60 + ',\n  "y": null\n}\n',
    "leading-whitespace": '\n\n  {"model": "opus"}  \n\n',
    "codex-hooks-json": '{\n  "hooks": {\n    "SessionStart": [\n      {\n        "matcher": "startup|resume",\n        "hooks": [\n          {\n            "type": "command",\n            "command": "python3 ~/.codex/hooks/session_start.py",\n            "statusMessage": "Loading session notes"\n          }\n        ]\n      }\n    ]\n  }\n}\n',  # noqa: E501
    "mixed-indent-unicode-keys": '{\n   "名前": "値",\n   "emoji 🎉": [1, 2.0, 3e-1],\n   "nested": {"a": {"b": {"c": []}}}\n}\n',  # noqa: E501
}

TOML_FILES: dict[str, str] = {
    "toml-empty": "",
    "toml-plain": 'model = "gpt-5-codex"\napproval_policy = "on-request"\n',
    "toml-no-final-newline": 'model = "gpt-5-codex"\nsandbox_mode = "workspace-write"',
    "toml-crlf": 'model = "o3"\r\n\r\n[profiles.fast]\r\nmodel = "o4-mini"\r\n',
    "toml-comments": '# Codex config\nmodel = "gpt-5-codex"  # default\n\n# MCP\n[mcp_servers.docs]\ncommand = "npx"  # runner\nargs = ["-y", "mcp-server"]\n',  # noqa: E501
    "toml-hooks-header": '[hooks]\n\n[[hooks.Stop]]\n\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "say done"\n',  # noqa: E501
    "toml-hooks-aot-same-event": '[[hooks.PreToolUse]]\nmatcher = "Edit"\n\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "lint"\ntimeout = 30\n\n[profiles.deep]\nmodel = "o3"\n',  # noqa: E501
    "toml-inline-array": 'model = "o3"\n\n[hooks]\nSessionStart = [{ hooks = [{ type = "command", command = "echo hi" }] }]\n',  # noqa: E501
    "toml-hooks-state": '[[hooks.SessionStart]]\nmatcher = "startup"\n[[hooks.SessionStart.hooks]]\ntype = "command"\ncommand = "notes"\n\n[hooks.state]\n"user:abc" = { trusted = true }\n',  # noqa: E501
    "toml-dotted-keys": 'model = "o3"\nfeatures.hooks = true\ntui.notifications = ["agent-turn-complete"]\n',  # noqa: E501
    "toml-literal-strings": "notify = ['notify-send', 'Codex']\nmodel_instructions_file = 'C:\\Users\\me\\AGENTS.md'\nmulti = '''\nline\n'''\n",  # noqa: E501
    "toml-numbers-dates": 'model_context_window = 1_000_000\ntemperature = 1.50\nratio = 1e3\nwhen = 1979-05-27T07:32:00Z\nhex = 0xDEAD\n',  # noqa: E501
    "toml-escapes": 'greeting = "caf\\u00e9 \\U0001F600 \\"q\\""\nraw = "héllo"\n',
    "toml-tables-after-blank-lines": 'model = "o3"\n\n\n[features]\nweb_search_request = true\n\n\n',  # noqa: E501
    "toml-trailing-comment-no-newline": 'model = "o3"\n# the end',
    "toml-lookalike": '[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ntype = "command"\ncommand = "loopx-recall hook codex --agent-id a --project-id j && notify-send started"\n',  # noqa: E501
    "toml-indented": '[profiles.fast]\n  model = "o4-mini"\n  approval_policy = "never"\n\n[mcp_servers.fs]\n  command = "mcp-fs"\n',  # noqa: E501
}
