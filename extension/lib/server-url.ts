// The server is addressed by its origin alone: the API's paths are absolute (/api/..., /audits/<id>), so a path
// typed after the host would be dropped by every request anyway. Keeping only the origin makes that visible.

export const DEFAULT_SERVER_URL = 'http://127.0.0.1:8787';

export class InvalidServerUrl extends Error {}

// The token is sent as a bearer header, so plain http is allowed only where it never leaves this machine.
// URL.hostname keeps the brackets of an IPv6 address.
const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', '[::1]', 'localhost'];

export function serverOrigin(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new InvalidServerUrl('Enter the server URL, e.g. http://127.0.0.1:8787');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidServerUrl('The server URL must start with http:// or https://');
  }
  if (url.username || url.password) {
    throw new InvalidServerUrl('Put the token in the token field, not in the URL');
  }
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.includes(url.hostname)) {
    throw new InvalidServerUrl(
      'Use https:// for a server on another machine: http:// would send the token in cleartext',
    );
  }
  return url.origin;
}

// The host permission for one server. Chrome match patterns cannot name a port, and a host without one matches
// every port, so the pattern is scheme + host.
export function hostPermissionPattern(origin: string): string {
  const url = new URL(origin);
  return `${url.protocol}//${url.hostname}/*`;
}
