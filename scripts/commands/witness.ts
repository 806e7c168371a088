/** `manifest-resolver witness serve`: a transparency log witness (C2SP tlog-witness), over HTTP, until stopped. */
import { hostname } from "node:os";
import { resolve } from "node:path";
import { COSIGNATURE_TYPE, formatVerifierKey } from "../../core/tlog/note-keys.ts";
import { isKeyName } from "../../core/tlog/note.ts";
import { type WitnessEvent, witnessHandler } from "../../core/witness/witness-handler.ts";
import { EXIT_FAILED, UsageError } from "../cli/command.ts";
import type { CommandRun } from "../cli/command.ts";
import { pemNoteSigner } from "../crypto/note-signer.ts";
import { printable } from "../report/printable.ts";
import { FileWitnessStore } from "../witness/file-store.ts";
import { readLogsFile } from "../witness/logs-file.ts";
import { listenWitness } from "../witness/node-server.ts";
import { holdStateFolder } from "../witness/state-folder.ts";
import type { witness } from "./witness-declaration.ts";

export const runWitness: CommandRun<typeof witness> = async (values) => {
  const name = values.name ?? hostname();
  if (!isKeyName(name))
    throw new UsageError(`--name '${name}' is not a key name: no space, no plus${values.name ? "" : " (give --name)"}`);
  const logs = readLogsFile(values.logs);
  if (typeof logs === "string") throw new UsageError(`--logs ${logs}`);
  const signer = await pemNoteSigner(values.key, name, COSIGNATURE_TYPE);
  if (typeof signer === "string") return failed(signer);

  const state = resolve(values.state);
  let release: () => void;
  try {
    release = await holdStateFolder(state);
  } catch (error) {
    // Held by another witness (LockTimeout, which says by whom), or a folder this process cannot make or write.
    if ((error as NodeJS.ErrnoException).code === undefined) throw error;
    return failed(`cannot use the state folder ${state}: ${(error as Error).message}`);
  }
  const log = (event: object) => console.log(JSON.stringify({ time: new Date().toISOString(), ...event }));
  const store = new FileWitnessStore(state);
  const handler = witnessHandler({
    witness: { signer, logs, clock: () => Math.floor(Date.now() / 1000) },
    store,
    log: (event: WitnessEvent) => log(event),
  });
  let server: Awaited<ReturnType<typeof listenWitness>>;
  try {
    server = await listenWitness({ handler, host: values.host, port: values.port, failed: log });
  } catch (error) {
    release();
    return failed(`cannot listen on ${values.host}:${values.port}: ${(error as Error).message}`);
  }
  // Ready for a signal before saying so: whoever reads the URL may stop the witness at once.
  const stopped = new Promise<number>((done) => {
    const stop = () =>
      server.stop().then(async () => {
        // Connections closed, not every write: the folder is held until the last record is on disk.
        await store.settled();
        release();
        log({ stopped: server.url });
        done(0);
      });
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  const key = formatVerifierKey(name, signer.publicKey, COSIGNATURE_TYPE);
  log({ listening: server.url, name, key, logs: logs.size, state });
  return stopped;
};

function failed(message: string): number {
  console.error(`manifest-resolver: ${printable(message)}`);
  return EXIT_FAILED;
}
