/**
 * A progress line for a long check or build, on a terminal only: written to stderr, so
 * that it never mixes with the problems (stdout), and only when stderr is a TTY, where
 * `\r` rewrites the line in place (ECMA-48 EL, `ESC [ K`, clears what was longer); in a
 * pipe or a CI log it would be a line per update. A run under two seconds shows none.
 * The line is drawn by a timer while checks run elsewhere (worker threads), and by each
 * update too: a check on the main thread never yields to a timer until it is done.
 */
import { duration } from "./human-units.ts";

/** Runs shorter than this show no progress at all. */
const PROGRESS_DELAY_MS = 2000;
const REFRESH_MS = 100;

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export class Progress {
  #done = 0;
  #total = 0;
  #shown = false;
  readonly #started = performance.now();
  #drawnAt = -Infinity;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly stream: ProgressStream,
    /** What is being done: "checking", "building". */
    readonly label: string,
    readonly delayMs = PROGRESS_DELAY_MS,
  ) {
    if (stream.isTTY !== true) return;
    // A progress line never keeps the process alive.
    this.#timer = setTimeout(() => {
      this.#render();
      this.#timer = setInterval(() => this.#render(), REFRESH_MS).unref();
    }, delayMs).unref();
  }

  /** `done` of `total` manifests checked so far. */
  update(done: number, total: number): void {
    this.#done = done;
    this.#total = total;
    const now = performance.now();
    if (this.stream.isTTY === true && now - this.#started >= this.delayMs && now - this.#drawnAt >= REFRESH_MS)
      this.#render();
  }

  /** Clears the line, if one was shown, so that what is printed next starts a clean line. */
  stop(): void {
    // Node's clearTimeout clears an interval as well.
    clearTimeout(this.#timer);
    if (this.#shown) this.stream.write("\r\x1b[K");
    this.#shown = false;
  }

  #render(): void {
    const share = this.#total === 0 ? "" : ` (${Math.floor((100 * this.#done) / this.#total)}%)`;
    const line =
      `${this.label}: ${this.#done} of ${this.#total} manifests${share}, ` +
      `${duration(performance.now() - this.#started)}`;
    this.stream.write(`\r${line.slice(0, (this.stream.columns || 80) - 1)}\x1b[K`);
    this.#shown = true;
    this.#drawnAt = performance.now();
  }
}
