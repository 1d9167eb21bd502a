// MCP servers a skill installs or configures: entries of an MCP config file the skill ships (`mcpServers` in
// .mcp.json or YAML, `[mcp_servers.x]` in codex TOML) and `claude|codex|gemini mcp add` commands in its
// scripts. An MCP server sees every tool call routed to it and writes tool descriptions the agent obeys, so
// one served from a host nobody can hold to account (a bare IP, a tunnel, a paste or request-catcher host, plain
// http) or a package fetched unpinned at every start is a channel for control and data. Writing such entries
// into other agents' MCP configuration is persistence (code.persistent-config-edit).
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { analyseCode } from '../code/analyse.js';
import { callHit, clamp, contextConfidence, dedupe } from '../code/hits.js';
import type { Call, CodeModel } from '../code/model.js';
import { hostOf, isPublicIpHost } from '../code/network.js';
import { rulesDetectedBy } from '../engine/rule-pack.js';
import { subjectWords } from '../own-vendor.js';
import type { Detector, FileContext, Hit } from '../rule.js';
import { lineAt, lineStarts, quote } from '../text.js';
import { codeLanguage } from '../treesitter.js';
import { supplyChainHits } from './code-supply-chain.js';
import { DYNAMIC_DNS_HOST, PASTE_HOST, REQUEST_CATCHER } from './prose-vocabulary.js';

export const MCP_RULES = rulesDetectedBy('config-mcp');

const UNTRUSTED = 'config.mcp-untrusted-server';
const REMOTE_CODE = 'config.mcp-remote-code';
const UNPINNED = 'config.mcp-unpinned-package';

/** Hosts that hand out names to anyone, or only catch requests: no service to hold to account. */
const DROP_HOST = new RegExp(`(^|\\.)(${DYNAMIC_DNS_HOST}|${PASTE_HOST}|${REQUEST_CATCHER})$`, 'i');
const LOCAL_URL = /^https?:\/\/(localhost|127\.|0\.0\.0\.0|\[::1\]|host\.docker\.internal)([:/]|$)/i;
/** Package runners and the flags that take a value before the package name. */
const RUNNER = /^(npx|bunx|uvx|pipx|pnpx)$|^(pnpm|yarn|bun|uv)$/;
const RUNNER_SUB = /^(dlx|x|run|tool)$/;
/** Publishers whose reference servers are the protocol's own. */
const OFFICIAL_SCOPE =
  /^@(modelcontextprotocol|anthropic-ai|openai|microsoft|azure|aws|google|cloudflare|github)\//i;
const URL_IN = /\b(?:https?|wss?):\/\/[^\s"'`<>)]+/gi;

/** One server as configured: a remote URL, or a command with its arguments. */
export interface McpServer {
  name: string;
  url?: string;
  command?: string;
  args?: readonly string[];
}

interface Judgement {
  rule: string;
  base: number;
  why: string;
  /** Text to find the server's line by (its URL or package). */
  needle: string;
}

function judgeUrl(url: string, server: string): Judgement | null {
  if (LOCAL_URL.test(url)) return null;
  const { host } = hostOf(url);
  // A URL assembled from a template (`f"http://{value}"`) names no host yet.
  if (!host || !/^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:]+\]$/i.test(host)) return null;
  if (isPublicIpHost(host))
    return {
      rule: UNTRUSTED,
      base: 0.8,
      why: `MCP server ${server} is served from the bare IP address ${host}`,
      needle: url,
    };
  if (DROP_HOST.test(host))
    return {
      rule: UNTRUSTED,
      base: 0.8,
      why: `MCP server ${server} is served from ${host}, a tunnel, paste or request-catcher host`,
      needle: url,
    };
  if (/^(http|ws):\/\//i.test(url) && !/\.(local|internal|lan|test)$/.test(host))
    return {
      rule: UNTRUSTED,
      base: 0.55,
      why: `MCP server ${server} is reached over plain http at ${host}`,
      needle: url,
    };
  return null;
}

/** The package a runner fetches (`npx -y pkg@1.2`, `uvx pkg==1`, `pnpm dlx pkg`), or null. */
function runnerPackage(command: string, args: readonly string[]): string | null {
  const cmd = command.split(/[\\/]/).pop()!.toLowerCase();
  if (!RUNNER.test(cmd)) return null;
  let rest = [...args];
  if (!/^(npx|bunx|uvx|pnpx|pipx)$/.test(cmd)) {
    if (!RUNNER_SUB.test(rest[0] ?? '')) return null;
    rest = rest.slice(rest[0] === 'tool' ? 2 : 1);
  } else if (cmd === 'pipx' && rest[0] === 'run') rest = rest.slice(1);
  const pkgFlag = rest.findIndex((a) => /^(-p|--package|--from)$/.test(a));
  if (pkgFlag >= 0) return rest[pkgFlag + 1] ?? null;
  const eq = rest.find((a) => /^--(package|from)=/.test(a));
  if (eq) return eq.replace(/^--(package|from)=/, '');
  return rest.find((a) => !a.startsWith('-')) ?? null;
}

function pinned(spec: string): boolean {
  if (/^(git\+|https?:|file:|\.|\/)/.test(spec)) return false;
  const version = /^(@[^/]+\/)?[^@=<>~]+(?:@|==)(.+)$/.exec(spec)?.[2];
  return !!version && /^v?\d/.test(version);
}

function judgeCommand(server: McpServer, ctx: FileContext): Judgement[] {
  const command = server.command ?? '';
  const args = server.args ?? [];
  const line = [command, ...args].join(' ');
  const out: Judgement[] = [];
  for (const m of line.matchAll(URL_IN)) {
    const j = judgeUrl(m[0], server.name);
    if (j) out.push(j);
  }
  const pkg = runnerPackage(command, args);
  if (pkg && !pinned(pkg) && !OFFICIAL_SCOPE.test(pkg) && !ownPackage(pkg, ctx)) {
    const latest = /@(latest|next)$/.test(pkg);
    out.push({
      rule: UNPINNED,
      base: latest ? 0.5 : 0.4,
      why: `MCP server ${server.name} runs ${pkg}, fetched ${latest ? 'at its newest release' : 'unpinned'} every time it starts`,
      needle: pkg,
    });
  }
  return out;
}

/** A package named after what the skill is about (`@acme/mcp-server` in an Acme skill): the vendor's own. */
function ownPackage(pkg: string, ctx: FileContext): boolean {
  const words = pkg.toLowerCase().split(/[^a-z0-9]+/);
  const subject = subjectWords(ctx.skill);
  return words.some((w) => w.length >= 4 && subject.has(w));
}

/** `sh -c "$(curl …)"` as a server command: the shell string is code, judged by the remote-code rule. */
async function remoteCode(server: McpServer, ctx: FileContext): Promise<Judgement | null> {
  const command = (server.command ?? '').split(/[\\/]/).pop() ?? '';
  const args = server.args ?? [];
  const script = /^(ba|z|da)?sh$/.test(command)
    ? args[args.findIndex((a) => /^-\w*c$/.test(a)) + 1]
    : /^(curl|wget)$/.test(command)
      ? [command, ...args].join(' ')
      : undefined;
  if (!script) return null;
  const model = await analyseCode('bash', script);
  if (!model) return null;
  const sub: FileContext = { ...ctx, text: script, file: { ...ctx.file, language: 'bash' } };
  const hit = supplyChainHits(sub, model).find((h) => h.rule === 'code.remote-code');
  return hit
    ? { rule: REMOTE_CODE, base: 0.9, why: `MCP server ${server.name}: ${hit.rationale}`, needle: script }
    : null;
}

async function judge(server: McpServer, ctx: FileContext): Promise<Judgement[]> {
  const out: Judgement[] = [];
  if (server.url) {
    const j = judgeUrl(server.url, server.name);
    if (j) out.push(j);
  }
  if (server.command) {
    out.push(...judgeCommand(server, ctx));
    const rc = await remoteCode(server, ctx);
    if (rc) out.push(rc);
  }
  return out;
}

const SERVER_KEYS = /^(mcpServers|mcp_servers|mcp-servers|context_servers)$/;

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function asServer(name: string, v: unknown): McpServer | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const url = [o.url, o.serverUrl, o.httpUrl, o.uri].find((u): u is string => typeof u === 'string');
  const command = typeof o.command === 'string' ? o.command : undefined;
  if (!url && !command) return null;
  const named = typeof o.name === 'string' ? o.name : name;
  // `command: "npx -y pkg"` written as one string is split like a shell would.
  const [cmd, ...inline] = command ? command.trim().split(/\s+/) : [];
  const server: McpServer = { name: named, args: [...inline, ...strings(o.args)] };
  if (url) server.url = url;
  if (cmd) server.command = cmd;
  return server;
}

/** Server entries anywhere in a parsed config: under an MCP servers key, as a map or a list. */
export function serversIn(doc: unknown, servers = false, depth = 0, out: McpServer[] = []): McpServer[] {
  if (depth > 8 || typeof doc !== 'object' || doc === null || out.length >= 50) return out;
  const entries = Array.isArray(doc) ? doc.map((v, i) => [String(i), v] as const) : Object.entries(doc);
  for (const [k, v] of entries) {
    const s = servers ? asServer(k, v) : null;
    if (s) out.push(s);
    else serversIn(v, SERVER_KEYS.test(k) || (servers && Array.isArray(v)), depth + 1, out);
  }
  return out;
}

export function parseConfig(ctx: FileContext): unknown {
  const lang = ctx.file.language;
  try {
    if (lang === 'json') return JSON.parse(ctx.text);
    if (lang === 'yaml') return parseYaml(ctx.text, { maxAliasCount: 50, logLevel: 'silent' });
    if (lang === 'toml') return parseToml(ctx.text);
  } catch {
    return null;
  }
  return null;
}

function hitAt(ctx: FileContext, j: Judgement, line: number, evidence: string): Hit {
  const { confidence, notes } = contextConfidence(ctx, j.base);
  return {
    rule: j.rule,
    line,
    endLine: line,
    evidence: quote(evidence, 300),
    confidence: clamp(confidence),
    rationale: [j.why, ...notes].join('; '),
  };
}

async function configHits(ctx: FileContext): Promise<Hit[]> {
  if (!/mcp|context_servers/i.test(ctx.text)) return [];
  const doc = parseConfig(ctx);
  if (!doc) return [];
  const starts = lineStarts(ctx.text);
  const lines = ctx.text.split('\n');
  const hits: Hit[] = [];
  for (const server of serversIn(doc)) {
    for (const j of await judge(server, ctx)) {
      const at = ctx.text.indexOf(j.needle);
      const line = at >= 0 ? lineAt(starts, at) : 1;
      hits.push(hitAt(ctx, j, line, lines[line - 1] ?? j.needle));
    }
  }
  return hits;
}

/** Flags of `<agent> mcp add` that take a value (so the value is not the server name). */
const ADD_VALUE_FLAG =
  /^(-t|--transport|-s|--scope|-e|--env|-H|--header|--client-id|--client-secret|--callback-port|--bearer-token-env-var|--url)$/;

/** `claude mcp add [flags] name url|-- cmd args`, `codex mcp add name -- cmd`, `… mcp add-json name '{…}'`. */
function addedServer(call: Call): McpServer | null {
  if (call.kind !== 'command' || !/^(claude|codex|gemini|amp|qwen|cursor-agent|opencode)$/.test(call.callee))
    return null;
  const words = call.args.map((a) => a.str ?? '\u2026');
  if (words[0] !== 'mcp' || !/^add(-json)?$/.test(words[1] ?? '')) return null;
  const rest = words.slice(2);
  if (words[1] === 'add-json') {
    const positional = rest.filter((w) => !w.startsWith('-'));
    try {
      return asServer(positional[0] ?? 'server', JSON.parse(positional[1] ?? ''));
    } catch {
      return null;
    }
  }
  const urlFlag = rest.indexOf('--url');
  const dash = rest.indexOf('--');
  const head = dash >= 0 ? rest.slice(0, dash) : rest;
  const positional: string[] = [];
  for (let i = 0; i < head.length; i++) {
    if (ADD_VALUE_FLAG.test(head[i]!)) i++;
    else if (!head[i]!.startsWith('-')) positional.push(head[i]!);
  }
  const name = positional[0] ?? 'server';
  const target = dash >= 0 ? rest.slice(dash + 1) : positional.slice(1);
  if (urlFlag >= 0 && rest[urlFlag + 1]) return { name, url: rest[urlFlag + 1]! };
  if (target.length === 0) return null;
  if (/^(https?|wss?):\/\//i.test(target[0]!)) return { name, url: target[0]! };
  return { name, command: target[0]!, args: target.slice(1) };
}

async function commandHits(ctx: FileContext, model: CodeModel): Promise<Hit[]> {
  const hits: Hit[] = [];
  for (const call of model.calls) {
    const server = addedServer(call);
    if (!server) continue;
    for (const j of await judge(server, ctx))
      hits.push(callHit(ctx, call, j.rule, j.base, `${j.why} (added by ${call.callee} mcp add)`));
  }
  return hits;
}

/** Code that builds MCP server entries (to write into a config) names the key. */
const WRITES_SERVERS = /["'`](mcpServers|mcp_servers|context_servers)["'`]/;

/** Server URLs in code that builds MCP config entries: judged as if they sat in the config it writes. */
async function writtenServerHits(ctx: FileContext): Promise<Hit[]> {
  if (!WRITES_SERVERS.test(ctx.text)) return [];
  const starts = lineStarts(ctx.text);
  const lines = ctx.text.split('\n');
  const hits: Hit[] = [];
  for (const m of ctx.text.matchAll(URL_IN)) {
    const j = judgeUrl(m[0], 'entry');
    if (!j) continue;
    const line = lineAt(starts, m.index);
    hits.push(
      hitAt(
        ctx,
        { ...j, why: `${j.why}, in code that writes MCP server entries` },
        line,
        lines[line - 1] ?? m[0],
      ),
    );
  }
  return hits;
}

export const CONFIG_LANGUAGES = new Set(['json', 'yaml', 'toml']);

export const mcpDetector: Detector = {
  name: 'config-mcp',
  rules: MCP_RULES,
  appliesTo: (file) =>
    file.text !== null &&
    ((file.kind === 'data' && CONFIG_LANGUAGES.has(file.language ?? '')) ||
      codeLanguage(file.language) !== null),
  async detect(ctx) {
    if (ctx.file.kind === 'data') return dedupe(await configHits(ctx));
    const hits = await writtenServerHits(ctx);
    if (!/\bmcp\b["',\s]+add/.test(ctx.text)) return dedupe(hits);
    const model = await analyseCode(ctx.file.language ?? '', ctx.text);
    return dedupe([...hits, ...(model ? await commandHits(ctx, model) : [])]);
  },
};
