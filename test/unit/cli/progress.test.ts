import { describe, expect, it } from 'vitest';
import { createProgress } from '../../../src/cli/progress.js';

// The progress printer on a terminal (one line redrawn) and on a log (a bounded number of plain lines).

function stream(isTTY: boolean) {
  const writes: string[] = [];
  const s = { isTTY, write: (chunk: string) => writes.push(chunk) > 0 } as unknown as NodeJS.WriteStream;
  return { s, writes };
}

describe('createProgress', () => {
  it('on a log: about ten count lines for a thousand skills, the last one exact', () => {
    const { s, writes } = stream(false);
    const p = createProgress(s, false, () => 0);
    for (let i = 1; i <= 1000; i++) p.count('scanned', i, 1000);
    p.end();
    expect(writes.length).toBeGreaterThanOrEqual(10);
    expect(writes.length).toBeLessThanOrEqual(11);
    expect(writes.at(-1)).toBe('skillaudit: scanned 1000/1000 (0 s)\n');
    expect(writes.every((w) => w.endsWith('\n') && !w.includes('\r'))).toBe(true);
  });

  it('on a log: one line per stage change, names revealed', () => {
    const { s, writes } = stream(false);
    const p = createProgress(s, false, () => 0);
    p.stage('pdf\u001b[2J', 'scan');
    p.stage('pdf\u001b[2J', 'scan');
    p.stage('pdf\u001b[2J', 'detonate');
    expect(writes).toEqual([
      'skillaudit: pdf⟨U+001B⟩[2J: scan (0 s)\n',
      'skillaudit: pdf⟨U+001B⟩[2J: detonate (0 s)\n',
    ]);
  });

  it('on a terminal: one live line, cleared at the end', () => {
    const { s, writes } = stream(true);
    const p = createProgress(s, false, () => 0);
    p.stage('pdf', 'scan');
    p.end();
    expect(writes).toEqual(['\r\u001b[Kpdf: scan… 0 s', '\r\u001b[K']);
  });

  it('--quiet: nothing', () => {
    const { s, writes } = stream(true);
    const p = createProgress(s, true);
    p.stage('pdf', 'scan');
    p.count('scanned', 1, 1);
    p.end();
    expect(writes).toEqual([]);
  });
});
