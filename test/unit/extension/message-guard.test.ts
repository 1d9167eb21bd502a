import { describe, expect, it } from 'vitest';
import { parseRequest, trustedSender } from '../../../extension/lib/message-guard.js';

// What the background worker takes: whose messages, and which fields of them.

const ID = 'abcdefghijklmnopabcdefghijklmnop';
const ORIGIN = `chrome-extension://${ID}`;

describe('trustedSender', () => {
  it('accepts the extension’s own pages and its content script on a supported site’s tab', () => {
    expect(trustedSender({ id: ID, url: `${ORIGIN}/options.html` }, ID, ORIGIN)).toBe(true);
    for (const url of [
      'https://github.com/acme/skills/tree/main/x',
      'https://skills.sh/acme/skills/x',
      'https://clawhub.ai/acme/x',
    ]) {
      expect(trustedSender({ id: ID, url, tab: { id: 3 } }, ID, ORIGIN), url).toBe(true);
    }
  });

  it('refuses another extension, other hosts, plain http, non-tabs and senders without a URL', () => {
    const refused = [
      { id: 'otherextensionidotherextensionid', url: 'https://github.com/a/b', tab: {} },
      { url: 'https://github.com/a/b', tab: {} },
      { id: ID, url: 'https://evil.example/', tab: {} },
      { id: ID, url: 'https://github.com.evil.example/a/b', tab: {} },
      { id: ID, url: 'http://github.com/a/b', tab: {} },
      { id: ID, url: 'https://github.com/a/b' },
      { id: ID, url: 'chrome-extension://otherextensionidotherextensionid/x.html' },
      { id: ID, tab: {} },
      { id: ID, url: 'not a url', tab: {} },
    ];
    for (const sender of refused)
      expect(trustedSender(sender, ID, ORIGIN), JSON.stringify(sender)).toBe(false);
  });
});

describe('parseRequest', () => {
  it('keeps exactly the declared fields of each kind', () => {
    expect(parseRequest({ kind: 'lookup', pageUrl: 'https://github.com/a/b', extra: 'x' })).toEqual({
      kind: 'lookup',
      pageUrl: 'https://github.com/a/b',
    });
    expect(parseRequest({ kind: 'submit', source: 'https://github.com/a/b', skill: 's' })).toEqual({
      kind: 'submit',
      source: 'https://github.com/a/b',
      skill: 's',
    });
    expect(parseRequest({ kind: 'status', id: 'q3J' })).toEqual({ kind: 'status', id: 'q3J' });
    expect(parseRequest({ kind: 'health', pageUrl: 1 })).toEqual({ kind: 'health' });
  });

  it('refuses unknown kinds and fields that are missing, empty, oversized or of another type', () => {
    const refused: unknown[] = [
      null,
      'lookup',
      [],
      { kind: 'toString' },
      { kind: '__proto__' },
      { kind: 'lookup' },
      { kind: 'lookup', pageUrl: { toString: () => 'x' } },
      { kind: 'lookup', pageUrl: 'https://github.com/a/b', skill: 42 },
      { kind: 'submit', source: '' },
      { kind: 'submit', source: 'x'.repeat(5000) },
      { kind: 'status', id: ['a'] },
    ];
    for (const message of refused) expect(parseRequest(message), JSON.stringify(message)).toBeUndefined();
  });
});
