// The floor: the least a verifying `check` (and, with --out, `build`) can do on this machine.
//
//   node bench/floor.mjs CONTENT [--out DIR]
//
// Reads every manifest file under CONTENT (what the product calls one: *.json and *.jsonld,
// no name or folder starting with `_` or `.`), JSON.parses it, canonicalizes it (JCS, RFC
// 8785) and verifies its Profile A signature with Node's native Ed25519, on worker threads
// across all cores. It verifies what the product verifies: the signed bytes are the JCS of
// the manifest without `signature`, `presentationProof` and `postQuantumSignature` (v0.2 and
// v0.3: without `signature` alone); `signature.value` is unpadded base64url; the key is the
// one `_keys.json` pins for `signature.keyRef`, else the embedded `publicKeySpkiB64`. With
// --out, each body (the JCS of the whole manifest, as the product serves it) is written to
// DIR under the manifest's own relative path, from the main thread alone: creating files
// from several threads at once costs more kernel time here than from one.
//
// Prints the count verified; exits 1 if any manifest fails to parse or verify.
import { createPublicKey, verify } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

/** Files per message: large enough that messaging costs nothing, small enough to balance the cores. */
const BATCH = 64;

/** JCS: members sorted by UTF-16 code units, numbers and strings as JSON.stringify writes them. */
function jcs(value) {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) text += (i === 0 ? "" : ",") + jcs(value[i]);
    return `${text}]`;
  }
  return joined(members(value));
}

/** An object's members, each as canonical `"key":value`, in canonical order. */
function members(object) {
  return Object.keys(object)
    .sort()
    .map((key) => [key, `${JSON.stringify(key)}:${jcs(object[key])}`]);
}

function joined(members, keep = () => true) {
  let text = "";
  for (const [key, member] of members) if (keep(key)) text += (text === "" ? "{" : ",") + member;
  return `${text === "" ? "{" : text}}`;
}

const UNSIGNED = new Set(["signature", "presentationProof", "postQuantumSignature"]);
const UNSIGNED_BEFORE_V04 = new Set(["signature"]);

function workerMain({ content, pins, out }) {
  const keys = new Map();
  const keyOf = (spki) => {
    let key = keys.get(spki);
    if (key === undefined) {
      key = createPublicKey({ key: Buffer.from(spki, "base64"), format: "der", type: "spki" });
      keys.set(spki, key);
    }
    return key;
  };
  const encoder = new TextEncoder();
  parentPort.on("message", (files) => {
    const failed = [];
    const bodies = [];
    for (const file of files) {
      try {
        const manifest = JSON.parse(readFileSync(join(content, file), "utf8"));
        const { signature } = manifest;
        const unsigned =
          manifest.manifestVersion === "0.2" || manifest.manifestVersion === "0.3" ? UNSIGNED_BEFORE_V04 : UNSIGNED;
        // Canonicalized once, joined twice: the bytes signed, and the body served.
        const canonical = members(manifest);
        const spki = pins[signature.keyRef] ?? signature.publicKeySpkiB64;
        const message = Buffer.from(
          joined(canonical, (key) => !unsigned.has(key)),
          "utf8",
        );
        if (!verify(null, message, keyOf(spki), Buffer.from(signature.value, "base64url"))) failed.push(file);
        else if (out) bodies.push(encoder.encode(joined(canonical)));
      } catch {
        failed.push(file);
      }
    }
    parentPort.postMessage(
      { failed, bodies },
      bodies.map((body) => body.buffer),
    );
  });
}

/** Manifest files under `content`, relative to it. */
function manifestFiles(content, folder = "") {
  const files = [];
  for (const entry of readdirSync(join(content, folder), { withFileTypes: true })) {
    if (entry.name.startsWith("_") || entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) files.push(...manifestFiles(content, path));
    else if (entry.name.endsWith(".json") || entry.name.endsWith(".jsonld")) files.push(path);
  }
  return files;
}

async function main() {
  const { values, positionals } = parseArgs({ options: { out: { type: "string" } }, allowPositionals: true });
  if (positionals.length !== 1) {
    process.stderr.write("usage: node bench/floor.mjs CONTENT [--out DIR]\n");
    process.exit(2);
  }
  const content = positionals[0];
  const out = values.out;
  const keysFile = join(content, "_keys.json");
  const pins = existsSync(keysFile) ? JSON.parse(readFileSync(keysFile, "utf8")) : {};
  const files = manifestFiles(content);
  if (out !== undefined) {
    for (const folder of new Set(files.map((file) => dirname(join(out, file))))) mkdirSync(folder, { recursive: true });
  }
  const batches = [];
  for (let i = 0; i < files.length; i += BATCH) batches.push(files.slice(i, i + BATCH));
  let next = 0;
  let verified = 0;
  const failed = [];
  const workers = Math.min(availableParallelism(), Math.max(1, batches.length));
  await Promise.all(
    Array.from({ length: workers }, async () => {
      const worker = new Worker(new URL(import.meta.url), { workerData: { content, pins, out: out !== undefined } });
      await new Promise((resolve, reject) => {
        let batch;
        const send = () => {
          batch = batches[next++];
          if (batch === undefined) resolve();
          else worker.postMessage(batch);
        };
        worker.on("error", reject);
        worker.on("message", (result) => {
          failed.push(...result.failed);
          verified += batch.length - result.failed.length;
          // The bodies come back in the batch's order, the failed files left out.
          const written = batch.filter((file) => !result.failed.includes(file));
          for (const [i, body] of result.bodies.entries()) writeFileSync(join(out, written[i]), body);
          send();
        });
        send();
      });
      await worker.terminate();
    }),
  );
  process.stdout.write(`${verified} manifests verified${out === undefined ? "" : `, bodies written to ${out}`}\n`);
  if (failed.length > 0) {
    process.stderr.write(`${failed.length} failed to parse or verify:\n${failed.slice(0, 20).join("\n")}\n`);
    process.exit(1);
  }
}

if (isMainThread) await main();
else workerMain(workerData);
