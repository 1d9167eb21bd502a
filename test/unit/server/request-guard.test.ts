import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ALLOWED_ORIGINS,
  isLoopbackHostHeader,
  isLoopbackListen,
  originAllowed,
} from '../../../src/server/request-guard.js';

describe('request guard', () => {
  it('allows the extension origins by default and no web origin', () => {
    expect(originAllowed('chrome-extension://abcdefghijklmnop', DEFAULT_ALLOWED_ORIGINS)).toBe(true);
    for (const origin of ['https://evil.example', 'null', 'chrome-extension://', 'http://127.0.0.1:8787']) {
      expect(originAllowed(origin, DEFAULT_ALLOWED_ORIGINS), origin).toBe(false);
    }
    expect(originAllowed('chrome-extension://abc', ['chrome-extension://def'])).toBe(false);
    expect(originAllowed('chrome-extension://def', ['chrome-extension://def'])).toBe(true);
  });

  it('accepts only loopback names in the Host header', () => {
    for (const host of [
      '127.0.0.1:8787',
      'localhost',
      'LOCALHOST:1',
      '[::1]:8787',
      'app.localhost',
      '127.1.2.3',
    ]) {
      expect(isLoopbackHostHeader(host), host).toBe(true);
    }
    for (const host of ['evil.example:8787', '', 'localhost.evil.example', '127.0.0.1.nip.io', '10.0.0.1']) {
      expect(isLoopbackHostHeader(host), host).toBe(false);
    }
    expect(isLoopbackListen('127.0.0.1')).toBe(true);
    expect(isLoopbackListen('0.0.0.0')).toBe(false);
  });
});
