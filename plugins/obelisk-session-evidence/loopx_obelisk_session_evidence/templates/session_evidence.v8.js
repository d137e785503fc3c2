// SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
// SPDX-License-Identifier: Apache-2.0
//
// loopx obelisk-session-evidence query template, version 8. Run by `obelisk --query`
// as the body of an async function. The ONLY variable part is the PARAMS data literal
// below (ASCII-only JSON written by the adapter); everything else is fixed text whose
// digest is recorded in every result. SQL uses `?` binds only, explicit columns,
// substr() caps and LIMITs. Scope is applied in SQL and verified again by the adapter
// (scope.py, the same rules) from the columns every row carries (source, project_path,
// cwd, timestamp, and the session of each joined piece).
// Version 3: paths must be normalized absolute paths, instants RFC 3339 inside the window
// (compared as instants, not text), tool results joined within their own session.
// Version 4: with claimed agent sessions, only the sessions claimed for this agent (a list
// of index ids) are in scope; claimed_sessions is null when the runtime is the identity.
// Version 5: a turn belongs to the thread that made it. A forked or sub-agent Codex thread
// is stored under its parent's session id with its own thread as agent_id; such a turn is
// its own thread's (claimed, excluded and reported as that thread), never the parent's.
// Paths under `escapes` (symlinks under a root that lead outside every root, found by the
// host) are left out: such a working directory only reads as if it were in the repository.
// Version 6: the user's own exclusions. `exclude_paths` (absolute SQLite GLOB patterns,
// the root part escaped by the host) leaves out a working directory a pattern matches or
// that lies under a folder one matches; a turn of a session (by OWNER) in which a user
// message holds the marker `loopx-recall:private` is left out, the whole session with it.
// Issue 29: the marker counts wherever it is written: any message of the owner (user or
// assistant), any tool call's input or tool result of the session, at any offset.
// A failed call's output comes as its opening (`output`, `output_chars` characters) and,
// when longer, its end (`output_tail`, at most as many again, never overlapping the
// opening) with its length: the host picks the decisive lines from both
// (loopx_recall_core/decisive_lines.py). Any other output: its first CAP characters, as
// before. Without `output_chars` a failure's opening is CAP long too.
// Version 7: the sessions the index holds in scope (`list_sessions`): each session (by
// OWNER) with a message in the window under the roots, and its last message's instant
// (`last_ms`). `session candidates` reads them for a transcript whose file date is older
// than the window: the messages' times, as the index holds them, say when a session was
// active, not the file's date. No terms and no claimed filter (the candidates are the
// sessions not yet claimed); a private session is listed too (shown without its words).
const PARAMS = /*LOOPX_PARAMS*/ null;

const VERSION = "obelisk-session-evidence-template/8";
if (PARAMS === null || PARAMS.template_version !== VERSION) {
  throw new Error("template parameters missing or for another template version");
}
const SOURCES = JSON.stringify(PARAMS.sources);
const ROOTS = JSON.stringify(PARAMS.roots);
// A missing or malformed list fails closed: nothing in scope.
const ESCAPES = JSON.stringify(Array.isArray(PARAMS.escapes) ? PARAMS.escapes : null);
// A missing or malformed list fails closed: nothing in scope.
const EXCLUDE_PATHS = JSON.stringify(Array.isArray(PARAMS.exclude_paths) ? PARAMS.exclude_paths : null);
const PRIVATE_MARKER = "loopx-recall:private";
const TERMS = JSON.stringify(PARAMS.terms);
const EXCLUDED = JSON.stringify(PARAMS.exclude_sessions);
const CLAIMED_ONLY = PARAMS.claimed_sessions === null ? 0 : 1;
// A missing or malformed list leaves nothing in scope (fail closed).
const CLAIMED = JSON.stringify(Array.isArray(PARAMS.claimed_sessions) ? PARAMS.claimed_sessions : []);
const SINCE_MS = PARAMS.since_ms;
const UNTIL_MS = PARAMS.until_ms;
const CAP = PARAMS.max_snippet_chars;
const OUT = Number.isInteger(PARAMS.output_chars) && PARAMS.output_chars > 0 ? PARAMS.output_chars : CAP;
const ROWS = PARAMS.max_rows;

// Scope of a row with session alias s and an effective path expression; the same text is
// used by every query so the predicates cannot drift apart.
const SESSION_SCOPE =
  " coalesce(s.source, 'claude') IN (SELECT value FROM json_each(?))" +
  " AND s.id NOT IN (SELECT value FROM json_each(?))";
const sessionBinds = () => [SOURCES, EXCLUDED];
// The session a turn belongs to (`owner`): its Codex thread when stored under a parent.
const OWNER =
  "(CASE WHEN coalesce(s.source, 'claude') = 'codex' AND m.agent_id IS NOT NULL" +
  " THEN m.agent_id ELSE s.id END)";
const CLAIMED_SCOPE = (owner) =>
  " AND (? = 0 OR " + owner + " IN (SELECT value FROM json_each(?)))";
const claimedBinds = () => [CLAIMED_ONLY, CLAIMED];
// An absolute, normalized path (no '.' or '..' segment, no '//', no trailing '/') equal
// to a root or under it on a path-separator boundary; no LIKE, so no wildcards.
const PATH_UNDER_ROOT = (path) =>
  " (substr(" + path + ", 1, 1) = '/' AND instr(" + path + ", '//') = 0" +
  " AND instr(" + path + " || '/', '/./') = 0 AND instr(" + path + " || '/', '/../') = 0" +
  " AND (" + path + " = '/' OR substr(" + path + ", -1) <> '/')" +
  " AND EXISTS (SELECT 1 FROM json_each(?) AS r WHERE " + path + " = r.value" +
  " OR substr(" + path + ", 1, length(r.value) + 1) = r.value || '/'))";
// Not equal to or under any escape (a NULL list, from a malformed parameter, admits none).
const PATH_NOT_ESCAPED = (path) =>
  " (json_type(?) = 'array' AND NOT EXISTS (SELECT 1 FROM json_each(?) AS x WHERE " +
  path + " = x.value OR substr(" + path + ", 1, length(x.value) + 1) = x.value || '/'))";
// Not matched by a user's exclusion, nor under a folder one matches (GLOB: `*` and `?`;
// the host escapes `[`, `*` and `?` of the root part as `[[]`, `[*]`, `[?]`).
const PATH_NOT_EXCLUDED = (path) =>
  " (json_type(?) = 'array' AND NOT EXISTS (SELECT 1 FROM json_each(?) AS g WHERE " +
  path + " GLOB g.value OR " + path + " GLOB g.value || '/*'))";
// The private marker (case-sensitive) is nowhere in the session: no message of the turn's
// owner (user or assistant; the owner of a message pm computed as OWNER is, over the same
// session row s), no tool call's input and no tool result of the session, at any offset.
const MARKED_SESSION = (session) =>
  " (EXISTS (SELECT 1 FROM tool_calls AS pc WHERE pc.session_id = " + session +
  " AND instr(pc.input_json, ?) > 0) OR EXISTS (SELECT 1 FROM tool_results AS pr" +
  " WHERE pr.session_id = " + session + " AND instr(pr.content, ?) > 0))";
const NOT_MARKED_PRIVATE = (owner) =>
  " NOT EXISTS (SELECT 1 FROM messages AS pm WHERE pm.session_id = s.id" +
  " AND instr(pm.text, ?) > 0 AND (CASE WHEN coalesce(s.source, 'claude') = 'codex'" +
  " AND pm.agent_id IS NOT NULL THEN pm.agent_id ELSE s.id END) = " + owner + ")" +
  " AND NOT" + MARKED_SESSION("s.id");
// An RFC 3339 date-time (upper-case T and Z, optional fraction, Z or +HH:MM) whose
// instant lies in [since, until] epoch ms. Shape by GLOB, a real calendar date and time
// by strftime round trip (it normalizes Feb 30 and 24:00), the instant by julianday.
const ZONE = (ts) =>
  "(CASE WHEN substr(" + ts + ", 20, 1) = '.' THEN ltrim(substr(" + ts + ", 21), '0123456789')" +
  " ELSE substr(" + ts + ", 20) END)";
const EPOCH_MS = (ts) =>
  "CAST(round((julianday(" + ts + ") - 2440587.5) * 86400000.0) AS INTEGER)";
const INSTANT_IN_WINDOW = (ts) =>
  " (" + ts + " GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*'" +
  " AND strftime('%Y-%m-%dT%H:%M:%S', substr(" + ts + ", 1, 19)) = substr(" + ts + ", 1, 19)" +
  " AND (substr(" + ts + ", 20, 1) <> '.' OR substr(" + ts + ", 21, 1) GLOB '[0-9]')" +
  " AND (" + ZONE(ts) + " = 'Z' OR " + ZONE(ts) + " GLOB '[+-][0-2][0-9]:[0-5][0-9]')" +
  " AND " + EPOCH_MS(ts) + " BETWEEN ? AND ?)";
const MESSAGE_PATH = "coalesce(m.cwd, s.project_path)";
// Releases (docs/obelisk-releases.md): the index's columns differ between Obelisk
// releases. `visibility` is read only where the index has it (0.2.0 has no
// messages.visibility, 0.2.1 no summaries.visibility: nothing there is hidden, so every
// row counts as visible), found with one small read per call. The SQL text avoids the
// words 0.2.0 and 0.2.1 refuse anywhere in a sql() statement.
// The columns every query below reads, by table (`visibility` is optional, see above).
const NEEDED = {
  sessions: ["id", "source", "project_path"],
  messages: ["uuid", "session_id", "agent_id", "role", "text", "timestamp", "cwd", "is_meta"],
  tool_calls: ["id", "session_id", "message_uuid", "name", "input_json", "file_path"],
  tool_results: ["tool_use_id", "session_id", "content", "is_error"],
  summaries: ["id", "session_id", "timestamp", "content"],
  index_state: ["jsonl_path", "mtime"],
};
const SCHEMA_COLUMNS = sql(
  "SELECT t.name AS t, c.name AS c FROM sqlite_master AS t JOIN pragma_table_info(t.name) AS c" +
    " WHERE t.type = 'table' AND t.name IN (SELECT value FROM json_each(?)) ORDER BY 1, 2",
  JSON.stringify(Object.keys(NEEDED)),
).map((row) => row.t + "." + row.c);
const HAVE = new Set(SCHEMA_COLUMNS);
const MISSING = Object.entries(NEEDED)
  .flatMap(([table, columns]) => columns.map((column) => table + "." + column))
  .filter((name) => !HAVE.has(name));
if (MISSING.length > 0) {
  return { template_version: VERSION, missing_columns: MISSING, schema_columns: SCHEMA_COLUMNS };
}
const HAS_VISIBILITY = new Set(
  ["messages", "summaries"].filter((table) => HAVE.has(table + ".visibility")),
);
const VISIBLE = (alias, table) =>
  HAS_VISIBILITY.has(table) ? " " + alias + ".visibility = 'visible' AND" : "";
const TERM_IN = (column) =>
  " EXISTS (SELECT 1 FROM json_each(?) AS t WHERE instr(lower(" + column + "), lower(t.value)) > 0)";
// How many distinct terms a row's text holds: rows are ranked by it, then by recency,
// so the most specific evidence survives the LIMIT and the host's size caps.
const MATCHED = (text) =>
  "(SELECT count(*) FROM json_each(?) AS t WHERE instr(lower(" + text + "), lower(t.value)) > 0)" +
  " AS matched";
// A sub-agent's turns are stored under its parent's session with the sub-agent's own
// thread as agent_id: a current session named by that thread is excluded there too.
const MESSAGE_SCOPE =
  SESSION_SCOPE + CLAIMED_SCOPE(OWNER) +
  " AND" + VISIBLE("m", "messages") + " coalesce(m.is_meta, 0) = 0" +
  " AND coalesce(m.agent_id, '') NOT IN (SELECT value FROM json_each(?))" +
  " AND" + INSTANT_IN_WINDOW("m.timestamp") + " AND" + PATH_UNDER_ROOT(MESSAGE_PATH) +
  " AND" + PATH_NOT_ESCAPED(MESSAGE_PATH) + " AND" + PATH_NOT_EXCLUDED(MESSAGE_PATH) +
  " AND" + NOT_MARKED_PRIVATE(OWNER);
const messageBinds = () =>
  [...sessionBinds(), ...claimedBinds(), EXCLUDED, SINCE_MS, UNTIL_MS, ROOTS, ESCAPES, ESCAPES,
    EXCLUDE_PATHS, EXCLUDE_PATHS, PRIVATE_MARKER, PRIVATE_MARKER, PRIVATE_MARKER];

const ROW_COLUMNS =
  "s.id AS session_id, coalesce(s.source, 'claude') AS source, s.project_path AS project_path," +
  " m.cwd AS cwd, m.timestamp AS timestamp, m.uuid AS message_uuid," +
  " m.session_id AS message_session_id, m.agent_id AS agent_id";

// A failed shell call: the runtime's error flag, or a non-zero status in any output form
// the host's runtime records list (loopx_recall_core/runtimes; a host test runs this text
// against each form's sample): Claude `Exit code N`, Codex `Exit code: N`, and Codex
// 0.169's header (`Chunk ID: ..`/`Wall time: ..` lines, then `Process exited with code N`
// before the `Output:` line). String literals only: the test reads them.
const FAILED =
  "(tr.is_error = 1" +
  " OR (substr(tr.content, 1, 10) = 'Exit code ' AND (substr(tr.content, 11, 1) GLOB '[1-9]'" +
  " OR substr(tr.content, 11, 2) GLOB '-[1-9]'))" +
  " OR (substr(tr.content, 1, 11) = 'Exit code: ' AND (substr(tr.content, 12, 1) GLOB '[1-9]'" +
  " OR substr(tr.content, 12, 2) GLOB '-[1-9]'))" +
  " OR ((substr(tr.content, 1, 10) = 'Chunk ID: ' OR substr(tr.content, 1, 11) = 'Wall time: ')" +
  " AND instr(tr.content, char(10) || 'Process exited with code ') > 0" +
  " AND (instr(tr.content, char(10) || 'Output:' || char(10)) = 0" +
  " OR instr(tr.content, char(10) || 'Process exited with code ')" +
  " < instr(tr.content, char(10) || 'Output:' || char(10)))" +
  " AND (substr(tr.content, instr(tr.content, char(10) || 'Process exited with code ') + 26, 1)" +
  " GLOB '[1-9]' OR substr(tr.content," +
  " instr(tr.content, char(10) || 'Process exited with code ') + 26, 2) GLOB '-[1-9]')))";

// Ids are unique only within a session (a call id can recur in another session), so every
// join stays inside the call's session, and each piece reports its session for the check.
const TOOL_FROM =
  " FROM tool_calls AS tc" +
  " JOIN messages AS m ON m.uuid = tc.message_uuid AND m.session_id = tc.session_id" +
  " JOIN sessions AS s ON s.id = tc.session_id" +
  " LEFT JOIN tool_results AS tr ON tr.tool_use_id = tc.id AND tr.session_id = tc.session_id";
const TOOL_COLUMNS =
  ROW_COLUMNS + ", tc.session_id AS call_session_id, tr.session_id AS result_session_id," +
  " tc.id AS call_id, tc.name AS tool, substr(tc.input_json, 1, ?) AS input," +
  " tc.file_path AS file_path, substr(tr.content, 1, CASE WHEN coalesce(" + FAILED + ", 0)" +
  " THEN ? ELSE ? END) AS output, tr.is_error AS is_error," +
  " CASE WHEN tr.tool_use_id IS NULL THEN NULL WHEN " + FAILED + " THEN 1 ELSE 0 END AS failed," +
  " CASE WHEN coalesce(" + FAILED + ", 0) AND length(tr.content) > ?" +
  " THEN substr(tr.content, max(? + 1, length(tr.content) - ? + 1))" +
  " END AS output_tail, length(tr.content) AS output_length";
// The binds of TOOL_COLUMNS, in order: the input cap, the opening (a failure's, anything
// else's), the end (three).
const TOOL_BINDS = [CAP, OUT, CAP, OUT, OUT, OUT];

const MESSAGE_FROM = " FROM messages AS m JOIN sessions AS s ON s.id = m.session_id";

// One item per tool call: a call two queries would both return is returned by the most
// specific one only (prior_failure, then tool_outcome, then file_history), so the per-type
// counts and the items are of distinct calls. A failed call that tool_outcome matches (by
// its input) is always a prior_failure match too.
const WANTS = (type) => (PARAMS.evidence_types.includes(type) ? 1 : 0);
const NOT_PRIOR_FAILURE =
  " (? = 0 OR NOT coalesce(" + FAILED + " AND (" + TERM_IN("tc.input_json") + " OR" +
  TERM_IN("tr.content") + "), 0))";
const NOT_TOOL_OUTCOME = " (? = 0 OR NOT" + TERM_IN("tc.input_json") + ")";

const QUERIES = {
  prior_failure: {
    from: TOOL_FROM,
    where: " WHERE " + FAILED + " AND" + MESSAGE_SCOPE + " AND (" +
      TERM_IN("tc.input_json") + " OR" + TERM_IN("tr.content") + ")",
    binds: () => [...messageBinds(), TERMS, TERMS],
    columns: TOOL_COLUMNS + ", " +
      MATCHED("coalesce(tc.input_json, '') || ' ' || coalesce(tr.content, '')"),
    columnBinds: [...TOOL_BINDS, TERMS],
  },
  tool_outcome: {
    from: TOOL_FROM,
    where: " WHERE" + MESSAGE_SCOPE + " AND" + TERM_IN("tc.input_json") +
      " AND (? = 0 OR NOT coalesce(" + FAILED + ", 0))",
    binds: () => [...messageBinds(), TERMS, WANTS("prior_failure")],
    columns: TOOL_COLUMNS + ", " + MATCHED("tc.input_json"),
    columnBinds: [...TOOL_BINDS, TERMS],
  },
  file_history: {
    from: TOOL_FROM,
    where: " WHERE" + MESSAGE_SCOPE + " AND (" + TERM_IN("coalesce(tc.file_path, '')") +
      " OR (tc.file_path IS NULL AND instr(tc.input_json, '*** ') > 0 AND" +
      TERM_IN("tc.input_json") + "))" + " AND" + NOT_PRIOR_FAILURE + " AND" + NOT_TOOL_OUTCOME,
    binds: () =>
      [...messageBinds(), TERMS, TERMS, WANTS("prior_failure"), TERMS, TERMS,
        WANTS("tool_outcome"), TERMS],
    columns: TOOL_COLUMNS + ", " +
      MATCHED("coalesce(tc.file_path, '') || ' ' || coalesce(tc.input_json, '')"),
    columnBinds: [...TOOL_BINDS, TERMS],
  },
  decision: {
    from: MESSAGE_FROM,
    where: " WHERE m.role = 'assistant' AND" + MESSAGE_SCOPE + " AND" + TERM_IN("m.text"),
    binds: () => [...messageBinds(), TERMS],
    columns: ROW_COLUMNS + ", substr(m.text, 1, ?) AS text, " + MATCHED("m.text"),
    columnBinds: [CAP, TERMS],
  },
  summary: {
    from: " FROM summaries AS su JOIN sessions AS s ON s.id = su.session_id",
    where: " WHERE" + VISIBLE("su", "summaries") + SESSION_SCOPE + CLAIMED_SCOPE("s.id") +
      " AND" + INSTANT_IN_WINDOW("su.timestamp") + " AND" + PATH_UNDER_ROOT("s.project_path") +
      " AND" + PATH_NOT_ESCAPED("s.project_path") + " AND" + PATH_NOT_EXCLUDED("s.project_path") +
      // A summary is the whole session's: a marker in any of its threads leaves it out.
      " AND NOT EXISTS (SELECT 1 FROM messages AS pm WHERE pm.session_id = s.id" +
      " AND instr(pm.text, ?) > 0) AND NOT" + MARKED_SESSION("s.id") +
      " AND" + TERM_IN("su.content"),
    binds: () =>
      [...sessionBinds(), ...claimedBinds(), SINCE_MS, UNTIL_MS, ROOTS, ESCAPES, ESCAPES,
        EXCLUDE_PATHS, EXCLUDE_PATHS, PRIVATE_MARKER, PRIVATE_MARKER, PRIVATE_MARKER, TERMS],
    columns: "s.id AS session_id, coalesce(s.source, 'claude') AS source," +
      " s.project_path AS project_path, NULL AS cwd, su.timestamp AS timestamp," +
      " su.session_id AS message_session_id, su.id AS summary_id, substr(su.content, 1, ?) AS text, " + MATCHED("su.content"),
    columnBinds: [CAP, TERMS],
  },
};

const evidence = {};
const omitted = {};
for (const type of PARAMS.evidence_types) {
  const q = QUERIES[type];
  if (q === undefined) throw new Error("unknown evidence type");
  const order = " ORDER BY matched DESC, " +
    EPOCH_MS(type === "summary" ? "su.timestamp" : "m.timestamp") + " DESC";
  evidence[type] = sql(
    "SELECT " + q.columns + q.from + q.where + order + " LIMIT ?",
    ...q.columnBinds, ...q.binds(), ROWS,
  );
  const total = sql("SELECT count(*) AS n" + q.from + q.where, ...q.binds())[0].n;
  omitted[type] = Math.max(0, total - evidence[type].length);
}

const sessions = PARAMS.list_sessions !== true ? null : sql(
  "SELECT coalesce(s.source, 'claude') AS source, " + OWNER + " AS session_id, max(" +
  EPOCH_MS("m.timestamp") + ") AS last_ms" + MESSAGE_FROM + " WHERE" + SESSION_SCOPE + " AND" +
  VISIBLE("m", "messages") + " coalesce(m.is_meta, 0) = 0 AND" + INSTANT_IN_WINDOW("m.timestamp") +
  " AND" + PATH_UNDER_ROOT(MESSAGE_PATH) + " AND" + PATH_NOT_ESCAPED(MESSAGE_PATH) +
  " AND" + PATH_NOT_EXCLUDED(MESSAGE_PATH) + " GROUP BY 1, 2 ORDER BY 3 DESC LIMIT ?",
  ...sessionBinds(), SINCE_MS, UNTIL_MS, ROOTS, ESCAPES, ESCAPES, EXCLUDE_PATHS, EXCLUDE_PATHS,
  ROWS,
);

const markers = sql(
  "SELECT jsonl_path, mtime FROM index_state WHERE substr(jsonl_path, 1, 2) = '__'" +
  " ORDER BY jsonl_path LIMIT 64",
);
// Only the in-scope transcripts the adapter found on disk: bounded, whatever the index size.
const indexed = sql(
  "SELECT jsonl_path, mtime FROM index_state" +
  " WHERE jsonl_path IN (SELECT value FROM json_each(?)) ORDER BY jsonl_path",
  JSON.stringify(PARAMS.transcripts),
);

return {
  template_version: VERSION,
  schema_columns: SCHEMA_COLUMNS,
  visibility_columns: [...HAS_VISIBILITY].sort(),
  echo: PARAMS.echo ? PARAMS.terms : null,
  markers,
  indexed_files: indexed,
  evidence,
  omitted,
  sessions,
};
