import type { Skill } from '../core/types.js';

// Host names a skill's own text and code reference (URLs in SKILL.md, references and scripts; host names
// quoted in code). The sink should resolve and serve these, so a download the skill names reaches its second
// step, while names nobody wrote down (random DGA-style or canary-carrying lookups) may get NXDOMAIN.

const URL_HOST = /\b(?:https?|wss?|ftp):\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})\b/gi;
// A host name as a whole string literal in code: "api.example.com", 'cdn.tools.dev'.
const QUOTED_HOST = /["'`]([a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,24})["'`]/gi;
const FILE_NAME = /\.(py|js|ts|sh|md|json|txt|ya?ml|toml|csv|png|pdf|html?)$/i;
const MAX_HOSTS = 256;

export function referencedHosts(skill: Skill): string[] {
  const hosts = new Set<string>();
  for (const f of skill.files) {
    const text = f.text ?? '';
    for (const re of [URL_HOST, QUOTED_HOST]) {
      for (const m of text.matchAll(re)) {
        const host = m[1]!.toLowerCase();
        if (!FILE_NAME.test(host)) hosts.add(host);
        if (hosts.size >= MAX_HOSTS) return [...hosts];
      }
    }
  }
  return [...hosts];
}

/**
 * The services a skill says it works with, as the label their domains are registered under: the words of its
 * name and description ("Translate a text file with DeepL's API" names deepl). Talking to them is what the
 * skill declares it does; a secret sent there is still judged from the canaries.
 */
export function namedServices(skill: Skill): Set<string> {
  const words = `${skill.name} ${skill.description}`.toLowerCase().match(/[a-z][a-z0-9]{3,}/g) ?? [];
  return new Set(words);
}
