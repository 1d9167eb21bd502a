// Helpers for resolved values: constant strings with unknown holes, path normalisation, and the taint a
// constant string carries by what it names (a credential store, another agent's memory).

import { T, Taint, UNKNOWN, type Value } from './model.js';
import {
  AGENT_CONTEXT_RE,
  CREDENTIAL_PATH_RE,
  FOREIGN_DOTENV_RE,
  IDENTITY_VARS,
  SECRET_NAME_RE,
} from './names.js';

export const EMPTY_VALUE: Value = { text: '', str: null, alts: [], taint: Taint.NONE };

export function constValue(text: string, str: string | null, taint: Taint = Taint.NONE): Value {
  return { text, str, alts: [], taint };
}

/** Joins parts into one string; null parts become UNKNOWN holes; null when nothing at all is known. */
export function joinParts(parts: readonly (string | null)[], sep = ''): string | null {
  if (parts.length > 0 && parts.every((p) => p === null)) return null;
  return parts.map((p) => p ?? UNKNOWN).join(sep);
}

export function unionTaint(values: readonly Value[]): Taint {
  let t = Taint.NONE;
  for (const v of values) t = t.union(v.taint);
  return t;
}

/** Home-directory spellings become `~` so path rules need one form. */
export function normalisePath(path: string): string {
  return path
    .replace(/\\/g, '/')
    .replace(/^(\$\{?HOME\}?|\$env:(USERPROFILE|HOME)|%USERPROFILE%|%HOMEPATH%|~[a-z0-9_-]*)(?=\/|$)/i, '~')
    .replace(/^(\/home\/[^/]+|\/Users\/[^/]+|[a-z]:\/Users\/[^/]+|\/root)(?=\/|$)/i, '~')
    .replace(/\/{2,}/g, '/');
}

/** The candidates a value may take: its constant string and its alternatives. */
export function candidates(v: Value): string[] {
  return v.str === null ? [...v.alts] : [v.str, ...v.alts];
}

export function isSecretName(name: string): boolean {
  return SECRET_NAME_RE.test(name) && !/^(KEYBOARD|KEYMAP|TOKENIZERS?_|AUTHOR)/i.test(name);
}

/** Taint of reading environment variables by these names: a secret, or who and where the machine is. */
export function envNameBits(names: readonly string[]): number {
  return (
    (names.some(isSecretName) ? T.ENV_SECRET : 0) | (names.some((n) => IDENTITY_VARS.test(n)) ? T.HOST_ID : 0)
  );
}

function looksLikePath(s: string): boolean {
  return /[/\\]/.test(s) || /^[~.]/.test(s) || /\.(md|json|jsonl|db|sqlite)$/i.test(s);
}

/** Credential store path (someone's keys), not the skill's own config in the working directory. */
export function isCredentialPath(raw: string): boolean {
  const p = normalisePath(raw);
  if (!looksLikePath(p) && !/^(Login Data|Cookies)$/.test(p)) return false;
  return CREDENTIAL_PATH_RE.test(p) || FOREIGN_DOTENV_RE.test(p);
}

export function isAgentContextPath(raw: string): boolean {
  const p = normalisePath(raw);
  return looksLikePath(p) && AGENT_CONTEXT_RE.test(p);
}

/** Taint a constant string carries because of what it names. */
export function pathTaint(s: string, line: number): Taint {
  let bits = 0;
  if (s.length > 300) return Taint.NONE;
  if (isCredentialPath(s)) bits |= T.CRED_PATH;
  if (isAgentContextPath(s)) bits |= T.CTX_PATH;
  return bits ? Taint.of(bits, line) : Taint.NONE;
}

/** A read of a value that names a credential or context path yields that data. */
export function readTaint(path: Value, line: number): Taint {
  let bits = 0;
  const names = candidates(path);
  if (path.taint.has(T.CRED_PATH) || names.some(isCredentialPath)) bits |= T.CRED_DATA;
  if (path.taint.has(T.CTX_PATH) || names.some(isAgentContextPath)) bits |= T.CTX_DATA;
  return bits ? Taint.of(bits, line) : Taint.NONE;
}

/** Decodes common literal encodings so an `exec(b64decode("…"))` payload can itself be scanned. */
export function decodeLiteral(kind: 'base64' | 'hex' | 'rot13', s: string): string | null {
  if (s.includes(UNKNOWN)) return null;
  try {
    if (kind === 'base64') {
      const clean = s.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return null;
      return Buffer.from(clean, 'base64').toString('latin1');
    }
    if (kind === 'hex') {
      const clean = s.replace(/\\x|\s+/g, '');
      if (!/^([0-9a-f]{2})*$/i.test(clean)) return null;
      return Buffer.from(clean, 'hex').toString('latin1');
    }
    return s.replace(/[a-z]/gi, (c) => {
      const base = c <= 'Z' ? 65 : 97;
      return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
    });
  } catch {
    return null;
  }
}

/** Decodes the escapes of a quoted literal (\n, \t, \xNN, \uNNNN, \NNN octal). */
export function unescapeLiteral(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{2}|u\{?[0-9a-fA-F]{4,6}\}?|[0-7]{1,3}|.)/gs, (_m, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    if (e[0] === 'u') return String.fromCodePoint(Number.parseInt(e.replace(/[u{}]/g, ''), 16));
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(Number.parseInt(e, 8));
    return ({ n: '\n', t: '\t', r: '\r', '0': '\0' } as Record<string, string>)[e] ?? e;
  });
}
