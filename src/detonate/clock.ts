import { existsSync } from 'node:fs';
import type { EntryPoint } from './entry-points.js';

// Code that waits before it acts: until a date, until days after it was installed (its own file's age), or
// until its second run (a marker the first run leaves). A single run on install day sees none of it. A script
// that reads the clock is therefore run a second time in the same sandbox, after its first run, with the
// clock moved LATER_DAYS ahead by libfaketime (LD_PRELOAD; monotonic time is left alone so timeouts and the
// shortened sleeps still work). Statically linked programs (Go) read the real clock: for them it is a second
// run only. Without libfaketime the run is not made, and the skipped list says so.

/** How far ahead the later run's clock is: past a year of dormancy, within the sink certificates' validity. */
export const LATER_DAYS = 400;

const LIBFAKETIME = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/faketime/libfaketime.so.1',
  '/usr/local/lib/faketime/libfaketime.so.1',
];

/** The host's libfaketime (the sandbox sees /usr as the host has it), or null. */
export function libfaketime(): string | null {
  return LIBFAKETIME.find((p) => existsSync(p)) ?? null;
}

// Reading the date or a file's age, in Python, JavaScript and shell.
const READS_CLOCK =
  /\bdatetime\b|\btime\.time\(|\bdate\.today\(|getmtime|getctime|st_mtime|st_ctime|\bDate\.now\(|\bnew Date\(|mtimeMs|ctimeMs|birthtime|\$\(date\b|`date\b|\bdate \+%|stat -c ?%[YZW]|-mtime [+-]?\d/;

/** Whether a script reads the clock or a file's age (a later run could take another path). */
export function readsClock(text: string): boolean {
  return READS_CLOCK.test(text);
}

/** The environment that moves the clock LATER_DAYS ahead for every dynamically linked program of the run. */
export function laterClockEnv(lib: string): Record<string, string> {
  return { LD_PRELOAD: lib, FAKETIME: `+${LATER_DAYS}d`, FAKETIME_DONT_FAKE_MONOTONIC: '1' };
}

/** A script's plain run made again, after a first run in the same sandbox, LATER_DAYS later. */
export function laterEntry(entry: EntryPoint): EntryPoint {
  return {
    ...entry,
    id: `${entry.id} (run again ${LATER_DAYS} days later)`,
    later: LATER_DAYS,
    why: `${entry.why}; it reads the clock, so it runs a second time in the same sandbox with the clock ${LATER_DAYS} days ahead: code that waits for a date, for days after install or for its second run`,
  };
}
