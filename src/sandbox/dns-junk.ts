import { registeredLabel } from '../core/hosts.js';

// Which DNS names the sink answers NXDOMAIN: made-up names. A sandbox that resolves everything is easy to
// detect (resolve a random name; a real resolver says it does not exist), and a stealer that sees it stays
// quiet. Real hosts, including an attacker's collection domain and the encoded labels under it, still
// resolve to the sink, so exfiltration is still received. Only the registered label is judged (the one left of
// the ICANN public suffix, core/hosts.ts): random-looking there means nobody registered it, while a random
// project name under a hosting platform (x7f3k2.web.app) is the platform's and resolves.
// Measured on random labels: every hex/UUID label, about 3 in 4 random letter+digit labels of 12+
// characters, about half of random letter-only ones; a heuristic, not a guarantee.

/** A label nobody would register: a hex id, a UUID, an alternation of letters and digits, a consonant soup. */
export function looksRandom(label: string): boolean {
  const l = label.toLowerCase();
  if (/^[0-9a-f]{16,}$/.test(l) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/.test(l)) return true;
  const core = l.replaceAll('-', '');
  if (core.length >= 10 && (core.match(/[a-z]+|[0-9]+/g) ?? []).length >= 5) return true;
  if (/^[a-z]{12,}$/.test(core)) {
    const vowels = core.replace(/[^aeiou]/g, '').length / core.length;
    const consonantRun = Math.max(...(core.match(/[^aeiou]+/g) ?? ['']).map((r) => r.length));
    if (vowels <= 0.2 && consonantRun >= 5) return true;
  }
  return false;
}

/** True for a name a real resolver would answer NXDOMAIN: a single label, or a random registrable label. */
export function looksMadeUp(name: string): boolean {
  const labels = name.toLowerCase().replace(/\.$/, '').split('.').filter(Boolean);
  if (labels.length < 2) return true;
  const label = registeredLabel(labels.join('.'));
  return label !== '' && looksRandom(label);
}
