import { SITES } from './detect.js';
import type { Request } from './protocol.js';

// What the background worker accepts before it acts. The worker holds the token and the host permission, so a
// message is taken only from this extension (its own pages, or its content script in a tab of a supported site),
// and only with the fields its kind declares, each of the declared type: a page that compromised its content
// script's process could otherwise make the worker spend the token on anything it names.

/** The parts of chrome.runtime.MessageSender the check reads. */
export interface Sender {
  id?: string;
  url?: string;
  tab?: unknown;
}

// Same bound as the server's URL fields; a longer value is not a skill page or an audit id.
const MAX_FIELD = 2048;

type FieldSpec = Record<string, 'text' | 'optional text'>;

const FIELDS: { [K in Request['kind']]: FieldSpec } = {
  lookup: { pageUrl: 'text', skill: 'optional text' },
  submit: { source: 'text', skill: 'optional text' },
  status: { id: 'text' },
  health: {},
  openOptions: {},
};

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_FIELD;
}

/** The request with exactly its declared fields, or undefined when any field is missing or of the wrong type. */
export function parseRequest(message: unknown): Request | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { kind } = message as { kind?: unknown };
  if (typeof kind !== 'string' || !Object.hasOwn(FIELDS, kind)) return undefined;
  const request: Record<string, string> = { kind };
  for (const [field, spec] of Object.entries(FIELDS[kind as Request['kind']])) {
    const value = (message as Record<string, unknown>)[field];
    if (value === undefined && spec === 'optional text') continue;
    if (!isText(value)) return undefined;
    request[field] = value;
  }
  return request as unknown as Request;
}

/** True for this extension's own pages and for its content script in a tab of a site it runs on. */
export function trustedSender(sender: Sender, extensionId: string, extensionOrigin: string): boolean {
  if (sender.id !== extensionId || typeof sender.url !== 'string') return false;
  let url: URL;
  try {
    url = new URL(sender.url);
  } catch {
    return false;
  }
  // Scheme and host, not url.origin: outside the browser an extension URL's origin is opaque ("null").
  if (`${url.protocol}//${url.host}` === extensionOrigin) return true;
  return (
    sender.tab !== undefined && url.protocol === 'https:' && SITES.some((site) => site.host === url.hostname)
  );
}
