// Keeps the first `limit` bytes of a stream and counts the rest, so a run printing gigabytes costs nothing.
import type { Readable } from 'node:stream';

export class BoundedOutput {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  total = 0;

  constructor(
    private readonly limit: number,
    stream: Readable | null,
    onData: () => void,
  ) {
    stream?.on('data', (chunk: Buffer) => {
      this.total += chunk.length;
      if (this.kept < this.limit) {
        const slice = chunk.subarray(0, this.limit - this.kept);
        this.chunks.push(slice);
        this.kept += slice.length;
      }
      onData();
    });
  }

  get truncated(): boolean {
    return this.total > this.kept;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
