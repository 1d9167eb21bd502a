// Where a destination the code computes at run time comes from when the skill ships it: a script that names
// `endpoints.txt` or `config.json` beside it and sends to an address read from there sends to a host written
// into the skill, only not into the code. Malware keeps its endpoints in configuration for exactly this.
import { hostOf } from '../code/hosts.js';
import type { FileContext } from '../rule.js';

const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'`<>)\]]+/gi;
const MARKDOWN = /\.(?:md|markdown|mdx)$/i;
const MAX_HOSTS = 3;

/**
 * The host written in a file the skill ships (data or plain text, not a script or a markdown document) whose
 * name the script sending from `line` contains, when that file holds addresses of at most a few hosts (a list
 * of indicators or a catalogue of APIs is not one endpoint); null when there is none.
 */
export function shippedEndpoint(ctx: FileContext, line: number): { host: string; file: string } | null {
  // In a program of several files, the file the send is in must name it.
  const sender = ctx.fileOf?.(line);
  const text = sender ? (ctx.skill.files.find((f) => f.path === sender)?.text ?? '') : ctx.text;
  for (const f of ctx.skill.files) {
    if (f === ctx.file || f.path === sender || f.kind === 'script' || !f.text || MARKDOWN.test(f.path))
      continue;
    const base = f.path.slice(f.path.lastIndexOf('/') + 1);
    if (base.length < 5 || !text.includes(base)) continue;
    const hosts = new Set<string>();
    for (const m of f.text.slice(0, 64_000).matchAll(URL_IN_TEXT)) {
      const { host, dynamic } = hostOf(m[0]);
      if (host && !dynamic) hosts.add(host);
      if (hosts.size > MAX_HOSTS) break;
    }
    if (hosts.size > 0 && hosts.size <= MAX_HOSTS) return { host: [...hosts][0]!, file: f.path };
  }
  return null;
}
