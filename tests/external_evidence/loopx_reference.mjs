// SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
// SPDX-License-Identifier: Apache-2.0
//
// An independent JavaScript statement of the external_evidence_research_v0 wire contract
// (EXTERNAL_EVIDENCE_V0.md), used only by the tests as a cross-language oracle: it runs
// on real JavaScript strings, so String.prototype.trim, .length, JSON.stringify and key
// sorting are JavaScript's own. It reads one JSON case per line on stdin
// ({"op": ..., "args": [...]}) and writes one JSON line per case:
// {"ok": true, "value": ...} or {"ok": false}.

import { createHash } from "node:crypto";
import { createInterface } from "node:readline";

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const PROVIDER_ID = /^[a-z][a-z0-9_.:-]{1,95}$/;
const PROVENANCE = /^(https?:\/\/|[a-z][a-z0-9+.-]*:\/\/|urn:)/;

class Invalid extends Error {}
const need = (condition) => {
  if (!condition) throw new Invalid();
};

function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== "object") return value;
  const out = {};
  for (const key of Object.keys(value).sort()) out[key] = sorted(value[key]);
  return out;
}
const digest = (value) =>
  "sha256:" + createHash("sha256").update(JSON.stringify(sorted(value)), "utf8").digest("hex");

function txt(value, max) {
  need(typeof value === "string");
  const trimmed = value.trim();
  need(trimmed.length > 0 && trimmed.length <= max);
  return trimmed;
}
const nullableTxt = (value, max) => (value === undefined || value === null ? null : txt(value, max));
function txts(value, maxItems, max, minItems = 0) {
  need(Array.isArray(value) && value.length >= minItems && value.length <= maxItems);
  return value.map((item) => txt(item, max));
}
const unique = (items) => new Set(items).size === items.length;
const oneOf = (value, allowed) => {
  need(allowed.includes(value));
  return value;
};
const provenance = (ref) => PROVENANCE.test(ref) && !ref.startsWith("file://");
const trimmedDigest = (value) => {
  const id = txt(value, 71);
  need(DIGEST.test(id));
  return id;
};

function request(raw) {
  need(raw && typeof raw === "object");
  const out = {
    schema_version: "loopx_external_evidence_request_v0",
    objective: txt(raw.objective, 4096),
    user_activity: txt(raw.user_activity, 4096),
    decision: txt(raw.decision, 4096),
    evidence_kinds: txts(raw.evidence_kinds, 8, 96, 1),
    constraints: raw.constraints === undefined ? [] : txts(raw.constraints, 16, 256),
  };
  if (raw.source_refs !== undefined) {
    out.source_refs = txts(raw.source_refs, 8, 2048, 1);
    need(unique(out.source_refs) && out.source_refs.every(provenance));
  }
  if (raw.search_terms !== undefined) out.search_terms = txts(raw.search_terms, 8, 256);
  out.request_id = digest(out);
  return out;
}

function provider(raw) {
  need(raw && typeof raw === "object");
  const id = txt(raw.provider_id, 96);
  need(PROVIDER_ID.test(id));
  need(raw.protocol === "external_evidence_research_v0");
  for (const flag of ["declared", "installed", "enabled", "ready"]) need(typeof raw[flag] === "boolean");
  need(!raw.ready || (raw.declared && raw.installed && raw.enabled));
  const reason = nullableTxt(raw.unavailable_reason, 512);
  need(raw.ready || reason !== null);
  return {
    provider_id: id,
    provider_kind: oneOf(raw.provider_kind, ["method", "connector"]),
    protocol: "external_evidence_research_v0",
    declared: raw.declared,
    installed: raw.installed,
    enabled: raw.enabled,
    ready: raw.ready,
    unavailable_reason: reason,
  };
}

function providers(raw) {
  need(Array.isArray(raw) && raw.length <= 64);
  const rows = raw.map(provider);
  need(unique(rows.map((row) => row.provider_id)));
  return rows;
}

function discover(raw) {
  const rows = providers(raw);
  const ready = rows.filter((row) => row.ready).map((row) => row.provider_id);
  const methods = rows.filter((row) => row.provider_kind === "method").length;
  return {
    schema_version: "loopx_external_evidence_discovery_v0",
    status: rows.length === 0 ? "empty" : ready.length ? "ready" : "inventory_only",
    providers: rows,
    summary: {
      provider_count: rows.length,
      method_count: methods,
      connector_count: rows.length - methods,
      ready_count: ready.length,
      unavailable_count: rows.length - ready.length,
    },
    ready_provider_ids: ready,
    truth_contract: {
      registry_presence_is_readiness: false,
      supported_status_is_readiness: false,
      execution_observed: false,
      evidence_coverage_observed: false,
    },
  };
}

const envelope = (req, chosen) => ({
  schema_version: "loopx_external_evidence_execution_envelope_v0",
  request_id: req.request_id,
  provider_id: chosen.provider_id,
  provider_kind: chosen.provider_kind,
  protocol: chosen.protocol,
  authority: "read_external_sources_only",
  raw_content_persistence: "provider_private",
  result_contract: "loopx_external_evidence_receipt_v0",
});

function seal(req, rows, chosen, blocker) {
  const env = chosen === null ? null : envelope(req, chosen);
  const body = {
    schema_version: "loopx_external_evidence_plan_v0",
    status: chosen === null ? "blocked" : "ready",
    request: req,
    provider_candidates: rows,
    selected_provider: chosen,
    execution_envelope: env,
    blocker,
  };
  const planId = digest(body);
  return { ...body, execution_envelope: env === null ? null : { ...env, plan_id: planId }, plan_id: planId };
}

function plan(rawRequest, rawProviders, preferred) {
  const req = request(rawRequest);
  const rows = providers(rawProviders);
  const pref = preferred === undefined || preferred === null ? null : txt(preferred, 96);
  need(pref === null || rows.some((row) => row.provider_id === pref));
  const chosen =
    rows.find((row) => row.ready && (pref === null || row.provider_id === pref)) ?? null;
  const blocker =
    chosen !== null ? null : pref === null ? "no_ready_provider" : "preferred_provider_not_ready";
  return seal(req, rows, chosen, blocker);
}

function readyPlan(raw) {
  need(raw && raw.schema_version === "loopx_external_evidence_plan_v0");
  need(raw.status === "ready" && raw.blocker === null);
  const req = request(raw.request);
  need(raw.request.request_id === req.request_id);
  const rows = providers(raw.provider_candidates);
  const chosen = provider(raw.selected_provider);
  need(chosen.ready);
  const candidate = rows.find((row) => row.provider_id === chosen.provider_id);
  need(candidate !== undefined && digest(candidate) === digest(chosen));
  const planId = trimmedDigest(raw.plan_id);
  need(raw.execution_envelope && raw.execution_envelope.plan_id === planId);
  need(digest(raw.execution_envelope) === digest({ ...envelope(req, chosen), plan_id: planId }));
  const rebuilt = seal(req, rows, chosen, null);
  need(rebuilt.plan_id === planId);
  return rebuilt;
}

function source(raw) {
  need(raw && typeof raw === "object");
  const ref = txt(raw.source_ref, 2048);
  need(provenance(ref));
  return {
    source_ref: ref,
    source_family: txt(raw.source_family, 128),
    basis: oneOf(raw.basis, ["stated", "observed", "tested", "inferred"]),
    finding: txt(raw.finding, 4096),
    limitation: nullableTxt(raw.limitation, 2048),
    publication_date: nullableTxt(raw.publication_date, 64),
    accessed_at: txt(raw.accessed_at, 64),
    content_digest: trimmedDigest(raw.content_digest),
  };
}

function sources(raw) {
  need(Array.isArray(raw) && raw.length <= 64);
  const out = raw.map(source);
  need(unique(out.map((item) => item.source_ref)));
  return out;
}

function receipt(verified, raw) {
  need(raw && raw.schema_version === "loopx_external_evidence_receipt_v0");
  const chosen = verified.selected_provider;
  need(raw.plan_id === verified.plan_id && raw.request_id === verified.request.request_id);
  need(raw.provider_id === chosen.provider_id && raw.provider_kind === chosen.provider_kind);
  const status = oneOf(raw.status, ["succeeded", "failed", "no_evidence"]);
  const found = sources(raw.sources);
  need(status === "succeeded" ? found.length > 0 : found.length === 0);
  return {
    schema_version: "loopx_external_evidence_receipt_v0",
    plan_id: verified.plan_id,
    request_id: verified.request.request_id,
    provider_id: chosen.provider_id,
    provider_kind: chosen.provider_kind,
    status,
    sources: found,
    summary: txt(raw.summary, 4096),
    limitations: raw.limitations === undefined ? [] : txts(raw.limitations, 16, 1024),
    completed_at: txt(raw.completed_at, 64),
  };
}

function observe(rawPlan, rawReceipt) {
  const verified = readyPlan(rawPlan);
  const bound = receipt(verified, rawReceipt);
  return {
    schema_version: "loopx_external_evidence_receipt_observation_v0",
    receipt_observation_id: digest({
      plan_id: verified.plan_id,
      request_id: bound.request_id,
      provider_id: bound.provider_id,
      receipt_digest: digest(bound),
    }),
    plan_id: verified.plan_id,
    request_id: bound.request_id,
    provider_id: bound.provider_id,
    provider_kind: bound.provider_kind,
    status: bound.status,
    receipt: bound,
    truth_contract: {
      provider_receipt_observed: true,
      provider_execution_attested: false,
      evidence_produced_reported: bound.status === "succeeded",
      evidence_coverage_observed: false,
      automatic_admission: false,
      automatic_promotion: false,
      raw_source_fallback_allowed: true,
    },
  };
}

function admit(rawPlan, rawReceipt, decision) {
  const verified = readyPlan(rawPlan);
  const bound = receipt(verified, rawReceipt);
  need(decision && typeof decision === "object");
  const disposition = oneOf(decision.disposition, ["admit", "reject"]);
  const reason = txt(decision.reason, 2048);
  const refs =
    decision.admitted_source_refs === undefined ? [] : txts(decision.admitted_source_refs, 64, 2048);
  need(unique(refs));
  const available = bound.sources.map((item) => item.source_ref);
  need(refs.every((ref) => available.includes(ref)));
  need(disposition === "reject" ? refs.length === 0 : bound.status === "succeeded" && refs.length > 0);
  const record = {
    schema_version: "loopx_external_evidence_admission_v0",
    plan_id: verified.plan_id,
    request_id: verified.request.request_id,
    provider_id: verified.selected_provider.provider_id,
    provider_kind: verified.selected_provider.provider_kind,
    receipt_status: bound.status,
    receipt_digest: digest(bound),
    completed_at: bound.completed_at,
    disposition,
    reason,
    admitted_source_refs: refs,
    downstream_projection: {
      schema_version: "loopx_external_evidence_projection_v0",
      plan_id: verified.plan_id,
      request_id: verified.request.request_id,
      objective: verified.request.objective,
      decision: verified.request.decision,
      disposition,
      sources: bound.sources.filter((item) => refs.includes(item.source_ref)),
      summary: bound.summary,
      limitations: bound.limitations,
    },
  };
  return { ...record, admission_id: digest(record) };
}

function retire(raw, downstream) {
  need(raw && raw.schema_version === "loopx_external_evidence_admission_v0");
  const planId = trimmedDigest(raw.plan_id);
  const requestId = trimmedDigest(raw.request_id);
  const providerId = txt(raw.provider_id, 96);
  need(PROVIDER_ID.test(providerId));
  const receiptStatus = oneOf(raw.receipt_status, ["succeeded", "failed", "no_evidence"]);
  const disposition = oneOf(raw.disposition, ["admit", "reject"]);
  const refs = txts(raw.admitted_source_refs, 64, 2048);
  need(unique(refs));
  need(disposition === "reject" ? refs.length === 0 : receiptStatus === "succeeded" && refs.length > 0);
  const projection = raw.downstream_projection;
  need(projection && projection.schema_version === "loopx_external_evidence_projection_v0");
  need(projection.plan_id === planId && projection.request_id === requestId);
  need(projection.disposition === disposition);
  const projected = sources(projection.sources);
  need(projected.length === refs.length && refs.every((ref) => projected.some((s) => s.source_ref === ref)));
  const record = {
    schema_version: "loopx_external_evidence_admission_v0",
    plan_id: planId,
    request_id: requestId,
    provider_id: providerId,
    provider_kind: oneOf(raw.provider_kind, ["method", "connector"]),
    receipt_status: receiptStatus,
    receipt_digest: trimmedDigest(raw.receipt_digest),
    completed_at: txt(raw.completed_at, 64),
    disposition,
    reason: txt(raw.reason, 2048),
    admitted_source_refs: refs,
    downstream_projection: {
      schema_version: "loopx_external_evidence_projection_v0",
      plan_id: planId,
      request_id: requestId,
      objective: txt(projection.objective, 4096),
      decision: txt(projection.decision, 4096),
      disposition,
      sources: projected,
      summary: txt(projection.summary, 4096),
      limitations: projection.limitations === undefined ? [] : txts(projection.limitations, 16, 1024),
    },
  };
  const admissionId = trimmedDigest(raw.admission_id);
  need(admissionId === digest(record));
  const covered = new Set(downstream === undefined ? [] : txts(downstream, 64, 2048));
  const missing = refs.filter((ref) => !covered.has(ref));
  const ready = disposition === "reject" || missing.length === 0;
  return {
    schema_version: "loopx_external_evidence_retirement_v0",
    admission_id: admissionId,
    plan_id: planId,
    request_id: requestId,
    status: ready ? "retire_ready" : "retained",
    retire_ready: ready,
    missing_downstream_source_refs: missing,
    reason:
      disposition === "reject"
        ? "parent_rejected"
        : ready
          ? "all_admitted_sources_projected"
          : "admitted_sources_not_yet_projected",
  };
}

const OPS = { discover, plan, observe, admit, retire };

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const { op, args } = JSON.parse(line);
  let answer;
  try {
    answer = { ok: true, value: OPS[op](...args) };
  } catch (error) {
    if (!(error instanceof Invalid) && !(error instanceof TypeError)) throw error;
    answer = { ok: false };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
