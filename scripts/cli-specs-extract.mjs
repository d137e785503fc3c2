// SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
// SPDX-License-Identifier: Apache-2.0
//
// Reads the compiled specs of @withfig/autocomplete (MIT; a folder of `build/<cli>.js` ES
// modules, each exporting a Fig spec as its default) and writes, per program, the facts the
// route model reads: option spellings and arity, persistent options, subcommands and their
// aliases, where the positional arguments are a command, and parser directives. Run by
// scripts/generate-cli-specs; not at run time.
//
// Fig's spec format (withfig/autocomplete-tools, `Fig.Subcommand`, `Fig.Option`, `Fig.Arg`):
// a name is a string or an array of spellings; `args` is one Arg or an array; an Arg with
// `isOptional` may be left out, `isVariadic` repeats, `isCommand`/`loadSpec`/`isScript`
// means the argument is itself a command line; an Option with `isPersistent` holds for every
// subcommand below it, `requiresSeparator` (or the older `requiresEquals`) takes its value
// only as `--opt=value`; `parserDirectives.flagsArePosixNoncompliant` means `-abc` is one
// option, not three; `loadSpec` on a subcommand names another spec file to load for it.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [, , buildDir, outDir] = process.argv;
if (!buildDir || !outDir) {
  console.error("usage: cli-specs-extract.mjs <package>/build <out dir>");
  process.exit(2);
}

// Bits of an option's third field.
const PERSISTENT = 1;
const SECRET = 2; // its value is a password, token, key or credential (by name/description)
const FOLDER = 4; // it runs the program as if started in another folder (by description)
const SEPARATOR = 8; // its value only as --opt=value

// By the option's own name only (descriptions mention credentials far too often to tell):
// a value named a password, passphrase, secret, token, API or access key, credential or
// private key; not the paging and idempotency tokens of cloud CLIs (`--next-token`,
// `--starting-token`, `--client-token`: AWS CLI docs, "Using the AWS CLI pagination
// options" and "Ensuring idempotency") nor a file or path holding one.
const SECRET_NAME = /(^|[-_ ])(pass(word|phrase|wd)?|secret|token|api[-_]?key|access[-_]?key|credentials?|private[-_]?key|auth[-_]?(token|key))([-_ ]|$)/i;
const NOT_SECRET_NAME = /(next|starting|start|continuation|page|client|trace|idempotency|request|sync|cancel)[-_]?token|(file|path|dir|length|expiry|ttl|id|name|type|prompt|stdin|env|helper|command|url|store)$/i;
const FOLDER_WORDS = /(change|switch)(s|es)? (the )?(current |working )?(directory|dir|folder) (to|before)|(change|switch)(s|es)? to (the )?(given |specified )?(directory|dir|folder)|run(s)? as if .{0,20}(started|invoked|run) in|working directory (to use|for the command)|(use|specify) (a|the) (different |alternate )?working directory|\bchdir\b|(specify|set) (your |the )?project root (folder|directory)|root of the project directory/i;

function names(value) {
  if (Array.isArray(value)) return value.filter((n) => typeof n === "string");
  return typeof value === "string" ? [value] : [];
}
function argsOf(value) {
  if (!value) return [];
  return Array.isArray(value) ? value : [value];
}
function optionEntry(option) {
  const spellings = names(option.name);
  if (!spellings.length) return null;
  const args = argsOf(option.args);
  const arity = args.length === 0 ? 0 : args.every((a) => a && a.isOptional) ? 2 : 1;
  let bits = 0;
  if (option.isPersistent) bits |= PERSISTENT;
  if (option.requiresSeparator || option.requiresEquals) bits |= SEPARATOR;
  const description = typeof option.description === "string" ? option.description : "";
  const fileArg = args.some((a) => a && (a.template === "filepaths" || a.template === "folders"));
  const bare = spellings.map((n) => n.replace(/^-+/, ""));
  if (arity && !fileArg && bare.some((n) => SECRET_NAME.test(n) && !NOT_SECRET_NAME.test(n))) {
    bits |= SECRET;
  }
  if (arity && FOLDER_WORDS.test(description)) bits |= FOLDER;
  const text = spellings.join(" ");
  return arity === 0 && bits === 0 ? text : [text, arity, bits];
}
function argFlags(args) {
  // One letter per positional argument: c (a command line), v (variadic), o (optional), a.
  return argsOf(args)
    .map((a) => {
      if (!a) return "a";
      if (a.isCommand || a.loadSpec || a.isScript) return "c";
      if (a.isVariadic) return "v";
      return a.isOptional ? "o" : "a";
    })
    .join("");
}
function node(spec, depth) {
  const out = {};
  const options = [];
  for (const option of spec.options || []) {
    const entry = optionEntry(option);
    if (entry) options.push(entry);
  }
  if (options.length) out.o = options;
  const flags = argFlags(spec.args);
  if (flags) out.a = flags;
  const directives = spec.parserDirectives || {};
  if (directives.flagsArePosixNoncompliant) out.p = 1;
  if (directives.optionsMustPrecedeArguments) out.m = 1;
  if (depth < 12) {
    const subs = {};
    for (const sub of spec.subcommands || []) {
      const spellings = names(sub.name);
      if (!spellings.length) continue;
      const [first, ...aliases] = spellings;
      const child = typeof sub.loadSpec === "string" && !sub.subcommands
        ? { l: sub.loadSpec }
        : node(sub, depth + 1);
      subs[first] = child;
      for (const alias of aliases) if (!(alias in subs)) subs[alias] = first;
    }
    if (Object.keys(subs).length) out.s = subs;
  }
  return out;
}

async function main() {
  const files = [];
  (function walk(dir) {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".js")) files.push(full);
    }
  })(buildDir);
  let written = 0;
  const skipped = [];
  for (const file of files.sort()) {
    const rel = path.relative(buildDir, file).replace(/\.js$/, "");
    if (rel === "index" || rel.startsWith("dynamic") || rel.startsWith("@")) continue;
    if (!/^[A-Za-z0-9][A-Za-z0-9._+-]*(\/[A-Za-z0-9][A-Za-z0-9._+-]*)*$/.test(rel)) continue;
    let spec;
    try {
      spec = (await import(pathToFileURL(file).href)).default;
    } catch (error) {
      skipped.push(`${rel}: ${String(error).split("\n")[0]}`);
      continue;
    }
    if (typeof spec === "function") spec = spec();
    if (!spec || typeof spec !== "object" || Array.isArray(spec)) {
      skipped.push(`${rel}: no static spec`);
      continue;
    }
    const target = path.join(outDir, `${rel}.json`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, JSON.stringify(node(spec, 0)) + "\n");
    written += 1;
  }
  console.log(`${written} specs written; ${skipped.length} skipped`);
  for (const line of skipped) console.log(`  skipped ${line}`);
}
await main();
