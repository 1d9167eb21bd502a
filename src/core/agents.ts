import { z } from 'zod';
import { escapeRegExp } from '../util/regexp.js';
import { ruleData } from './knowledge.js';

// The coding agents' own folders and files (rules/_data/agents.yaml, with its provenance): the one list the scan
// (context leakage, persistence), detonation (persistence at run time) and the task stages (where no
// model-written file may land) read, as expressions built here.

const agentSchema = z.strictObject({
  homes: z.array(z.string()),
  instructions: z.array(z.string()),
  history: z.array(z.string()),
  mcp: z.array(z.string()),
});

const AGENTS = ruleData('agents', z.strictObject({ agents: z.record(z.string(), agentSchema) })).agents;
const every = (key: keyof z.infer<typeof agentSchema>) => Object.values(AGENTS).flatMap((a) => a[key]);

/** Folders agents own, relative to home or a project root (`.claude`, `.config/opencode`). */
export const AGENT_HOMES: readonly string[] = every('homes');
/** Files an agent reads into every session by name (CLAUDE.md, AGENTS.md, .cursorrules). */
export const AGENT_INSTRUCTION_FILES: readonly string[] = every('instructions');
/** MCP server lists, relative to home or a project root. */
export const AGENT_MCP_CONFIGS: readonly string[] = every('mcp');

/** A path written with `/` as an expression that also takes Windows separators. */
const anySeparator = (path: string) => escapeRegExp(path).replaceAll('/', '[/\\\\]');
const alternatives = (items: readonly string[], map: (s: string) => string) => items.map(map).join('|');

/** Source of an expression for any agent folder (followed by a separator or the end), or file of an agent's. */
export const AGENT_CONTEXT_SOURCE = [
  alternatives(AGENT_HOMES, (h) => `${escapeRegExp(h)}(?:\\/|$)`),
  alternatives([...AGENT_INSTRUCTION_FILES, ...every('history'), ...AGENT_MCP_CONFIGS], escapeRegExp),
].join('|');

/** Source of an expression for an MCP server list at the end of a path. */
export const AGENT_MCP_SOURCE = alternatives(AGENT_MCP_CONFIGS, (p) => `(?:^|[/\\\\])${anySeparator(p)}$`);

/** Source of an expression for an instruction file at the end of a path. */
export const AGENT_INSTRUCTION_SOURCE = `(?:^|[/\\\\])(?:${alternatives(AGENT_INSTRUCTION_FILES, escapeRegExp)})$`;

/**
 * What an agent loads from its own folder by itself: instructions, settings and hooks, MCP servers, skills,
 * commands, agents, prompts and rules. An index or cache a skill keeps there is data the agent never reads.
 */
const AGENT_LOADS_SOURCE =
  '(?:[^/\\\\]*\\.md|[^/\\\\]*settings[^/\\\\]*\\.json|config\\.(?:toml|json|ya?ml)|[^/\\\\]*mcp[^/\\\\]*\\.json|opencode\\.jsonc?|(?:skills?|commands?|agents?|hooks|prompts|rules|plugins?)[/\\\\].*)';

/** A path into an agent's folder that the agent loads by itself (`.claude/settings.json`, `.cursor/rules/x`). */
export const AGENT_LOADED_PATH = new RegExp(
  `(?:^|[/\\\\])(?:${alternatives(AGENT_HOMES, anySeparator)})[/\\\\]${AGENT_LOADS_SOURCE}$`,
);

/** Whether a relative path lies in an agent's folder (`.claude/skills/x`, `.config/opencode/agent.md`). */
export function inAgentHome(relativePath: string): boolean {
  return AGENT_HOMES.some((h) => relativePath === h || relativePath.startsWith(`${h}/`));
}
