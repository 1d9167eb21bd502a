import type { FileKind } from '../core/types.js';

// How a file is classified, as data: extension → kind and language, exact names for well-known files,
// and shebang interpreters for extensionless scripts. Content can still override to 'binary'.

interface KindRule {
  kind: Exclude<FileKind, 'binary'>;
  language: string | null;
}

const BY_EXTENSION: Record<string, KindRule> = {
  md: { kind: 'doc', language: 'markdown' },
  markdown: { kind: 'doc', language: 'markdown' },
  mdx: { kind: 'doc', language: 'markdown' },
  txt: { kind: 'doc', language: 'text' },
  rst: { kind: 'doc', language: 'text' },
  html: { kind: 'doc', language: 'html' },
  htm: { kind: 'doc', language: 'html' },
  sh: { kind: 'script', language: 'bash' },
  bash: { kind: 'script', language: 'bash' },
  zsh: { kind: 'script', language: 'bash' },
  py: { kind: 'script', language: 'python' },
  pyw: { kind: 'script', language: 'python' },
  js: { kind: 'script', language: 'javascript' },
  mjs: { kind: 'script', language: 'javascript' },
  cjs: { kind: 'script', language: 'javascript' },
  jsx: { kind: 'script', language: 'javascript' },
  ts: { kind: 'script', language: 'typescript' },
  mts: { kind: 'script', language: 'typescript' },
  cts: { kind: 'script', language: 'typescript' },
  tsx: { kind: 'script', language: 'typescript' },
  ps1: { kind: 'script', language: 'powershell' },
  psm1: { kind: 'script', language: 'powershell' },
  rb: { kind: 'script', language: 'ruby' },
  bat: { kind: 'script', language: null },
  cmd: { kind: 'script', language: null },
  php: { kind: 'script', language: null },
  lua: { kind: 'script', language: null },
  pl: { kind: 'script', language: 'perl' },
  pm: { kind: 'script', language: 'perl' },
  // Source in languages without a parser here: code, not prose (their text is not instructions to the agent);
  // code-unparsed-script.ts reads what any language writes as a literal.
  vbs: { kind: 'script', language: null },
  go: { kind: 'script', language: null },
  rs: { kind: 'script', language: null },
  java: { kind: 'script', language: null },
  kt: { kind: 'script', language: null },
  kts: { kind: 'script', language: null },
  swift: { kind: 'script', language: null },
  cs: { kind: 'script', language: null },
  scala: { kind: 'script', language: null },
  groovy: { kind: 'script', language: null },
  r: { kind: 'script', language: null },
  jl: { kind: 'script', language: null },
  dart: { kind: 'script', language: null },
  c: { kind: 'script', language: null },
  cpp: { kind: 'script', language: null },
  h: { kind: 'script', language: null },
  mk: { kind: 'script', language: 'make' },
  json: { kind: 'data', language: 'json' },
  jsonl: { kind: 'data', language: 'json' },
  yaml: { kind: 'data', language: 'yaml' },
  yml: { kind: 'data', language: 'yaml' },
  toml: { kind: 'data', language: 'toml' },
  csv: { kind: 'data', language: 'text' },
  tsv: { kind: 'data', language: 'text' },
  xml: { kind: 'data', language: 'xml' },
  ini: { kind: 'data', language: 'text' },
  cfg: { kind: 'data', language: 'text' },
  conf: { kind: 'data', language: 'text' },
  env: { kind: 'data', language: 'text' },
  lock: { kind: 'data', language: 'text' },
};

// Whole names that say more than their extension (dependency manifests matter to the supply-chain rules).
const BY_NAME: Record<string, KindRule> = {
  'requirements.txt': { kind: 'data', language: 'text' },
  'package.json': { kind: 'data', language: 'json' },
  'package-lock.json': { kind: 'data', language: 'json' },
  'pnpm-lock.yaml': { kind: 'data', language: 'yaml' },
  'yarn.lock': { kind: 'data', language: 'text' },
  'poetry.lock': { kind: 'data', language: 'toml' },
  'uv.lock': { kind: 'data', language: 'toml' },
  'pipfile.lock': { kind: 'data', language: 'json' },
  pipfile: { kind: 'data', language: 'toml' },
  'cargo.lock': { kind: 'data', language: 'toml' },
  'go.sum': { kind: 'data', language: 'text' },
  'go.mod': { kind: 'data', language: 'text' },
  gemfile: { kind: 'script', language: 'ruby' },
  'gemfile.lock': { kind: 'data', language: 'text' },
  // make hands each recipe line to the shell (scan/makefile.ts reads them as such); direnv sources .envrc.
  makefile: { kind: 'script', language: 'make' },
  gnumakefile: { kind: 'script', language: 'make' },
  '.envrc': { kind: 'script', language: 'bash' },
  dockerfile: { kind: 'script', language: null },
  '.env': { kind: 'data', language: 'text' },
  '.npmrc': { kind: 'data', language: 'text' },
  '.pypirc': { kind: 'data', language: 'text' },
  license: { kind: 'doc', language: 'text' },
  readme: { kind: 'doc', language: 'text' },
};

// Interpreter named by a shebang (`#!/usr/bin/env python3 -u` → python3) → language.
const BY_INTERPRETER: Array<[RegExp, string]> = [
  [/^(ba|z|k|da)?sh$/, 'bash'],
  [/^python[0-9.]*$/, 'python'],
  [/^(node|nodejs|bun|deno)$/, 'javascript'],
  [/^(ts-node|tsx)$/, 'typescript'],
  [/^pwsh$|^powershell$/, 'powershell'],
  [/^ruby$/, 'ruby'],
  [/^perl$/, 'perl'],
  [/^uv$/, 'python'],
];

export interface Classification {
  kind: FileKind;
  language: string | null;
  /** True when the name promised text (a known extension or name) — binary content there is suspicious. */
  expectsText: boolean;
}

function baseName(path: string): string {
  const slash = path.lastIndexOf('/');
  return path.slice(slash + 1);
}

/** The language a shebang line names, or null when `head` does not start with one we know. */
export function shebangLanguage(head: string): string | null {
  const match = /^#![ \t]*(\S+)(?:[ \t]+(.*))?/.exec(head);
  if (!match) return null;
  let interpreter = baseName(match[1]!);
  if (interpreter === 'env') {
    // `env -S python3 -u` and `env python3`: the first word that is not an option names the interpreter.
    const words = (match[2] ?? '').split(/[ \t]+/).filter((w) => w !== '' && !w.startsWith('-'));
    interpreter = words[0] ?? '';
  }
  for (const [pattern, language] of BY_INTERPRETER) if (pattern.test(interpreter)) return language;
  return null;
}

/** Classifies by name; `head` (the first decoded characters, or null for binary content) refines it. */
export function classifyFile(path: string, head: string | null): Classification {
  const name = baseName(path).toLowerCase();
  const byName = BY_NAME[name];
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1) : '';
  const rule = byName ?? (ext ? BY_EXTENSION[ext] : undefined);
  if (head === null) return { kind: 'binary', language: null, expectsText: rule !== undefined };
  const shebang = head.startsWith('#!') ? shebangLanguage(head) : null;
  if (rule) {
    // A script's shebang is the better witness of its language (e.g. a .sh file run by python).
    if (rule.kind === 'script' && shebang) return { kind: 'script', language: shebang, expectsText: true };
    return { kind: rule.kind, language: rule.language, expectsText: true };
  }
  if (shebang) return { kind: 'script', language: shebang, expectsText: false };
  if (head.startsWith('#!')) return { kind: 'script', language: null, expectsText: false };
  return { kind: 'doc', language: ext === '' ? 'text' : null, expectsText: false };
}
