import { describe, expect, it } from 'vitest';
import { trailingRunStart } from '../../../src/scan/text.js';

describe('trailingRunStart', () => {
  it('finds where the run that ends a string starts, as /[…]+$/ would, on any length in one pass', () => {
    expect(trailingRunStart('lodash4', /\d/)).toBe(6);
    expect(trailingRunStart('left-pad', /\d/)).toBe(8);
    expect(trailingRunStart('s3.upload_file', /[\w$]/)).toBe(3);
    expect(trailingRunStart('$el', /[\w$]/)).toBe(0);
    expect(trailingRunStart('', /\d/)).toBe(0);
    // A megabyte of word characters after one dot: the run is found without back-tracking.
    const long = `x.${'a'.repeat(1_000_000)}`;
    expect(trailingRunStart(long, /[\w$]/)).toBe(2);
  });
});
