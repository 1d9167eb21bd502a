// P4 in code: a script that makes itself (or its author's wishes) outlive the session by editing
// configuration that belongs to the user or to other tools: global git settings that run code or store
// credentials, shell start-up files, and other agents' instructions or settings.
import { AGENT_INSTRUCTION_SOURCE, AGENT_LOADED_PATH, AGENT_MCP_SOURCE } from '../../core/agents.js';
import { UNNAMED_HOST_FLOW } from '../../score/index.js';
import { callHit } from '../code/hits.js';
import type { Call, CodeModel } from '../code/model.js';
import { WRITE_CALL_RE } from '../code/names.js';
import { candidates } from '../code/values.js';
import { codeDetector } from '../engine/code-detector.js';
import { rulesDetectedBy } from '../engine/rule-pack.js';
import type { FileContext, Hit } from '../rule.js';
import { hostOfUrl, unnamedHost } from './skill-hosts.js';

export const PERSISTENCE_RULES = rulesDetectedBy('code-persistence');

const RULE = 'code.persistent-config-edit';

/** Global git keys that run programs, redirect fetches or keep credentials for every repository. */
const GIT_GLOBAL_KEY =
  /^(core\.(hookspath|sshcommand|fsmonitor|pager|editor|askpass)|credential\.helper|include\.path|includeif\..*|url\..*\.insteadof|http\.proxy|https\.proxy|alias\..+|init\.templatedir)$/i;

/**
 * Shell and PowerShell start-up files; agents' instruction files, what an agent loads from its own folder and
 * its MCP server lists (an entry added there starts a server in every later session) (rules/_data/agents.yaml).
 */
const PERSISTENT_FILE = new RegExp(
  String.raw`(^|[/\\])(\.bashrc|\.bash_profile|\.bash_login|\.profile|\.zshrc|\.zprofile|\.zshenv|config\.fish|Microsoft\.PowerShell_profile\.ps1)$|^\$profile$|` +
    [AGENT_INSTRUCTION_SOURCE, AGENT_LOADED_PATH.source, AGENT_MCP_SOURCE].join('|'),
  'i',
);

function gitGlobalKey(c: Call): string | null {
  if (c.kind !== 'command' || c.callee !== 'git') return null;
  const words = c.args.map((a) => a.str ?? '');
  const at = words.indexOf('config');
  if (at < 0 || !words.some((w) => w === '--global' || w === '--system')) return null;
  const key = words.slice(at + 1).find((w) => !w.startsWith('-'));
  return key && GIT_GLOBAL_KEY.test(key) ? key : null;
}

/** The persistent file a call writes or appends to, if any. */
export function persistentTarget(c: Call): string | null {
  const paths: string[] = [];
  if (c.kind === 'command') {
    if (c.redirectTo) paths.push(c.redirectTo);
    if (/^(tee|add-content|set-content|out-file|cp|mv|ln)$/.test(c.callee)) {
      const files = c.args.filter((a) => !(a.str ?? '-').startsWith('-'));
      const target = /^(cp|mv|ln)$/.test(c.callee) ? files.slice(-1) : files;
      paths.push(...target.flatMap((a) => [...candidates(a), a.text]));
    }
  } else {
    const mode = c.args[1]?.str ?? c.named.get('mode')?.str ?? '';
    const opensForWrite = /(^|\.)open$/.test(c.callee) && /[wa]/.test(mode);
    if (opensForWrite || WRITE_CALL_RE.test(c.callee) || /(^|\.)appendFile(Sync)?$/.test(c.callee)) {
      const target = c.receiver && /write_text|write_bytes/.test(c.callee) ? c.receiver : c.args[0];
      if (target) paths.push(...candidates(target), target.text);
    }
  }
  return paths.find((p) => PERSISTENT_FILE.test(p.replace(/["']/g, ''))) ?? null;
}

const MCP_LIST = new RegExp(AGENT_MCP_SOURCE, 'i');
const MCP_ENTRY = /\bmcp[_-]?servers\b|\bmcpServers\b|\bmcp\s+add\b|["']mcp["']/i;
const URL_LITERAL = /\bhttps?:\/\/[^\s"'`)<>\]]+/gi;
const AGENT_CLI = /^(?:claude|codex|gemini|opencode|cursor-agent|amp|qwen)$/;

/** `claude mcp add …`: an agent's own command that writes a server into its configuration. */
function mcpAddCommand(c: Call): boolean {
  return (
    c.kind === 'command' && AGENT_CLI.test(c.callee) && c.args[0]?.str === 'mcp' && c.args[1]?.str === 'add'
  );
}

/**
 * `; <host> is <UNNAMED_HOST_FLOW>` when the script registers an MCP server and names a remote address for it
 * that the skill's documents never give: every later session then loads tools and instructions from a server
 * nobody reading the skill was told about (the decisive indicator `unnamed-mcp-server`).
 */
function unnamedServer(ctx: FileContext): string {
  if (ctx.file.kind !== 'script' || !MCP_ENTRY.test(ctx.text)) return '';
  for (const [url] of ctx.text.matchAll(URL_LITERAL)) {
    const host = hostOfUrl(url);
    if (host && unnamedHost(url, host, ctx.skill, ctx.declaredHosts))
      return `; ${host} is ${UNNAMED_HOST_FLOW}`;
  }
  return '';
}

export function persistenceHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  let server: string | undefined;
  const serverAt = () => (server ??= unnamedServer(ctx));
  for (const c of model.calls) {
    const key = gitGlobalKey(c);
    if (key)
      hits.push(
        callHit(
          ctx,
          c,
          RULE,
          0.6,
          `sets global git ${key}, which applies to every repository of the user`,
          `Changes global git setting ${key}.`,
        ),
      );
    const file = persistentTarget(c);
    if (file) {
      const remote = MCP_LIST.test(file.replace(/["']/g, '')) ? serverAt() : '';
      hits.push(
        callHit(
          ctx,
          c,
          RULE,
          remote ? 0.85 : 0.55,
          `writes ${file}, which every later shell or agent session reads${remote}`,
          `Edits ${file}, a start-up or agent configuration file.`,
        ),
      );
    } else if (mcpAddCommand(c) && serverAt()) {
      // The agent's own command for a server the skill documents is set-up, not a finding.
      hits.push(
        callHit(
          ctx,
          c,
          RULE,
          0.85,
          `registers an MCP server with ${c.callee}, which every later session starts${serverAt()}`,
          `Adds an MCP server to ${c.callee}'s configuration.`,
        ),
      );
    }
  }
  return hits;
}

export const persistenceDetector = codeDetector('code-persistence', PERSISTENCE_RULES, persistenceHits);
