import { describe, expect, it } from 'vitest';
import { checkRunRequest } from '../../../src/sandbox/request-check.js';

describe('checkRunRequest', () => {
  it('accepts an ordinary request', () => {
    expect(() =>
      checkRunRequest({ argv: ['sh', '-c', 'echo ok'], env: { A: 'b=c' }, limits: { wallMs: 1000 } }),
    ).not.toThrow();
  });

  it('rejects what cannot reach a process intact', () => {
    expect(() => checkRunRequest({ argv: [], env: {} })).toThrow(/argv is empty/);
    expect(() => checkRunRequest({ argv: ['a\0b'], env: {} })).toThrow(/NUL/);
    expect(() => checkRunRequest({ argv: ['x'], env: { 'A=B': '1' } })).toThrow(
      /invalid environment variable name/,
    );
    expect(() => checkRunRequest({ argv: ['x'], env: { A: 'x\0y' } })).toThrow(/NUL/);
    expect(() => checkRunRequest({ argv: ['x'], env: {}, limits: { wallMs: Number.NaN } })).toThrow(/wallMs/);
    expect(() => checkRunRequest({ argv: ['x'], env: {}, limits: { memoryBytes: -1 } })).toThrow(
      /memoryBytes/,
    );
  });
});
