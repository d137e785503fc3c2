// SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
// SPDX-License-Identifier: Apache-2.0
//
// Protocol double of the `obelisk` CLI, written from the interface description in
// /work/shared/OBELISK_PROTOCOL.md and from facts read in Obelisk's public source (each
// one, with where it came from, is listed in tests/obelisk_double/README.md; no Obelisk
// code, schema text or prose is copied). It exists so the session-evidence plugin can
// be tested against the documented process interface, including the traps a caller
// must survive. It is NOT a security sandbox.
//
// Verbs
//   --version | -v     print the version (setting "version", default 0.3.0)
//   --build            forced full rebuild; prints {"ok":true,"db":"<path>"}
//   --query FILE       incremental build (unless skipped), the nonce phase (README.md fact
//                      15), then run FILE's text as the body
//                      of `(async () => { BODY })()` with the global `sql`; pretty JSON out
//   --search TEXT...   small FTS helper, pretty JSON array of message hits (not relied on)
//   anything else      usage on stderr, empty stdout, exit 1
//
// Settings: $HOME/.obelisk-double.json (HOME as the double sees it), a JSON object with
// any of these keys; no file means every default. Read by every verb; a file that is not
// a JSON object, an unknown key, a value of the wrong type or an unknown fault name is a
// usage error (exit 1) so typos are never silently ignored. There are no environment
// switches: the product passes the binary only an allowlist with nothing test-only in it.
//   fault            fault names (list of strings, or one comma-separated string), below
//   version          what --version prints and the version marker records ("0.3.0");
//                    the double also answers as that release (see "releases" below)
//   slow_ms          sleep of the `slow` fault (3000)
//   build_grace_ms   pre-query build skipped while __last_build__ is younger (30000)
//   nonce_poll_ms    how long a query whose invoking session was not found polls the
//                    index after its extra build (0; the real CLI: 4000)
//   flood_max_bytes  safety stop of the `flood` fault (4 GiB)
//
// Index: $HOME/.obelisk/obelisk.sqlite (OBELISK_HOME is not read). Writer lease: an
// immediate (never waited for) write transaction on $HOME/.obelisk/writer.lock.sqlite,
// as the real CLI's. A build does not run (reason codes as the real CLI's):
//   daemon_active  an `__app_heartbeat__` row in index_state is younger than 60 s
//                  (every build but the query's nonce-phase one),
//   recent_build   `__last_build__` is younger than build_grace_ms (incremental builds
//                  but the nonce-phase one),
//   writer_busy    someone else holds the writer lease.
// A query goes on with the index as it is and says why on stderr (stderr is never
// failure); --build fails with the error envelope "Index rebuild was not published:
// <reason>". The `stale` fault skips every refresh of a query.
//
// index_state marker rows written by every build:
//   __last_build__        mtime = epoch ms of the build, lines_processed = transcript lines
//                         in the index, cursor = 'full' | 'incremental'
//   __provider_version__  mtime = epoch ms of the build, lines_processed = INDEX_SCHEMA,
//                         cursor = the double's version string
// Transcript rows: jsonl_path = absolute file path, mtime = file mtime in epoch ms,
// lines_processed = non-empty lines read, cursor = file size in bytes. A file is
// re-indexed when its mtime or size differs from its row; vanished files are dropped.
//
// Identity of rows (as upstream; README.md gives the sources): sessions.id,
// messages.uuid, tool_calls.id, tool_results.tool_use_id and summaries.id are each the
// whole primary key, and a later row with the same key REPLACES the earlier one, from
// whichever session or file it came. Claude ids are the transcript's own, so the same
// tool_use id in two Claude sessions leaves one row; Codex ids are namespaced by thread,
// so the same call_id in two Codex sessions gives two rows.
//
// Transcript mapping
//   Claude  session id = file name; messages.uuid = line uuid; tool ids = the transcript's
//           tool_use id; timestamp and cwd stored as the transcript wrote them. Our
//           choices: text = the text blocks joined by "\n" ('' for pure tool lines);
//           content_type = first block's type; tool_results.file_path = the matching
//           tool_use's file_path. Summaries: only {"type":"system","subtype":
//           "away_summary","content","uuid","timestamp"} lines (id = uuid, source
//           'away_summary', visible); {"type":"summary"} lines are ignored.
//   Codex   thread id = session_meta.payload.id (a leading "codex:" dropped); session id =
//           "codex:<thread id>"; a file without one gives no rows. messages.uuid =
//           "codex:<thread id>:<NNNNNN>", the 1-based ordinal of the non-empty line padded
//           to six digits; tool_calls.id = tool_results.tool_use_id =
//           "codex:<thread id>:<call_id>". cwd = the latest session_meta/turn_context cwd,
//           absolute only and lexically normalized; timestamp = the line's, as written.
//           event_msg user_message/agent_message -> role user/assistant; each
//           function_call (and custom_tool_call) also gets a message row (role assistant,
//           text '', content_type tool_use) so calls join messages for timestamp and cwd;
//           an output gets NO message row: its message_uuid is its call's message.
//           Our choices: response_item `message` lines are ignored (they repeat event_msg
//           text); `compacted` lines are ignored (as upstream).
//   Both    project_path = the most frequent normalized absolute messages.cwd (ties: the
//           earliest by timestamp). Our choices: visibility = the line's "visibility"
//           field if valid, else "hidden" when isVisibleInTranscriptOnly is true, else
//           "visible"; title = first visible user text; messages_fts holds every message
//           with non-empty text (any visibility).
//
// Faults (setting "fault"; applied to --query only).
// Every fault writes a line containing CANARY-OBELISK-STDERR-7f3a to stderr.
//   hang       ignores SIGTERM/SIGINT/SIGHUP, starts a grandchild `sleep` (also ignoring
//              them) in the same process group that inherits stdout/stderr, never exits:
//              only SIGKILL to the whole group ends it and closes the pipes. Once all of
//              them ignore the signals it writes "obelisk (double): hang: signals ignored"
//              to stderr.
//   slow       sleeps slow_ms after the build, then answers.
//   flood      writes "[\n" then 64 KiB lines (containing CANARY-OBELISK-STDOUT-91c2) to
//              stdout without end (a safety stop at flood_max_bytes, after which it idles
//              forever); never exits by itself.
//   garbage    non-JSON text that starts like JSON (contains the stdout canary), exit 0.
//   undefined  prints `undefined`, exit 0.
//   empty      prints nothing, exit 0.
//   error      one-line {"error","stack"} whose message contains the stdout canary, exit 1.
//   crash      partial JSON (with the stdout canary) on stdout, a fatal message on stderr,
//              exit code 134 (an abort would dump core into the caller's cwd).
//   noise      two console.log lines (one with the stdout canary) before the real JSON.
//   inject     runs the real script, then walks the returned value: into EVERY array
//              (top level or nested in plain objects/arrays) whose first element is a plain
//              object having a `project_path` or `session_id` key, it appends a copy of that
//              first element with project_path = "/elsewhere/other-repo" and
//              source = "kimi" (both set even if absent), session_id =
//              "kimi:injected-7f3a" (only if the key exists) and cwd =
//              "/elsewhere/other-repo" (only if the key exists). Empty arrays are untouched.
//   stale      skips every refresh of the query (the pre-query build and the nonce phase).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import vm from 'node:vm';

// Bumped whenever the DDL or the transcript mapping below changes; a mismatch forces a
// full rebuild so old fixture indexes never answer with a different shape.
const INDEX_SCHEMA = 3;
const STDERR_CANARY = 'CANARY-OBELISK-STDERR-7f3a';
const STDOUT_CANARY = 'CANARY-OBELISK-STDOUT-91c2';
const FOREIGN_PATH = '/elsewhere/other-repo';
const TOOL_RESULT_MAX = 10_000;
const HEARTBEAT_FRESH_MS = 60_000;
const SYNC_TIMEOUT_MS = 30_000;
const FILE_PATH_TOOLS = new Set(['Read', 'Edit', 'Write', 'MultiEdit']);
const VISIBILITIES = new Set(['visible', 'hidden', 'inactive']);
const FAULTS = new Set([
  'hang', 'slow', 'flood', 'garbage', 'undefined', 'empty', 'error', 'crash', 'noise',
  'inject', 'stale',
]);

const USAGE = `usage: obelisk --version | --build | --query FILE | --search TEXT...
  (protocol double for tests; see tests/obelisk_double/obelisk.mjs)
`;

class UsageError extends Error {}

// ---------------------------------------------------------------- settings

// The double's switches live in a file under its HOME, never in environment variables:
// the product forwards no test-only variable to the binary, and a real Obelisk never
// reads this file, so nothing here can leak into or steer a production run.
const SETTINGS_FILE = '.obelisk-double.json';
const DEFAULT_SETTINGS = Object.freeze({
  fault: [],
  version: '0.3.0',
  slow_ms: 3000,
  build_grace_ms: 30_000,
  nonce_poll_ms: 0,
  flood_max_bytes: 4 * 1024 ** 3,
  missing_columns: [],
});

function settingsPath() {
  return path.join(os.homedir(), SETTINGS_FILE);
}

// A missing file means the defaults; anything unreadable, malformed or unknown is a
// usage error, so a typo never silently runs the double without the intended switch.
function loadSettings() {
  const file = settingsPath();
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if (e.code === 'ENOENT') return { ...DEFAULT_SETTINGS };
    throw new UsageError(`cannot read ${SETTINGS_FILE}: ${e.code || e.message}`);
  }
  let raw;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new UsageError(`${SETTINGS_FILE} is not valid JSON`);
  }
  if (!isPlainObject(raw)) throw new UsageError(`${SETTINGS_FILE} must hold a JSON object`);
  const settings = { ...DEFAULT_SETTINGS };
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'fault') {
      const names = typeof value === 'string' ? value.split(',')
        : Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null;
      if (names === null) throw new UsageError(`${SETTINGS_FILE}: "fault" must be a string or a list of strings`);
      settings.fault = names.map((n) => n.trim()).filter(Boolean);
      for (const f of settings.fault) if (!FAULTS.has(f)) throw new UsageError(`unknown fault "${f}" in ${SETTINGS_FILE}`);
    } else if (key === 'missing_columns') {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && /^[a-z_]+\.[a-z_]+$/.test(v))) {
        throw new UsageError(`${SETTINGS_FILE}: "missing_columns" must be a list of "table.column" names`);
      }
      settings.missing_columns = [...value];
    } else if (key === 'version') {
      if (typeof value !== 'string' || !value) throw new UsageError(`${SETTINGS_FILE}: "version" must be a non-empty string`);
      settings.version = value;
    } else if (key in DEFAULT_SETTINGS) {
      if (!Number.isSafeInteger(value) || value < 0) {
        throw new UsageError(`${SETTINGS_FILE}: "${key}" must be a non-negative integer`);
      }
      settings[key] = value;
    } else {
      throw new UsageError(`unknown setting "${key}" in ${SETTINGS_FILE}`);
    }
  }
  return settings;
}

let SETTINGS = DEFAULT_SETTINGS; // replaced by main() before any verb runs

// ---------------------------------------------------------------- releases

// The double follows the newest release it models (0.3.0) and answers as an older one when
// its `version` setting names one. What differs, each a fact with its source (README.md,
// "Releases"): 0.2.0 = fork KinomotoMio/obelisk tag v0.2.0 (21c3a1b9), 0.2.1 = its commit
// 28fa99ac (the CLI bumped to 0.2.1), 0.2.4 and 0.3.0 = tommy0103/obelisk sources (0.3.0:
// cli/package.json, query.ts and ADR 0017 @ 8cb5146447dc, schema.sql @ 230fb64e). Nothing
// the plugin reads differs between 0.2.4 and 0.3.0 (README.md R8, R9): 0.3.0 answers as
// 0.2.4 under its own version. 0.2.2 and 0.2.3 were not seen: the double answers for them
// as 0.2.1. A version it cannot read is 0.3.0.
function releaseOf(version) {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(String(version));
  const v = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 3, 0];
  const before = (...w) => v[0] - w[0] || v[1] - w[1] || v[2] - w[2];
  return Object.freeze({
    // 0.2.0 keys a Codex tool call and result by `codex:<call_id>` alone (no thread).
    codexCallIdsPerThread: before(0, 2, 1) >= 0,
    // 0.2.0 messages have no `visibility` column; 0.2.1-0.2.3 summaries have none.
    messagesVisibility: before(0, 2, 1) >= 0,
    summariesVisibility: before(0, 2, 4) >= 0,
    // No invocation (nonce) phase before 0.2.4: a query's only refresh is its debounced one.
    noncePhase: before(0, 2, 4) >= 0,
    // Before 0.2.4 `--build` prints {"ok":true,...} and exits 0 whatever the build did
    // (skipped for a heartbeat or a held lease, units that failed skipped with a warning).
    buildReportsOutcome: before(0, 2, 4) >= 0,
    // Before 0.2.4 sql() refuses a statement holding INSERT, UPDATE, DELETE, REPLACE,
    // CREATE, DROP, ALTER, PRAGMA, VACUUM, ATTACH or DETACH as a word anywhere.
    sqlKeywordScan: before(0, 2, 4) < 0,
  });
}

let RELEASE = releaseOf(DEFAULT_SETTINGS.version); // replaced by main() with SETTINGS

// ---------------------------------------------------------------- locations

// Always under HOME, as the real 0.2.4 CLI (it reads no OBELISK_HOME; README.md).
function obeliskHome() {
  return path.join(os.homedir(), '.obelisk');
}

function dbPath() {
  return path.join(obeliskHome(), 'obelisk.sqlite');
}

// ---------------------------------------------------------------- schema (our own DDL)

const DDL = `
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  title TEXT,
  project TEXT,
  project_path TEXT,
  started_at TEXT,
  ended_at TEXT,
  git_branch TEXT,
  version TEXT,
  message_count INTEGER NOT NULL DEFAULT 0,
  jsonl_path TEXT,
  source TEXT
);
CREATE INDEX IF NOT EXISTS sessions_by_path ON sessions(jsonl_path);
CREATE INDEX IF NOT EXISTS sessions_by_project_path ON sessions(project_path);

CREATE TABLE IF NOT EXISTS messages (
  uuid TEXT NOT NULL,
  session_id TEXT NOT NULL,
  type TEXT,
  parent_uuid TEXT,
  timestamp TEXT,
  role TEXT,
  text TEXT,
  content_type TEXT,
  is_meta INTEGER NOT NULL DEFAULT 0,
  visibility TEXT NOT NULL DEFAULT 'visible',
  model TEXT,
  is_sidechain INTEGER NOT NULL DEFAULT 0,
  agent_id TEXT,
  input_tokens INTEGER,
  output_tokens INTEGER,
  cwd TEXT,
  skill TEXT,
  turn_duration_ms INTEGER,
  source TEXT,
  PRIMARY KEY (uuid)
);
CREATE INDEX IF NOT EXISTS messages_by_session ON messages(session_id);
CREATE INDEX IF NOT EXISTS messages_by_time ON messages(session_id, timestamp);

CREATE TABLE IF NOT EXISTS tool_calls (
  id TEXT NOT NULL,
  message_uuid TEXT,
  session_id TEXT NOT NULL,
  name TEXT,
  presentation TEXT,
  input_json TEXT,
  file_path TEXT,
  PRIMARY KEY (id)
);
CREATE INDEX IF NOT EXISTS tool_calls_by_session ON tool_calls(session_id);
CREATE INDEX IF NOT EXISTS tool_calls_by_message ON tool_calls(message_uuid);

CREATE TABLE IF NOT EXISTS tool_results (
  tool_use_id TEXT NOT NULL,
  message_uuid TEXT,
  session_id TEXT NOT NULL,
  content TEXT,
  file_path TEXT,
  is_error INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (tool_use_id)
);
CREATE INDEX IF NOT EXISTS tool_results_by_session ON tool_results(session_id);
CREATE INDEX IF NOT EXISTS tool_results_by_message ON tool_results(message_uuid);

CREATE TABLE IF NOT EXISTS summaries (
  id TEXT PRIMARY KEY,
  session_id TEXT,
  timestamp TEXT,
  source TEXT,
  content TEXT,
  visibility TEXT NOT NULL DEFAULT 'visible',
  input_tokens INTEGER,
  output_tokens INTEGER
);
CREATE INDEX IF NOT EXISTS summaries_by_session ON summaries(session_id);

-- cursor is deliberately untyped: a byte offset for transcripts, text for markers.
CREATE TABLE IF NOT EXISTS index_state (
  jsonl_path TEXT PRIMARY KEY,
  mtime INTEGER,
  lines_processed INTEGER,
  cursor
);

CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(
  uuid UNINDEXED, session_id UNINDEXED, text, tokenize = 'unicode61'
);
`;

// What the index was built as: the release, and the columns a test left out.
function indexFlavour() {
  const missing = [...SETTINGS.missing_columns].sort();
  return missing.length ? `${SETTINGS.version} without ${missing.join(',')}` : SETTINGS.version;
}

// The columns the index lacks (table -> set of names): the release's own (visibility
// before 0.2.1/0.2.4) and the setting `missing_columns` (a test's stand-in for a release
// that dropped or renamed a column the plugin's template reads).
function missingColumns() {
  const missing = new Map();
  const add = (table, column) => missing.set(table, new Set([...(missing.get(table) || []), column]));
  if (!RELEASE.messagesVisibility) add('messages', 'visibility');
  if (!RELEASE.summariesVisibility) add('summaries', 'visibility');
  for (const name of SETTINGS.missing_columns) add(...name.split('.'));
  return missing;
}

// The DDL of the release the double answers as: without the columns it lacks.
function releaseDdl() {
  const drop = (ddl, table) => ddl.replace(
    new RegExp(`(CREATE TABLE IF NOT EXISTS ${table} \\([^;]*?)\\n  visibility TEXT NOT NULL DEFAULT 'visible',`),
    '$1',
  );
  let ddl = DDL;
  if (!RELEASE.messagesVisibility) ddl = drop(ddl, 'messages');
  if (!RELEASE.summariesVisibility) ddl = drop(ddl, 'summaries');
  for (const name of SETTINGS.missing_columns) {
    const [table, column] = name.split('.');
    ddl = ddl.replace(
      new RegExp(`(CREATE TABLE IF NOT EXISTS ${table} \\([^;]*?)\\n  ${column} [^,\\n]*,`),
      '$1',
    );
  }
  return ddl;
}

// ---------------------------------------------------------------- transcript discovery

function statFile(p) {
  // bigint stat: float mtimeMs can land a hair below the true millisecond.
  const st = fs.statSync(p, { bigint: true });
  return { path: p, mtime: Number(st.mtimeNs / 1_000_000n), size: Number(st.size) };
}

function listTranscripts(home) {
  const out = [];
  const claudeRoot = path.join(home, '.claude', 'projects');
  for (const dir of safeReaddir(claudeRoot)) {
    if (!dir.isDirectory()) continue;
    for (const f of safeReaddir(path.join(claudeRoot, dir.name))) {
      // Any entry named *.jsonl is a unit, as upstream: a folder or a dangling symlink
      // so named fails when it is parsed (README.md fact 16), not here.
      if (!f.name.endsWith('.jsonl')) continue;
      const p = path.join(claudeRoot, dir.name, f.name);
      let st;
      try {
        st = statFile(p);
      } catch {
        st = { path: p, mtime: null, size: null };
      }
      out.push({ ...st, runtime: 'claude' });
    }
  }
  const walk = (dir) => {
    for (const e of safeReaddir(dir)) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith('.jsonl')) out.push({ ...statFile(p), runtime: 'codex' });
    }
  };
  walk(path.join(home, '.codex', 'sessions'));
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return out;
}

function safeReaddir(dir) {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function readJsonLines(file) {
  const lines = [];
  let malformed = 0;
  for (const raw of fs.readFileSync(file, 'utf8').split('\n')) {
    // Only empty lines are skipped (a whitespace-only line still counts as a malformed
    // one), so a line's ordinal is the one the Codex message uuid is built from.
    if (!raw) continue;
    try {
      const obj = JSON.parse(raw);
      lines.push(obj && typeof obj === 'object' ? obj : null);
    } catch {
      lines.push(null);
      malformed += 1;
    }
  }
  if (malformed) process.stderr.write(`obelisk: skipped ${malformed} malformed line(s) in ${file}\n`);
  return lines;
}

// ---------------------------------------------------------------- transcript mapping

function visibilityOf(line) {
  if (VISIBILITIES.has(line.visibility)) return line.visibility;
  if (line.isVisibleInTranscriptOnly) return 'hidden';
  return 'visible';
}

function mostFrequent(values) {
  // Ties go to the value seen first, so the choice is stable across rebuilds.
  const counts = new Map();
  for (const v of values) if (v) counts.set(v, (counts.get(v) || 0) + 1);
  let best = null;
  let bestCount = 0;
  for (const [v, c] of counts) {
    if (c > bestCount) {
      best = v;
      bestCount = c;
    }
  }
  return best;
}

// A cwd as the index compares it: absolute paths lexically normalized (no `.`/`..`
// segments, no doubled separators, no trailing separator), anything else dropped.
function normalizedCwd(cwd) {
  if (typeof cwd !== 'string' || !cwd.trim() || !path.isAbsolute(cwd)) return null;
  const normal = path.normalize(cwd);
  return normal.length > 1 && normal.endsWith('/') ? normal.slice(0, -1) : normal;
}

// Messages' cwds ordered by timestamp (missing timestamps last), file order otherwise,
// so a tie between two equally frequent cwds goes to the one seen earliest in time.
function cwdsByTime(messages) {
  return messages
    .map((m, i) => ({ m, i }))
    .sort((a, b) => {
      const ta = a.m.timestamp;
      const tb = b.m.timestamp;
      if (!ta !== !tb) return ta ? -1 : 1;
      if (ta && tb && ta !== tb) return ta < tb ? -1 : 1;
      return a.i - b.i;
    })
    .map(({ m }) => m.cwd);
}

function asText(value) {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    return value
      .filter((b) => b && b.type === 'text' && typeof b.text === 'string')
      .map((b) => b.text)
      .join('\n');
  }
  return JSON.stringify(value);
}

function titleFrom(messages) {
  const first = messages.find((m) => m.role === 'user' && !m.is_meta && m.visibility === 'visible' && m.text);
  return first ? first.text.split('\n')[0].slice(0, 120) : null;
}

function finishSession(parsed, base) {
  const stamps = [...parsed.messages.map((m) => m.timestamp), ...parsed.extraStamps].filter(Boolean).sort();
  const session = {
    ...base,
    title: titleFrom(parsed.messages),
    project_path: mostFrequent(cwdsByTime(parsed.messages).map(normalizedCwd)),
    started_at: stamps[0] || null,
    ended_at: stamps[stamps.length - 1] || null,
    message_count: parsed.messages.length,
  };
  parsed.session = session;
  return parsed;
}

function parseClaude(file) {
  const lines = readJsonLines(file);
  const sessionId = path.basename(file, '.jsonl');
  const parsed = { lines: lines.length, messages: [], toolCalls: [], toolResults: [], summaries: [], extraStamps: [] };
  const fileOfCall = new Map();
  let gitBranch = null;
  let version = null;

  lines.forEach((line, i) => {
    if (!line) return;
    // The only summaries upstream indexes (README.md fact 17): a system line with
    // subtype away_summary. Old `{"type":"summary"}` lines are ignored.
    if (line.type === 'system' && line.subtype === 'away_summary' && line.content) {
      if (typeof line.content !== 'string') return;
      const ts = line.timestamp ?? null;
      parsed.summaries.push({
        id: line.uuid || `${sessionId}-away-${ts}`, session_id: sessionId, timestamp: ts,
        source: 'away_summary', content: line.content, visibility: 'visible',
      });
      return;
    }
    if ((line.type !== 'user' && line.type !== 'assistant') || !line.uuid) return;
    const msg = line.message && typeof line.message === 'object' ? line.message : {};
    const blocks = typeof msg.content === 'string' ? [{ type: 'text', text: msg.content }]
      : Array.isArray(msg.content) ? msg.content.filter((b) => b && typeof b === 'object') : [];
    const texts = [];
    for (const b of blocks) {
      if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
      else if (b.type === 'tool_use' && b.id) {
        const input = b.input && typeof b.input === 'object' ? b.input : {};
        const filePath = FILE_PATH_TOOLS.has(b.name) && typeof input.file_path === 'string' ? input.file_path : null;
        fileOfCall.set(b.id, filePath);
        parsed.toolCalls.push({
          id: b.id, message_uuid: line.uuid, session_id: sessionId, name: b.name ?? null,
          presentation: null, input_json: JSON.stringify(input), file_path: filePath,
        });
      } else if (b.type === 'tool_result' && b.tool_use_id) {
        parsed.toolResults.push({
          tool_use_id: b.tool_use_id, message_uuid: line.uuid, session_id: sessionId,
          content: asText(b.content).slice(0, TOOL_RESULT_MAX),
          file_path: fileOfCall.get(b.tool_use_id) ?? null,
          is_error: b.is_error === true ? 1 : 0,
        });
      }
    }
    if (line.gitBranch) gitBranch = line.gitBranch;
    if (line.version) version = line.version;
    const usage = msg.usage && typeof msg.usage === 'object' ? msg.usage : {};
    parsed.messages.push({
      uuid: line.uuid, session_id: sessionId, type: line.type, parent_uuid: line.parentUuid ?? null,
      timestamp: line.timestamp ?? null, role: msg.role ?? line.type, text: texts.join('\n'),
      content_type: blocks.length ? String(blocks[0].type ?? 'text') : null,
      is_meta: line.isMeta ? 1 : 0, visibility: visibilityOf(line), model: msg.model ?? null,
      is_sidechain: line.isSidechain ? 1 : 0, agent_id: line.agentId ?? null,
      input_tokens: Number.isInteger(usage.input_tokens) ? usage.input_tokens : null,
      output_tokens: Number.isInteger(usage.output_tokens) ? usage.output_tokens : null,
      cwd: line.cwd ?? null, skill: null,
      turn_duration_ms: Number.isInteger(line.durationMs) ? line.durationMs : null, source: 'claude',
    });
  });

  return finishSession(parsed, {
    id: sessionId, project: path.basename(path.dirname(file)), git_branch: gitBranch,
    version, jsonl_path: file, source: 'claude',
  });
}

function parseCodex(file) {
  const lines = readJsonLines(file);
  const parsed = { lines: lines.length, messages: [], toolCalls: [], toolResults: [], summaries: [], extraStamps: [] };
  const meta = lines.find((l) => l && l.type === 'session_meta' && l.payload && l.payload.id);
  // Without a session_meta id there is no thread to name the session after: the file
  // contributes no rows (its index_state row still records that it was read).
  if (!meta) return parsed;
  const threadId = String(meta.payload.id).replace(/^codex:/, '');
  // A forked or sub-agent thread is stored under its PARENT's session id; its own thread
  // names its turns (agent_id, message uuids, call ids) and it gets no sessions row.
  const spawn = meta.payload.source && typeof meta.payload.source === 'object' ? meta.payload.source.subagent : null;
  const parentRaw = (spawn && spawn.thread_spawn && spawn.thread_spawn.parent_thread_id)
    || meta.payload.forked_from_id || (spawn && spawn.parent_thread_id) || null;
  const parentId = parentRaw ? String(parentRaw).replace(/^codex:/, '') : null;
  const sessionId = `codex:${parentId ?? threadId}`;
  const agentId = parentId ? `codex:${threadId}` : null;
  parsed.childAgent = agentId;
  // Call ids are only unique within a thread, so they are namespaced by it; a call_id
  // that already carries the prefix is not prefixed twice. (0.2.0: `codex:<call_id>`.)
  const callId = (raw) => (RELEASE.codexCallIdsPerThread
    ? `codex:${threadId}:${String(raw).replace(/^codex:/, '')}`
    : `codex:${String(raw).replace(/^codex:/, '')}`);
  const callMessage = new Map();
  let cwd = null;
  let model = null;
  let version = null;
  let gitBranch = null;

  const addMessage = (line, i, fields) => {
    // 1-based ordinal of the non-empty line, zero-padded to six digits.
    const uuid = `codex:${threadId}:${String(i + 1).padStart(6, '0')}`;
    parsed.messages.push({
      uuid, session_id: sessionId, type: line.type, parent_uuid: null, timestamp: line.timestamp ?? null,
      is_meta: 0, visibility: visibilityOf(line), model, is_sidechain: agentId ? 1 : 0, agent_id: agentId,
      input_tokens: null, output_tokens: null, cwd, skill: null, turn_duration_ms: null, source: 'codex',
      ...fields,
    });
    return uuid;
  };

  lines.forEach((line, i) => {
    if (!line) return;
    const p = line.payload && typeof line.payload === 'object' ? line.payload : {};
    switch (line.type) {
      case 'session_meta':
        cwd = normalizedCwd(p.cwd) ?? cwd;
        version = p.cli_version ?? version;
        gitBranch = (p.git && p.git.branch) ?? gitBranch;
        if (p.timestamp || line.timestamp) parsed.extraStamps.push(p.timestamp || line.timestamp);
        break;
      case 'turn_context':
        cwd = normalizedCwd(p.cwd) ?? cwd;
        model = p.model ?? model;
        break;
      case 'event_msg':
        if (p.type === 'user_message' || p.type === 'agent_message') {
          addMessage(line, i, {
            role: p.type === 'user_message' ? 'user' : 'assistant', text: asText(p.message), content_type: 'text',
          });
        }
        break;
      case 'response_item':
        // response_item `message` entries repeat the event_msg text; indexing both
        // would double every message, so only tool traffic is taken from here.
        if ((p.type === 'function_call' || p.type === 'custom_tool_call') && p.call_id) {
          const uuid = addMessage(line, i, { role: 'assistant', text: '', content_type: 'tool_use' });
          const input = p.type === 'function_call' ? p.arguments : p.input;
          const id = callId(p.call_id);
          callMessage.set(id, uuid);
          parsed.toolCalls.push({
            id, message_uuid: uuid, session_id: sessionId, name: p.name ?? null, presentation: null,
            input_json: typeof input === 'string' ? input : JSON.stringify(input ?? null), file_path: null,
          });
        } else if ((p.type === 'function_call_output' || p.type === 'custom_tool_call_output') && p.call_id) {
          // An output gets no message row of its own: it points at its call's message
          // ('' when the call was not seen earlier in the file).
          const id = callId(p.call_id);
          parsed.toolResults.push({
            tool_use_id: id, message_uuid: callMessage.get(id) ?? '', session_id: sessionId,
            content: asText(p.output).slice(0, TOOL_RESULT_MAX), file_path: null,
            is_error: p.is_error === true || line.is_error === true ? 1 : 0,
          });
        }
        break;
      // `compacted` lines are not indexed upstream (README.md fact 17).
      default:
        break;
    }
  });

  return finishSession(parsed, {
    id: sessionId, project: cwd ? path.basename(cwd) : null, git_branch: gitBranch,
    version, jsonl_path: file, source: 'codex',
  });
}

// ---------------------------------------------------------------- index writes

// Rows are keyed by their id alone (see the DDL): a later row with the same id replaces
// the earlier one, whichever session or file it came from.
function insertAll(db, table, rows) {
  if (!rows.length) return;
  const lacks = missingColumns().get(table) || new Set();
  const cols = Object.keys(rows[0]).filter((c) => !lacks.has(c));
  const stmt = db.prepare(`INSERT OR REPLACE INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
  for (const r of rows) stmt.run(...cols.map((c) => (r[c] === undefined ? null : r[c])));
}

// messages_fts has no key: drop the entry of a message being replaced before adding the
// new one, so the full-text table never holds two copies of one uuid.
function insertFts(db, messages) {
  const drop = db.prepare('DELETE FROM messages_fts WHERE uuid = ?');
  const add = db.prepare('INSERT INTO messages_fts (uuid, session_id, text) VALUES (?, ?, ?)');
  for (const m of messages) {
    drop.run(m.uuid);
    if (m.text) add.run(m.uuid, m.session_id, m.text);
  }
}

function forgetFile(db, file) {
  const ids = db.prepare('SELECT id FROM sessions WHERE jsonl_path = ?').all(file).map((r) => r.id);
  for (const id of ids) {
    for (const table of ['messages', 'tool_calls', 'tool_results', 'summaries', 'messages_fts']) {
      db.prepare(`DELETE FROM ${table} WHERE session_id = ?`).run(id);
    }
    db.prepare('DELETE FROM sessions WHERE id = ?').run(id);
  }
  db.prepare('DELETE FROM index_state WHERE jsonl_path = ?').run(file);
}

// A child thread has no sessions row to forget it by: its rows are found by its own thread.
function forgetChild(db, agentId) {
  const prefix = `${agentId}:`;
  db.prepare('DELETE FROM tool_results WHERE substr(tool_use_id, 1, length(?)) = ?').run(prefix, prefix);
  db.prepare('DELETE FROM tool_calls WHERE substr(id, 1, length(?)) = ?').run(prefix, prefix);
  db.prepare('DELETE FROM messages_fts WHERE substr(uuid, 1, length(?)) = ?').run(prefix, prefix);
  db.prepare('DELETE FROM messages WHERE agent_id = ?').run(agentId);
}

// One unit in a savepoint of its own: a unit that cannot be read or parsed leaves the
// index exactly as it was (its old rows and index_state row untouched) and throws.
function indexUnit(db, f) {
  db.exec('SAVEPOINT unit');
  try {
    indexFile(db, f);
  } catch (e) {
    db.exec('ROLLBACK TO unit');
    db.exec('RELEASE unit');
    throw e;
  }
  db.exec('RELEASE unit');
}

function unitWarning(f, e) {
  const why = e && e.message ? e.message : String(e);
  process.stderr.write(`obelisk (double): cannot index the ${f.runtime} transcript ${f.path}: ${why}\n`);
}

function indexFile(db, f) {
  forgetFile(db, f.path);
  const parsed = f.runtime === 'claude' ? parseClaude(f.path) : parseCodex(f.path);
  if (parsed.childAgent) forgetChild(db, parsed.childAgent);
  if (parsed.childAgent && parsed.messages.length) {
    insertAll(db, 'messages', parsed.messages);
    insertAll(db, 'tool_calls', parsed.toolCalls);
    insertAll(db, 'tool_results', parsed.toolResults);
    insertFts(db, parsed.messages);
  } else if (parsed.messages.length || parsed.summaries.length) {
    insertAll(db, 'sessions', [parsed.session]);
    insertAll(db, 'messages', parsed.messages);
    insertAll(db, 'tool_calls', parsed.toolCalls);
    insertAll(db, 'tool_results', parsed.toolResults);
    insertAll(db, 'summaries', parsed.summaries);
    insertFts(db, parsed.messages);
  }
  db.prepare('INSERT OR REPLACE INTO index_state (jsonl_path, mtime, lines_processed, cursor) VALUES (?, ?, ?, ?)')
    .run(f.path, f.mtime, parsed.lines, f.size);
}

function writeMarkers(db, kind) {
  const now = Date.now();
  const total = db.prepare("SELECT coalesce(sum(lines_processed), 0) AS n FROM index_state WHERE jsonl_path NOT LIKE '\\_\\_%' ESCAPE '\\'").get().n;
  const put = db.prepare('INSERT OR REPLACE INTO index_state (jsonl_path, mtime, lines_processed, cursor) VALUES (?, ?, ?, ?)');
  put.run('__last_build__', now, total, kind);
  put.run('__provider_version__', now, INDEX_SCHEMA, indexFlavour());
}

// Returns null, or 'provider_failure' when `strict` (--build) and a unit failed: then
// nothing is published and the index stays as it was. Not strict (a query's first build),
// a failed unit is skipped with a warning, as in an incremental build.
function fullBuild(target, { strict = false } = {}) {
  // Build beside the live file and rename over it, so a reader never sees a half-built index.
  const tmp = `${target}.tmp-${process.pid}`;
  fs.rmSync(tmp, { force: true });
  const db = new DatabaseSync(tmp);
  let failed = null;
  try {
    db.exec(releaseDdl());
    db.exec('BEGIN');
    for (const f of listTranscripts(os.homedir())) {
      try {
        indexUnit(db, f);
      } catch (e) {
        unitWarning(f, e);
        if (strict) {
          failed = 'provider_failure';
          break;
        }
      }
    }
    if (failed) db.exec('ROLLBACK');
    else {
      writeMarkers(db, 'full');
      db.exec('COMMIT');
    }
  } finally {
    db.close();
  }
  if (failed) fs.rmSync(tmp, { force: true });
  else fs.renameSync(tmp, target);
  return failed;
}

// Readers and the writer may overlap (parallel callers): wait for a lock instead of
// failing with "database is locked".
function openDb(target, options = {}) {
  const db = new DatabaseSync(target, options);
  db.exec('PRAGMA busy_timeout = 5000');
  return db;
}

function incrementalBuild(target) {
  if (!fs.existsSync(target)) return fullBuild(target);
  const db = openDb(target);
  let needFull = false;
  try {
    db.exec(releaseDdl());
    const marker = db.prepare("SELECT lines_processed, cursor FROM index_state WHERE jsonl_path = '__provider_version__'").get();
    // Another release's index (its columns differ) is rebuilt, not migrated.
    if (!marker || marker.lines_processed !== INDEX_SCHEMA || marker.cursor !== indexFlavour()) {
      needFull = true;
    } else {
      const known = new Map(
        db.prepare("SELECT jsonl_path, mtime, cursor FROM index_state WHERE jsonl_path NOT LIKE '\\_\\_%' ESCAPE '\\'")
          .all().map((r) => [r.jsonl_path, r]),
      );
      db.exec('BEGIN');
      for (const f of listTranscripts(os.homedir())) {
        const prev = known.get(f.path);
        known.delete(f.path);
        if (!prev || prev.mtime !== f.mtime || Number(prev.cursor) !== f.size) {
          try {
            indexUnit(db, f);
          } catch (e) {
            unitWarning(f, e); // skipped: its index_state row is not advanced
          }
        }
      }
      for (const gone of known.keys()) forgetFile(db, gone);
      writeMarkers(db, 'incremental');
      db.exec('COMMIT');
    }
  } finally {
    db.close();
  }
  if (needFull) fullBuild(target);
}

// The writer lease, as the real CLI takes it (README.md fact 13): an immediate write
// transaction on a SQLite file of its own beside the index, never waited for. Whoever
// holds it (another obelisk, the desktop app, a test holding BEGIN IMMEDIATE from Python)
// keeps every other writer out until it commits, rolls back or closes.
function leasePath() {
  return path.join(obeliskHome(), 'writer.lock.sqlite');
}

function isBusy(e) {
  return (e && (e.errcode === 5 || e.errcode === 6)) || /database is (locked|busy)|SQLITE_BUSY/i.test(String(e && e.message));
}

function tryLease() {
  fs.mkdirSync(obeliskHome(), { recursive: true });
  const db = new DatabaseSync(leasePath());
  try {
    db.exec('PRAGMA busy_timeout = 0');
    db.exec('BEGIN IMMEDIATE');
  } catch (e) {
    db.close();
    if (isBusy(e)) return null;
    throw e;
  }
  return () => {
    try {
      db.exec('ROLLBACK');
    } catch {
      // closing below frees the lease anyway
    } finally {
      db.close();
    }
  };
}

function readMarkers(target) {
  if (!fs.existsSync(target)) return {};
  const db = openDb(target, { readOnly: true });
  try {
    const rows = db.prepare("SELECT jsonl_path, mtime FROM index_state WHERE jsonl_path IN ('__last_build__', '__app_heartbeat__')").all();
    return Object.fromEntries(rows.map((r) => [r.jsonl_path, r.mtime]));
  } catch {
    return {};
  } finally {
    db.close();
  }
}

// Why a build must not run now, or null. Reasons are the real CLI's codes (README.md):
// a fresh heartbeat (the desktop app owns writes) stops every build, --build included,
// unless ignoreDaemon (the query's nonce-phase build); the debounce stops only
// incremental builds, unless ignoreRecent.
function ownership(target, { full, ignoreRecent = false, ignoreDaemon = false }) {
  const markers = readMarkers(target);
  const now = Date.now();
  if (!ignoreDaemon && markers.__app_heartbeat__ && now - markers.__app_heartbeat__ < HEARTBEAT_FRESH_MS) {
    return { skipped: 'daemon_active', detail: `heartbeat ${now - markers.__app_heartbeat__} ms old` };
  }
  const grace = SETTINGS.build_grace_ms;
  if (!full && !ignoreRecent && markers.__last_build__ && now - markers.__last_build__ < grace) {
    return { skipped: 'recent_build', detail: `last build ${now - markers.__last_build__} ms ago` };
  }
  return null;
}

function build({ full, ignoreRecent = false, ignoreDaemon = false, strict = true }) {
  const target = dbPath();
  fs.mkdirSync(obeliskHome(), { recursive: true });
  const policy = { full, ignoreRecent, ignoreDaemon };
  const before = ownership(target, policy);
  if (before) return before;
  let release = tryLease();
  // With no index at all there is nothing to answer from: a query waits for the other
  // writer (bounded) instead of skipping, so parallel first queries all succeed. (The
  // real CLI fails such a query instead; README.md, "knowingly differs".)
  for (let waited = 0; !release && !full && !fs.existsSync(target) && waited < 15_000; waited += 50) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    release = tryLease();
  }
  if (!release) return { skipped: 'writer_busy', detail: 'another writer holds the lease' };
  try {
    // Ownership may have changed while we waited for the lease.
    const after = ownership(target, policy);
    if (after) return after;
    if (full) {
      const failed = fullBuild(target, { strict });
      if (failed) return { skipped: failed };
    } else {
      incrementalBuild(target);
    }
  } finally {
    release();
  }
  return { db: target };
}

function refreshNote(outcome) {
  return `obelisk (double): index refresh skipped: ${outcome.skipped}${outcome.detail ? ` (${outcome.detail})` : ''}\n`;
}

// ---------------------------------------------------------------- the invocation (nonce) phase

// After its own refresh the real CLI looks for the agent session that invoked it (README.md
// fact 15): the query file's path as typed, and the script's trimmed text when it has at
// least 40 characters (strictly: see below), searched in the index's messages and tool
// inputs of the last 15 minutes. A miss (any caller outside an agent session) runs one
// more incremental build that ignores the debounce and the heartbeat but still needs the
// lease, then polls the index for the setting nonce_poll_ms (the real CLI: 4 s). The
// double reports no invoking session (it has no sessions() API); only the extra build
// and the poll are observable.
const NONCE_WINDOW_MS = 15 * 60 * 1000;
const NONCE_COLLISION_MS = 10_000;
const NONCE_POLL_STEP_MS = 300;
const SCRIPT_TEXT_MIN_CHARS = 40;

function nonceCandidates(typedPath, body) {
  const text = body.trim();
  const out = [{ value: typedPath, strict: false }];
  if (text.length >= SCRIPT_TEXT_MIN_CHARS) out.push({ value: text, strict: true });
  return out;
}

// session id -> newest timestamp of a recent message or tool input containing `value`.
function sessionsMentioning(db, value, cutoff) {
  const newest = new Map();
  const note = (r) => {
    if (typeof r.session_id !== 'string' || typeof r.timestamp !== 'string') return;
    if (!newest.has(r.session_id) || r.timestamp > newest.get(r.session_id)) newest.set(r.session_id, r.timestamp);
  };
  db.prepare('SELECT session_id, timestamp FROM messages WHERE timestamp >= ? AND instr(text, ?) > 0')
    .all(cutoff, value).forEach(note);
  // Tool input is stored as JSON text: look for the value as written and JSON-escaped.
  const escaped = JSON.stringify(value).slice(1, -1);
  db.prepare(`SELECT c.session_id AS session_id, m.timestamp AS timestamp
      FROM tool_calls c JOIN messages m ON m.uuid = c.message_uuid
      WHERE m.timestamp >= ? AND (instr(c.input_json, ?) > 0 OR instr(c.input_json, ?) > 0)`)
    .all(cutoff, value, escaped).forEach(note);
  return newest;
}

// Sessions with a recent record of running the CLI (`obelisk --...` in text or tool input).
function recentInvokers(db, cutoff) {
  const out = new Set();
  const pattern = "(instr(%s, 'obelisk --') > 0 OR instr(%s, 'obelisk.js --') > 0)";
  const like = (col) => pattern.replaceAll('%s', col);
  db.prepare(`SELECT DISTINCT session_id FROM messages WHERE timestamp >= ? AND ${like('text')}`)
    .all(cutoff).forEach((r) => out.add(r.session_id));
  db.prepare(`SELECT DISTINCT c.session_id AS session_id FROM tool_calls c
      JOIN messages m ON m.uuid = c.message_uuid WHERE m.timestamp >= ? AND ${like('c.input_json')}`)
    .all(cutoff).forEach((r) => out.add(r.session_id));
  return out;
}

function resolveInvoker(target, candidates) {
  if (!fs.existsSync(target)) return null;
  const db = openDb(target, { readOnly: true });
  try {
    const cutoff = new Date(Date.now() - NONCE_WINDOW_MS).toISOString();
    for (const { value, strict } of candidates) {
      const newest = sessionsMentioning(db, value, cutoff);
      if (!newest.size) continue;
      if (strict) {
        // Script text is not unique: exactly one matching session that itself ran the CLI.
        const invokers = recentInvokers(db, cutoff);
        const eligible = [...newest.keys()].filter((id) => invokers.has(id));
        return eligible.length === 1 ? eligible[0] : null;
      }
      const ranked = [...newest].map(([id, t]) => ({ id, ms: Date.parse(t) })).sort((a, b) => b.ms - a.ms);
      if (ranked.some((r) => Number.isNaN(r.ms))) return null;
      // Two sessions naming the file within 10 s of each other: a collision, no answer.
      if (ranked.length > 1 && ranked[0].ms - ranked[1].ms <= NONCE_COLLISION_MS) return null;
      return ranked[0].id;
    }
    return null;
  } catch {
    return null; // an index without the tables cannot resolve
  } finally {
    db.close();
  }
}

async function invocationPhase(target, candidates) {
  if (resolveInvoker(target, candidates)) return;
  if (fs.existsSync(target)) {
    const outcome = build({ full: false, ignoreRecent: true, ignoreDaemon: true });
    if (outcome.skipped) process.stderr.write(refreshNote({ ...outcome, detail: `nonce phase; ${outcome.detail}` }));
    if (resolveInvoker(target, candidates)) return;
  }
  const deadline = Date.now() + SETTINGS.nonce_poll_ms;
  while (Date.now() < deadline) {
    await sleep(Math.min(NONCE_POLL_STEP_MS, deadline - Date.now()));
    if (resolveInvoker(target, candidates)) return;
  }
}

// ---------------------------------------------------------------- the query sandbox

// Walk the SQL text the way SQLite's tokenizer would (strings, quoted identifiers and
// comments are opaque) to find the first keyword and count top-level statements.
// node:sqlite's prepare() silently ignores everything after the first statement, so
// without this check "SELECT 1; DELETE ..." would look like success.
function checkReadOnlyStatement(text) {
  let i = 0;
  let statements = 0;
  let inStatement = false;
  let firstWord = null;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (/\s/.test(c)) { i += 1; continue; }
    if (c === '-' && text[i + 1] === '-') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? n : nl + 1;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      continue;
    }
    if (c === ';') {
      if (inStatement) statements += 1;
      inStatement = false;
      i += 1;
      continue;
    }
    if (!inStatement && statements > 0) throw new Error('sql(): exactly one statement per call');
    if (!inStatement && firstWord === null) firstWord = (/^[A-Za-z_]+/.exec(text.slice(i)) || [''])[0];
    inStatement = true;
    if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      i += 1;
      while (i < n) {
        if (text[i] === close) {
          if (close !== ']' && text[i + 1] === close) { i += 2; continue; }
          break;
        }
        i += 1;
      }
      i += 1;
      continue;
    }
    i += 1;
  }
  if (inStatement) statements += 1;
  if (statements !== 1) throw new Error('sql(): exactly one statement per call');
  if (!/^(select|with)$/i.test(firstWord || '')) throw new Error('sql(): only read-only SELECT/WITH statements are allowed');
}

function makeSql(target) {
  let db = null;
  return function sql(text, ...binds) {
    if (typeof text !== 'string') throw new TypeError('sql(): the first argument must be the SQL text');
    if (binds.length === 1 && Array.isArray(binds[0])) {
      throw new TypeError('sql(): pass bind values as separate arguments, not as one array');
    }
    checkReadOnlyStatement(text);
    if (RELEASE.sqlKeywordScan && /\b(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER|PRAGMA|VACUUM|ATTACH|DETACH)\b/i.test(text)) {
      throw new Error('sql() only supports read-only SELECT/WITH queries');
    }
    if (!db) db = openDb(target, { readOnly: true });
    return db.prepare(text).all(...binds).map((row) => ({ ...row }));
  };
}

async function runScript(file, body, target) {
  // A fresh V8 context has only the language built-ins (JSON, Math, Promise, ...), so
  // process/require/fetch/Buffer are simply absent rather than shadowed.
  const context = vm.createContext({
    sql: makeSql(target),
    console,
    setTimeout: (fn, ms, ...args) => setTimeout(fn, ms, ...args),
    clearTimeout: (t) => clearTimeout(t),
  });
  const script = new vm.Script(`(async () => {\n${body}\n})()`, { filename: file });
  // The timeout bounds only the synchronous part, like the real sandbox's 30 s limit.
  return script.runInContext(context, { timeout: SYNC_TIMEOUT_MS });
}

const isPlainObject = (v) => v !== null && typeof v === 'object' && Object.prototype.toString.call(v) === '[object Object]';

function injectForeignRows(value) {
  if (Array.isArray(value)) {
    const out = value.map(injectForeignRows);
    const first = value[0];
    if (isPlainObject(first) && ('project_path' in first || 'session_id' in first)) {
      const copy = { ...first, project_path: FOREIGN_PATH, source: 'kimi' };
      if ('session_id' in first) copy.session_id = 'kimi:injected-7f3a';
      if ('cwd' in first) copy.cwd = FOREIGN_PATH;
      out.push(copy);
    }
    return out;
  }
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, injectForeignRows(v)]));
  }
  return value;
}

// ---------------------------------------------------------------- output helpers

function finish(stdoutText, code) {
  // Exit only after stdout has drained so large results are never cut short.
  if (!stdoutText) process.exit(code);
  process.stdout.write(stdoutText, () => process.exit(code));
}

function errorLine(e) {
  const message = e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e);
  const stack = e && typeof e === 'object' && typeof e.stack === 'string' ? e.stack : '';
  return `${JSON.stringify({ error: message, stack })}\n`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Written to stderr by the `hang` fault once every signal disposition is in place.
const HANG_READY = 'obelisk (double): hang: signals ignored';

function hangForever() {
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => process.stderr.write(`obelisk: ignoring ${sig}\n`));
  // The grandchild shares our process group and our stdout/stderr pipes and also ignores
  // SIGTERM (an ignored disposition survives exec): killing only this pid, or sending the
  // group SIGTERM, leaves the pipes open, so a caller waiting for EOF hangs too.
  // The grandchild says when its trap is set (by then our handlers are too), so a test can
  // wait for that line instead of guessing how long start-up takes.
  const child = spawn('/bin/sh', ['-c', `trap '' TERM INT HUP; echo '${HANG_READY}' >&2; exec sleep 86400`], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('error', () => {});
  setInterval(() => {}, 1 << 30);
}

function floodForever() {
  const maxBytes = SETTINGS.flood_max_bytes;
  const line = `  "${STDOUT_CANARY} ${'x'.repeat(64 * 1024 - STDOUT_CANARY.length - 8)}",\n`;
  let written = 0;
  // The reader going away (EPIPE) ends the flood quietly; any other error is reported.
  process.stdout.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(0);
    process.stderr.write(`obelisk (double): stdout failed: ${e.code}\n`);
    process.exit(70);
  });
  // Write as fast as the reader takes it: on backpressure wait for 'drain' (the event),
  // never queue without bound. Queuing 1 MiB per tick regardless, as this did, made a
  // slow reader on a loaded machine see ENOBUFS, and the double exit 0 with 1 MiB written.
  const pump = () => {
    while (written < maxBytes) {
      written += line.length;
      if (!process.stdout.write(line)) {
        process.stdout.once('drain', pump);
        return;
      }
    }
    setInterval(() => {}, 1 << 30);
  };
  process.stdout.write('[\n');
  pump();
}

// ---------------------------------------------------------------- verbs

async function cmdQuery(file) {
  const faults = new Set(SETTINGS.fault);
  if (faults.size) process.stderr.write(`obelisk: fault injection [${[...faults].join(',')}] ${STDERR_CANARY}\n`);

  if (faults.has('hang')) return hangForever();
  if (faults.has('flood')) return floodForever();
  if (faults.has('garbage')) return finish(`{"rows": [ ${STDOUT_CANARY} <<not json>> \n\tat sandbox:1\n`, 0);
  if (faults.has('undefined')) return finish('undefined\n', 0);
  if (faults.has('empty')) return finish('', 0);
  if (faults.has('error')) {
    return finish(errorLine(new Error(`simulated provider failure ${STDOUT_CANARY}: database disk image is malformed`)), 1);
  }
  if (faults.has('crash')) {
    process.stderr.write(`FATAL ERROR: simulated abort ${STDERR_CANARY}\n`);
    process.stdout.write(`[\n  {\n    "session_id": "${STDOUT_CANARY}",\n`);
    return finish('', 134);
  }

  const target = dbPath();
  let body;
  try {
    // Read first: a script that cannot be read fails before any build, as upstream.
    body = fs.readFileSync(path.resolve(file), 'utf8');
    if (faults.has('stale')) {
      process.stderr.write('obelisk (double): index refresh skipped: stale fault\n');
    } else {
      const outcome = build({ full: false });
      if (outcome.skipped) process.stderr.write(refreshNote(outcome));
      if (RELEASE.noncePhase) await invocationPhase(target, nonceCandidates(file, body));
    }
  } catch (e) {
    return finish(errorLine(e), 1);
  }
  if (faults.has('slow')) await sleep(SETTINGS.slow_ms);
  if (faults.has('noise')) {
    console.log(`[obelisk] session lookup: no agent session matched ${STDOUT_CANARY}`);
    console.log('[obelisk] 0 subagents, 0 workflows');
  }

  let text;
  try {
    let value = await runScript(file, body, target);
    if (faults.has('inject')) value = injectForeignRows(value);
    text = `${JSON.stringify(value, null, 2)}\n`; // undefined -> "undefined", as upstream
  } catch (e) {
    return finish(errorLine(e), 1);
  }
  return finish(text, 0);
}

function cmdBuild() {
  try {
    const outcome = build({ full: true, strict: RELEASE.buildReportsOutcome });
    // The real CLI's message for a forced build that published nothing (older releases
    // print the success line whatever happened).
    if (outcome.skipped && RELEASE.buildReportsOutcome) throw new Error(`Index rebuild was not published: ${outcome.skipped}`);
    return finish(`${JSON.stringify({ ok: true, db: dbPath() })}\n`, 0);
  } catch (e) {
    return finish(errorLine(e), 1);
  }
}

function cmdSearch(terms) {
  try {
    const outcome = build({ full: false });
    if (outcome.skipped) process.stderr.write(refreshNote(outcome));
    const match = terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' ');
    const db = openDb(dbPath(), { readOnly: true });
    const rows = db.prepare(`SELECT m.session_id, m.uuid, m.timestamp, m.role, m.text
      FROM messages_fts f JOIN messages m ON m.uuid = f.uuid AND m.session_id = f.session_id
      WHERE messages_fts MATCH ? ORDER BY m.timestamp DESC LIMIT 20`).all(match).map((r) => ({ ...r }));
    db.close();
    return finish(`${JSON.stringify(rows, null, 2)}\n`, 0);
  } catch (e) {
    return finish(errorLine(e), 1);
  }
}

function main(argv) {
  SETTINGS = loadSettings();
  RELEASE = releaseOf(SETTINGS.version);
  const [verb, ...rest] = argv;
  if ((verb === '--version' || verb === '-v') && rest.length === 0) return finish(`${SETTINGS.version}\n`, 0);
  if (verb === '--build' && rest.length === 0) return cmdBuild();
  if (verb === '--query' && rest.length === 1) return cmdQuery(rest[0]);
  if (verb === '--search' && rest.length > 0) return cmdSearch(rest);
  throw new UsageError(verb ? `unknown arguments: ${argv.join(' ')}` : 'no command given');
}

// No top-level await on purpose: with it, a never-settling script would make node exit 13
// ("unsettled top-level await"); the protocol says such a run exits 0 with empty stdout.
Promise.resolve()
  .then(() => main(process.argv.slice(2)))
  .catch((e) => {
    if (e instanceof UsageError) {
      process.stderr.write(`obelisk: ${e.message}\n${USAGE}`);
      process.exit(1);
    }
    process.stderr.write(`obelisk: internal error: ${e && e.stack ? e.stack : e}\n`);
    process.exit(70);
  });
