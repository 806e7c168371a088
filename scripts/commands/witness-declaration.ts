/**
 * `manifest-resolver witness serve`: a transparency log witness (C2SP tlog-witness), over HTTP, until stopped.
 * The declaration: all that --help and a usage error need; the run is witness.ts.
 */
import { declareCommand } from "../cli/command.ts";
import { integerOption, stringOption } from "../cli/options.ts";
import { PORT } from "./shared-options.ts";

export const witness = declareCommand({
  name: "witness",
  settings: false,
  description: `Runs a transparency log witness (C2SP tlog-witness): a log POSTs each new checkpoint to
/add-checkpoint with a consistency proof from the last one this witness cosigned, and gets
back its cosignature (tlog-cosignature, Ed25519), once the checkpoint is signed by the log's
key and extends, append-only, what was cosigned before. Monitors GET
/<hex SHA-256 of the origin>/checkpoint, the latest cosigned checkpoint; /health says the
witness's name, key and number of logs. Each log's latest checkpoint is written to the
state folder, synced to disk, before the answer; one witness holds the folder at a time.
Prints one JSON line on start (its URL, name and cosigner key, the vkey to publish) and
one per request ({time, method, path, status, ms, origin, size, reason}). Stop it with
Ctrl+C or SIGTERM: requests in flight are answered first.`,
  epilogue: `Exit status: 0 stopped, 1 cannot serve (the key, the state folder held by another witness,
the port in use), 2 usage error.

Example:
  manifest-resolver keygen --role witness
  manifest-resolver witness serve --key ~/.manifest-keys/site/witness.pem --logs logs.txt \\
    --name witness.example/w1 --host 0.0.0.0`,
  positionals: [{ name: "ACTION", required: true, choices: ["serve"] }],
  options: {
    key: stringOption({
      value: "PEM",
      help: "the witness's Ed25519 private key (PKCS#8 PEM, as keygen --role witness writes it)",
      required: true,
    }),
    logs: stringOption({
      value: "FILE",
      help: "the logs witnessed: lines log <vkey> [<url>] (C2SP tlog-policy); a log may list several keys",
      required: true,
    }),
    name: stringOption({
      value: "NAME",
      help: "the witness's name, its cosignatures' key name; a schema-less URL is usual",
      default: { text: "this machine's host name" },
      nonEmpty: true,
    }),
    port: integerOption({ ...PORT, help: "TCP port, 0 for any free port", default: 7380 }),
    host: stringOption({
      value: "H",
      help: "address to listen on; 0.0.0.0 (or ::) serves every interface, as a public witness does",
      default: "127.0.0.1",
    }),
    state: stringOption({
      value: "DIR",
      help: "the folder of each log's latest cosigned checkpoint, made if absent",
      default: "witness-state",
    }),
  },
});
