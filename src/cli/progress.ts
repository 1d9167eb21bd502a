import { clip, reveal } from '../core/format.js';

// Progress of long work, always on stderr so that stdout carries only the result (JSON stays parseable).
// On a terminal one line is redrawn in place; otherwise (CI logs, pipes) a plain line is written when the
// stage changes and every tenth of a count, so a log shows the work moving without a line per item.
// Names come from skills: revealed and clipped, so they cannot move the cursor or flood the log.

const COUNT_STEPS = 10;

export interface Progress {
  /** `subject` entered `stage` (e.g. a skill entered detonation). */
  stage(subject: string, stage: string): void;
  /** `done` of `total` items finished. */
  count(label: string, done: number, total: number): void;
  /** Clears a live line; nothing to do for plain lines. */
  end(): void;
}

const SILENT: Progress = { stage() {}, count() {}, end() {} };

export function createProgress(
  stream: NodeJS.WriteStream,
  quiet: boolean,
  now: () => number = Date.now,
): Progress {
  if (quiet) return SILENT;
  const started = now();
  const elapsed = () => `${Math.round((now() - started) / 1000)} s`;
  const name = (text: string) => clip(reveal(text).replace(/\s+/g, ' '), 80);
  if (stream.isTTY) {
    let live = false;
    const show = (text: string) => {
      stream.write(`\r\x1b[K${text}`);
      live = true;
    };
    return {
      stage: (subject, stage) => show(`${name(subject)}: ${stage}… ${elapsed()}`),
      count: (label, done, total) => show(`${label} ${done}/${total} ${elapsed()}`),
      end: () => {
        if (live) stream.write('\r\x1b[K');
        live = false;
      },
    };
  }
  let lastStage = '';
  // Counts: a line each time a tenth of the (possibly still growing) total has passed, and the last count at
  // the end, so a log of 10,000 skills gets about ten lines.
  let printed = 0;
  let latest: { label: string; done: number; total: number } | null = null;
  const countLine = (c: { label: string; done: number; total: number }) => {
    printed = c.done;
    stream.write(`skillaudit: ${c.label} ${c.done}/${c.total} (${elapsed()})\n`);
  };
  return {
    stage(subject, stage) {
      const key = `${subject}\u0000${stage}`;
      if (key === lastStage) return;
      lastStage = key;
      stream.write(`skillaudit: ${name(subject)}: ${stage} (${elapsed()})\n`);
    },
    count(label, done, total) {
      latest = { label, done, total };
      if (done - printed >= Math.max(1, Math.ceil(total / COUNT_STEPS))) countLine(latest);
    },
    end() {
      if (latest && latest.done !== printed) countLine(latest);
      latest = null;
    },
  };
}
