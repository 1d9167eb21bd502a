import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { InvalidArgumentError } from 'commander';

/** Writes a command's output to --out (creating its folder) or to stdout. */
export function emit(text: string, out: string | undefined): void {
  if (out) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, text);
  } else {
    process.stdout.write(text);
  }
}

/** A commander argument parser that accepts only the listed values. */
export function oneOf<T extends string>(values: readonly T[]): (value: string) => T {
  return (value: string) => {
    if (!(values as readonly string[]).includes(value)) {
      throw new InvalidArgumentError(`expected one of ${values.join(', ')}`);
    }
    return value as T;
  };
}

/** A count that must be at least 1 (threads, runs, seconds): 0 would mean "do nothing" or hang, so it is refused. */
export function positiveInt(value: string): number {
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError('expected a whole number of 1 or more');
  return n;
}

/** A count where 0 is meaningful (0 extra runs, 0 rewrite rounds, seed 0). */
export function wholeNumber(value: string): number {
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('expected a whole number of 0 or more');
  return n;
}

export function unitInterval(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError('expected a number from 0 to 1');
  return n;
}
