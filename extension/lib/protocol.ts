import type { Audit, Lookup } from './audit.js';

// Messages from the content script and the Options page to the background service worker. Only the worker talks
// to the server: it holds the host permission and the token, which therefore never enters a web page's process.

export type Request =
  | { kind: 'lookup'; pageUrl: string; skill?: string }
  | { kind: 'submit'; source: string; skill?: string }
  | { kind: 'status'; id: string }
  | { kind: 'health' }
  | { kind: 'openOptions' };

export interface Replies {
  lookup: Lookup & { canSubmit: boolean };
  submit: Audit;
  status: Audit;
  health: { version: string };
  openOptions: null;
}

/** Why a request failed, in words for the badge; `code` lets the badge offer the right next step. */
export interface Failure {
  code:
    | 'unreachable'
    | 'no-permission'
    | 'no-token'
    | 'unauthorized'
    | 'rate-limited'
    | 'bad-response'
    | 'refused';
  message: string;
}

export type Reply<K extends Request['kind']> =
  | { ok: true; value: Replies[K] }
  | { ok: false; failure: Failure };
