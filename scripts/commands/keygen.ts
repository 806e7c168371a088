/** `manifest-resolver keygen`: a new Ed25519 signing key. */
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { relative, resolve } from "node:path";
import { EXIT_FAILED, EXIT_OK, stringOption, UsageError, type Command } from "./command.ts";

export const CONTENT_DIR = "content";

export const keygen: Command = {
  name: "keygen",
  summary: "make a new Ed25519 signing key (private key to a file, public key printed)",
  help: `Usage: manifest-resolver keygen [--out FILE]

Writes a new Ed25519 private key as a PKCS#8 PEM file readable by its owner only, and
prints the public key (SPKI, standard base64) with the _keys.json entry that pins it.
The private key is never printed, never written under content/, and an existing file
is never overwritten. Keep it out of git (*.pem is ignored here) and in your CI's secrets.

Options:
  --out FILE   where to write the private key (default: signing-key.pem)

Exit status: 0 written, 1 not written (the file exists, or is under content/), 2 usage error.

Example:
  manifest-resolver keygen --out ~/.keys/manifests.pem`,
  options: { out: { type: "string" } },
  async run(values, positionals) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const out = stringOption(values, "out", "signing-key.pem");
    const inContent = relative(resolve(CONTENT_DIR), resolve(out));
    if (!inContent.startsWith("..") && !inContent.startsWith("/")) {
      console.error(`manifest-resolver: refusing to write a private key under ${CONTENT_DIR}/, which is published: choose another --out`);
      return EXIT_FAILED;
    }
    const { privateKey } = generateKeyPairSync("ed25519");
    try {
      // "wx": a key that exists is never replaced. A lost key cannot be recovered.
      await writeFile(out, privateKey.export({ format: "pem", type: "pkcs8" }), { mode: 0o600, flag: "wx" });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      console.error(`manifest-resolver: cannot write ${out}: ${code === "EEXIST" ? "it exists; move it away or choose another --out" : (error as Error).message}`);
      return EXIT_FAILED;
    }
    const spki = createPublicKey(privateKey).export({ format: "der", type: "spki" }).toString("base64");
    console.log(`wrote the private key to ${out} (owner-only; keep it secret and out of git)

public key (SPKI, base64):
  ${spki}

to pin it, add this entry to ${CONTENT_DIR}/_keys.json, with the keyRef you sign with:
  ${JSON.stringify("did:web:example.com#key-1")}: ${JSON.stringify(spki)}`);
    return EXIT_OK;
  },
};
