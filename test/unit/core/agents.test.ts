import { describe, expect, it } from 'vitest';
import { AGENT_HOMES, AGENT_LOADED_PATH, inAgentHome } from '../../../src/core/agents.js';
import { AGENT_CONTEXT_RE } from '../../../src/scan/code/names.js';

// One list of the agents' folders and files (rules/_data/agents.yaml) serves the scan's context-leak paths, the
// persistence rules and the task stages: an agent added there is known to all of them.

describe('the agents list', () => {
  it('holds the agents the old copies disagreed about', () => {
    for (const home of [
      '.claude',
      '.codex',
      '.config/opencode',
      '.cursor',
      '.windsurf',
      '.gemini',
      '.continue',
      '.agents',
    ])
      expect(AGENT_HOMES).toContain(home);
  });

  it.each([
    '~/.windsurf/memories/m.md',
    '/home/u/.continue/sessions/s.json',
    'repo/.aider.chat.history.md',
    '~/.claude/projects/p/t.jsonl',
    'GEMINI.md',
    // Claude Code's MCP servers and project history live in one file beside its folder.
    '/home/u/.claude.json',
  ])('reads %s as another agent’s context', (path) => {
    expect(AGENT_CONTEXT_RE.test(path)).toBe(true);
  });

  it.each(['src/claude_client.py', '~/.cache/pip/x', 'docs/agent-notes.md'])('leaves %s alone', (path) => {
    expect(AGENT_CONTEXT_RE.test(path)).toBe(false);
  });

  it('tells what an agent loads from its folder from what a skill keeps there', () => {
    expect(AGENT_LOADED_PATH.test('/home/u/.gemini/settings.json')).toBe(true);
    expect(AGENT_LOADED_PATH.test('.roo/rules/r.md')).toBe(true);
    expect(AGENT_LOADED_PATH.test('.codex/skill-index.json')).toBe(false);
    expect(inAgentHome('.config/opencode/x')).toBe(true);
    expect(inAgentHome('.config/other/x')).toBe(false);
  });
});
