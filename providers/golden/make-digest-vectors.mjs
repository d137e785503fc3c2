// SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
// SPDX-License-Identifier: Apache-2.0
// Produces providers/golden/digest-vectors.json with JavaScript's own JSON.stringify and
// sort order, so the Python digest is checked against the runtime LoopX's owner uses.
// Run: node providers/golden/make-digest-vectors.mjs > providers/golden/digest-vectors.json
import { createHash } from "node:crypto";

const sorted = (v) =>
  Array.isArray(v)
    ? v.map(sorted)
    : v && typeof v === "object"
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])]))
      : v;
const canonical = (v) => JSON.stringify(sorted(v));
const digest = (v) => "sha256:" + createHash("sha256").update(canonical(v), "utf8").digest("hex");

const values = {
  empty_object: {},
  empty_array: [],
  null: null,
  booleans: [true, false],
  small_integers: [0, 1, -1, 4096, 1000000],
  key_order: { b: 1, a: 2, A: 3, _: 4, "10": 5, "9": 6 },
  nested: { z: { y: [{ b: 1, a: 0 }], x: null }, a: "text" },
  non_ascii: { text: "naïve café 東京 🚀", ключ: "значение" },
  escapes: "quote \" backslash \\ slash / tab \t newline \n cr \r nul \u0000 unit-sep \u001f del \u007f",
  line_separators: "a\u2028b\u2029c\u0085d",
  lone_high_surrogate: "x\ud800y",
  lone_low_surrogate: "\udfffz",
  surrogate_pair: "\ud83d\ude80",
  astral_vs_bmp_keys: { "\uffff": 1, "\u{1F600}": 2, "\ue000": 3 },
  bom_and_nbsp: "\ufeff\u00a0 x \u3000",
  request_like: {
    schema_version: "loopx_external_evidence_request_v0",
    objective: "Decide whether to adopt library X",
    user_activity: "evaluating dependencies",
    decision: "adopt or reject X",
    evidence_kinds: ["release notes", "security advisories"],
    constraints: [],
    search_terms: [],
  },
};

const vectors = Object.entries(values).map(([name, value]) => ({
  name,
  value,
  canonical_json: canonical(value),
  digest: digest(value),
}));
process.stdout.write(JSON.stringify({ vectors }, null, 2) + "\n");
