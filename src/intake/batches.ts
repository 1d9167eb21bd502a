// File system calls go through libuv's small thread pool: a few in flight at once hide their latency,
// thousands at once only queue. Results keep the input order, so output stays deterministic.
const BATCH = 32;

export async function mapInBatches<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += BATCH) {
    out.push(...(await Promise.all(items.slice(i, i + BATCH).map(fn))));
  }
  return out;
}
