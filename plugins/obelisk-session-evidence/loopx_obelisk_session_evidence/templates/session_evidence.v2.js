// SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
// SPDX-License-Identifier: Apache-2.0
//
// loopx obelisk-session-evidence query template, version 2 (rows ranked by matched terms). Run by `obelisk --query`
// as the body of an async function. The ONLY variable part is the PARAMS data literal
// below (ASCII-only JSON written by the adapter); everything else is fixed text whose
// digest is recorded in every result. SQL uses `?` binds only, explicit columns,
// substr() caps and LIMITs. Scope is applied in SQL and verified again by the adapter
// from the columns every row carries (source, project_path, cwd, timestamp, session).
const PARAMS = /*LOOPX_PARAMS*/ null;

const VERSION = "obelisk-session-evidence-template/2";
if (PARAMS === null || PARAMS.template_version !== VERSION) {
  throw new Error("template parameters missing or for another template version");
}
const SOURCES = JSON.stringify(PARAMS.sources);
const ROOTS = JSON.stringify(PARAMS.roots);
const TERMS = JSON.stringify(PARAMS.terms);
const EXCLUDED = JSON.stringify(PARAMS.exclude_sessions);
const SINCE = PARAMS.since;
const CAP = PARAMS.max_snippet_chars;
const ROWS = PARAMS.max_rows;

// Scope of a row with session alias s and an effective path expression; the same text is
// used by every query so the predicates cannot drift apart.
const SESSION_SCOPE =
  " coalesce(s.source, 'claude') IN (SELECT value FROM json_each(?))" +
  " AND s.id NOT IN (SELECT value FROM json_each(?))";
// Equal to a root or under it on a path-separator boundary; no LIKE, so no wildcards.
const PATH_UNDER_ROOT = (path) =>
  " EXISTS (SELECT 1 FROM json_each(?) AS r WHERE " + path + " = r.value" +
  " OR substr(" + path + ", 1, length(r.value) + 1) = r.value || '/')";
const MESSAGE_PATH = "coalesce(m.cwd, s.project_path)";
const TERM_IN = (column) =>
  " EXISTS (SELECT 1 FROM json_each(?) AS t WHERE instr(lower(" + column + "), lower(t.value)) > 0)";
// How many distinct terms a row's text holds: rows are ranked by it, then by recency,
// so the most specific evidence survives the LIMIT and the host's size caps.
const MATCHED = (text) =>
  "(SELECT count(*) FROM json_each(?) AS t WHERE instr(lower(" + text + "), lower(t.value)) > 0)" +
  " AS matched";
const MESSAGE_SCOPE =
  SESSION_SCOPE + " AND m.visibility = 'visible' AND coalesce(m.is_meta, 0) = 0" +
  " AND m.timestamp >= ? AND" + PATH_UNDER_ROOT(MESSAGE_PATH);
const messageBinds = () => [SOURCES, EXCLUDED, SINCE, ROOTS];

const ROW_COLUMNS =
  "s.id AS session_id, coalesce(s.source, 'claude') AS source, s.project_path AS project_path," +
  " m.cwd AS cwd, m.timestamp AS timestamp, m.uuid AS message_uuid";

const FAILED =
  "(tr.is_error = 1 OR (substr(tr.content, 1, 10) = 'Exit code ' AND substr(tr.content, 11, 1)" +
  " BETWEEN '1' AND '9') OR (substr(tr.content, 1, 11) = 'Exit code: ' AND" +
  " substr(tr.content, 12, 1) BETWEEN '1' AND '9'))";

const TOOL_FROM =
  " FROM tool_calls AS tc JOIN messages AS m ON m.uuid = tc.message_uuid" +
  " JOIN sessions AS s ON s.id = tc.session_id" +
  " LEFT JOIN tool_results AS tr ON tr.tool_use_id = tc.id";
const TOOL_COLUMNS =
  ROW_COLUMNS + ", tc.id AS call_id, tc.name AS tool, substr(tc.input_json, 1, ?) AS input," +
  " tc.file_path AS file_path, substr(tr.content, 1, ?) AS output, tr.is_error AS is_error," +
  " CASE WHEN tr.tool_use_id IS NULL THEN NULL WHEN " + FAILED + " THEN 1 ELSE 0 END AS failed";

const MESSAGE_FROM = " FROM messages AS m JOIN sessions AS s ON s.id = m.session_id";

const QUERIES = {
  prior_failure: {
    from: TOOL_FROM,
    where: " WHERE " + FAILED + " AND" + MESSAGE_SCOPE + " AND (" +
      TERM_IN("tc.input_json") + " OR" + TERM_IN("tr.content") + ")",
    binds: () => [...messageBinds(), TERMS, TERMS],
    columns: TOOL_COLUMNS + ", " +
      MATCHED("coalesce(tc.input_json, '') || ' ' || coalesce(tr.content, '')"),
    columnBinds: [CAP, CAP, TERMS],
  },
  tool_outcome: {
    from: TOOL_FROM,
    where: " WHERE" + MESSAGE_SCOPE + " AND" + TERM_IN("tc.input_json"),
    binds: () => [...messageBinds(), TERMS],
    columns: TOOL_COLUMNS + ", " + MATCHED("tc.input_json"),
    columnBinds: [CAP, CAP, TERMS],
  },
  file_history: {
    from: TOOL_FROM,
    where: " WHERE" + MESSAGE_SCOPE + " AND (" + TERM_IN("coalesce(tc.file_path, '')") +
      " OR (tc.file_path IS NULL AND instr(tc.input_json, '*** ') > 0 AND" +
      TERM_IN("tc.input_json") + "))",
    binds: () => [...messageBinds(), TERMS, TERMS],
    columns: TOOL_COLUMNS + ", " +
      MATCHED("coalesce(tc.file_path, '') || ' ' || coalesce(tc.input_json, '')"),
    columnBinds: [CAP, CAP, TERMS],
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
    where: " WHERE su.visibility = 'visible' AND" + SESSION_SCOPE +
      " AND su.timestamp >= ? AND" + PATH_UNDER_ROOT("s.project_path") + " AND" +
      TERM_IN("su.content"),
    binds: () => [SOURCES, EXCLUDED, SINCE, ROOTS, TERMS],
    columns: "s.id AS session_id, coalesce(s.source, 'claude') AS source," +
      " s.project_path AS project_path, NULL AS cwd, su.timestamp AS timestamp," +
      " su.id AS summary_id, substr(su.content, 1, ?) AS text, " + MATCHED("su.content"),
    columnBinds: [CAP, TERMS],
  },
};

const evidence = {};
const omitted = {};
for (const type of PARAMS.evidence_types) {
  const q = QUERIES[type];
  if (q === undefined) throw new Error("unknown evidence type");
  const order = " ORDER BY matched DESC, " +
    (type === "summary" ? "su.timestamp DESC" : "m.timestamp DESC");
  evidence[type] = sql(
    "SELECT " + q.columns + q.from + q.where + order + " LIMIT ?",
    ...q.columnBinds, ...q.binds(), ROWS,
  );
  const total = sql("SELECT count(*) AS n" + q.from + q.where, ...q.binds())[0].n;
  omitted[type] = Math.max(0, total - evidence[type].length);
}

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
  echo: PARAMS.echo ? PARAMS.terms : null,
  markers,
  indexed_files: indexed,
  evidence,
  omitted,
};
