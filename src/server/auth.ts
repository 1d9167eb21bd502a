import { createHash, timingSafeEqual } from 'node:crypto';

// Bearer-token check. Both sides are hashed first so the comparison is constant-time whatever the lengths.

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

export function tokenMatches(given: string | null, expected: string): boolean {
  return timingSafeEqual(digest(given ?? ''), digest(expected)) && given !== null;
}
