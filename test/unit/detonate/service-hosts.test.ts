import { describe, expect, it } from 'vitest';
import { keyNamedForService, namedServiceHost } from '../../../src/detonate/service-hosts.js';

// A service's API hosts are what a skill naming it talks to, and where that service's own key goes.

describe('service hosts', () => {
  it('declares the API hosts of a named service and the domain a service word is registered under', () => {
    expect(namedServiceHost('identitytoolkit.googleapis.com', new Set(['firebase']))).toBe(true);
    expect(namedServiceHost('api.deepl.com', new Set(['deepl']))).toBe(true);
    expect(namedServiceHost('collector.web.app', new Set(['firebase']))).toBe(false);
    expect(namedServiceHost('googleapis.com', new Set(['constructor', 'hasownproperty']))).toBe(false);
  });

  it("takes a key sent to its own service's API host as the skill's own key, and no other key", () => {
    expect(keyNamedForService('FIREBASE_WEB_KEY', 'identitytoolkit.googleapis.com')).toBe(true);
    expect(keyNamedForService('OPENAI_API_KEY', 'identitytoolkit.googleapis.com')).toBe(false);
    expect(keyNamedForService('FIREBASE_WEB_KEY', 'drop.example.net')).toBe(false);
  });
});
