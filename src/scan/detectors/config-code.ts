// Code inside configuration: a JSON/YAML/TOML file the skill ships whose string values are code for a tool
// that evaluates them (a shell command in a hook or `run` field, a JavaScript function body calling
// child_process, a Python one-liner) is code. The embedded-code detector analyses each such value with the
// code rules, at the value's line. package.json scripts and MCP server entries have their own detectors.
import type { CodeModel } from '../code/model.js';
import type { FileContext } from '../rule.js';
import { lineAt, lineStarts } from '../text.js';
import { parseConfig } from './config-mcp.js';

export interface ConfigScript {
  language: CodeModel['language'];
  line: number;
  text: string;
  why: string;
  /** The value sits on one line of the file (a JSON string with \n escapes): every finding is on that line. */
  flat: boolean;
}

/** Keys whose value a tool runs as a command. */
const COMMAND_KEY =
  /^(command|commands|cmd|run|script|scripts|exec|execute|entrypoint|entry_point|shell|hook|hooks|pre[\w-]*|post[\w-]*|on[\w-]+|setup|install|start|launch|action|handler)$/i;
/** A value shaped like a command line: a program name, then arguments. */
const COMMAND_SHAPE = /^\s*(?:sudo\s+)?[\w./~$-]+\s+\S/;
/** Shell that means code whatever the key: a download piped into a shell, a decode-and-run, a reverse shell. */
const STRONG_SHELL =
  /\b(curl|wget)\b[^|\n]*\|\s*(sudo\s+)?(ba|z|da)?sh\b|\bbase64\s+(-d|--decode|-D)\b[^\n]*\|\s*(ba|z)?sh\b|\/dev\/tcp\/|\bnc\s+(-\w+\s+)*-e\b/;
const JAVASCRIPT =
  /\brequire\s*\(\s*['"`]|\bchild_process\b|\bprocess\.env\b|\beval\s*\(|\bnew\s+Function\s*\(|\bfunction\s*\w*\s*\([^)]*\)\s*\{|=>\s*\{/;
const PYTHON =
  /\b__import__\s*\(|^\s*import\s+(os|subprocess|socket|base64|urllib)\b|\bsubprocess\.\w+\(|\bos\.(system|popen)\(/m;
/**
 * Files other detectors read as what they are, and the repository's CI configuration (run by the author's CI
 * service, not on the user's machine).
 */
const NOT_HERE =
  /(^|\/)(package(-lock)?\.json|[\w.-]*lock[\w.-]*\.(json|ya?ml)|\.?mcp[\w.-]*\.json|\.gitlab-ci\.ya?ml)$|(^|\/)\.(github|circleci|gitlab)\//i;

/** A CI pipeline definition (GitHub Actions, GitLab, CircleCI, Azure), wherever it is kept: run by a CI service. */
const CI_PIPELINE = /^(jobs|stages|pipelines|workflows|trigger):\s*$/m;

const MAX_VALUES = 20;

function classify(key: string, value: string): { language: CodeModel['language']; why: string } | null {
  if (value.length < 8 || value.length > 20_000) return null;
  if (JAVASCRIPT.test(value)) return { language: 'javascript', why: `JavaScript in the "${key}" value` };
  if (PYTHON.test(value)) return { language: 'python', why: `Python in the "${key}" value` };
  if (STRONG_SHELL.test(value) || (COMMAND_KEY.test(key) && COMMAND_SHAPE.test(value)))
    return { language: 'bash', why: `a shell command in the "${key}" value` };
  return null;
}

/** String values of a parsed document with the key that holds each (array items take their array's key). */
function* strings(doc: unknown, key = '', depth = 0): Generator<[string, string]> {
  if (depth > 40) return;
  if (typeof doc === 'string') yield [key, doc];
  else if (Array.isArray(doc)) for (const v of doc) yield* strings(v, key, depth + 1);
  else if (doc && typeof doc === 'object')
    for (const [k, v] of Object.entries(doc)) yield* strings(v, k, depth + 1);
}

export function isConfigWithCode(path: string): boolean {
  return !NOT_HERE.test(path);
}

/** The code values of a configuration file (one `isConfigWithCode` admits), each at the line where it starts. */
export function configScripts(ctx: FileContext): ConfigScript[] {
  if (ctx.text.length > 500_000) return [];
  if (/mcpServers|context_servers|mcp_servers/.test(ctx.text) || CI_PIPELINE.test(ctx.text)) return [];
  const doc = parseConfig(ctx);
  if (doc === null || typeof doc !== 'object') return [];
  const starts = lineStarts(ctx.text);
  const out: ConfigScript[] = [];
  for (const [key, value] of strings(doc)) {
    const kind = classify(key, value);
    if (!kind) continue;
    // The value's first line as written: verbatim in YAML/TOML blocks, JSON-escaped in JSON.
    const first = value
      .split('\n')
      .find((l) => l.trim())!
      .trim();
    const written = ctx.file.language === 'json' ? JSON.stringify(first).slice(1, -1) : first;
    const at = ctx.text.indexOf(written);
    if (at < 0) continue;
    const line = lineAt(starts, at);
    const flat = !value.includes('\n') || ctx.file.language === 'json';
    out.push({ ...kind, line, text: value, flat });
    if (out.length >= MAX_VALUES) break;
  }
  return out;
}
