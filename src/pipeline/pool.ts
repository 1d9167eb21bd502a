// Runs jobs with at most `concurrency` in flight. A job that throws does not stop the others; the caller's
// jobs decide what a failure means (the trial runner records it; a spent budget makes later jobs skip).

export async function runPool<T>(
  jobs: readonly (() => Promise<T>)[],
  concurrency: number,
): Promise<PromiseSettledResult<T>[]> {
  const results: PromiseSettledResult<T>[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      const job = jobs[index] as () => Promise<T>;
      try {
        results[index] = { status: 'fulfilled', value: await job() };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    }
  };
  const workers = Math.max(1, Math.min(concurrency, jobs.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
