import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addLimitOptions, limitsFromOptions, parseByteSize } from '../../../src/cli/limit-options.js';

describe('limit flags', () => {
  it('parses byte sizes with binary units', () => {
    expect(parseByteSize('1048576')).toBe(1048576);
    expect(parseByteSize('512k')).toBe(512 * 1024);
    expect(parseByteSize('2M')).toBe(2 * 1024 * 1024);
    expect(parseByteSize('1GiB')).toBe(1024 ** 3);
    expect(() => parseByteSize('0')).toThrow('expected a positive size');
    expect(() => parseByteSize('-1')).toThrow('expected a size such as');
    expect(() => parseByteSize('lots')).toThrow('expected a size such as');
  });

  it('turns parsed flags into intake limits and ignores other flags', () => {
    const cmd = addLimitOptions(new Command('x').exitOverride().option('--format <f>'));
    cmd.parse(
      [
        '--max-files',
        '10',
        '--max-read-bytes',
        '4k',
        '--max-total-bytes',
        '1M',
        '--max-depth',
        '3',
        '--format',
        'json',
      ],
      {
        from: 'user',
      },
    );
    expect(limitsFromOptions(cmd.opts())).toEqual({
      maxFiles: 10,
      maxReadBytes: 4096,
      maxTotalBytes: 1024 ** 2,
      maxDepth: 3,
    });
    expect(limitsFromOptions({})).toEqual({});
  });

  it('rejects a non-numeric count as a usage error', () => {
    const cmd = addLimitOptions(new Command('x').exitOverride().configureOutput({ writeErr: () => {} }));
    expect(() => cmd.parse(['--max-files', 'many'], { from: 'user' })).toThrow(
      /expected a positive whole number/,
    );
  });
});
