/** `manifest-resolver probe`: check a running resolver against the contract. */
import { printable } from "../report/diagnostics.ts";
import { probe as probeResolver } from "../probe.ts";
import { EXIT_FAILED, EXIT_OK, UsageError } from "../cli/command.ts";
import type { probe } from "./probe-declaration.ts";
import type { CommandRun } from "../cli/command.ts";

export const runProbe: CommandRun<typeof probe> = async (_values, [baseUrl, umids]) => {
  if (!/^https?:\/\//i.test(baseUrl) || !URL.canParse(baseUrl))
    throw new UsageError(`BASE_URL must be an http or https URL, not '${baseUrl}'`);
  let checks = 0;
  let failed = 0;
  for await (const result of probeResolver(baseUrl, umids)) {
    checks++;
    if (result.failure === undefined) {
      console.log(printable(`ok    ${result.check}${result.detail === undefined ? "" : `: ${result.detail}`}`));
    } else {
      failed++;
      console.log(printable(`FAIL  ${result.check}: ${result.failure}`));
    }
    // Every later check would fail the same way: one clear line is enough.
    if (result.unreachable) {
      console.log(
        printable(`${baseUrl}: stopped after ${checks} ${checks === 1 ? "check" : "checks"}: nothing answered`),
      );
      return EXIT_FAILED;
    }
  }
  console.log(`${baseUrl}: ${checks} checks, ${failed === 0 ? "all passed" : `${failed} failed`}`);
  return failed === 0 ? EXIT_OK : EXIT_FAILED;
};
