// Parsers against real harness output: each fixture is the stdout of one with-skill run of the pinned
// harness (skill `hello-skill`, three scripted turns of 900 prompt tokens, 300 cached, 50 output).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseClaudeCode } from '../../../src/agents/claude-code.js';
import { parseCodex } from '../../../src/agents/codex.js';
import { parseJsonLines, textOf } from '../../../src/agents/json-lines.js';
import { parseOpencode } from '../../../src/agents/opencode.js';

const fixture = (name: string) =>
  readFileSync(new URL(`fixtures/${name}-hello-skill.jsonl`, import.meta.url), 'utf8');
const TOTAL = { input: 2700, cached: 900, output: 150 };

describe('parseClaudeCode', () => {
  const stdout = fixture('claude');

  it('reads steps, final message, run totals and the Skill call', () => {
    const run = parseClaudeCode(stdout, 'hello-skill');
    expect(run.steps.map((s) => `${s.kind}:${s.tool ?? ''}`)).toEqual([
      'message:',
      'tool_call:Skill',
      'tool_result:Skill',
      'tool_call:Bash',
      'tool_result:Bash',
      'message:',
    ]);
    expect(run.steps[1]?.input).toEqual({ skill: 'hello-skill' });
    expect(run.finalMessage).toBe('Wrote greeting.txt.');
    expect(run.tokens).toEqual(TOTAL);
    expect(run.skillLoaded).toBe(true);
    expect(run.error).toBeUndefined();
  });

  it('does not count a Skill call for another skill', () => {
    expect(parseClaudeCode(stdout, 'other-skill').skillLoaded).toBe(false);
  });

  it('falls back to per-message usage, once per message, when the result event is missing', () => {
    const withoutResult = stdout
      .split('\n')
      .filter((line) => !line.includes('"type":"result"'))
      .join('\n');
    // The first message arrives as two events (text, then tool_use) repeating the same usage; stream-json
    // carries each message's usage from its start, so output is a lower bound (1 per message) there.
    expect(parseClaudeCode(withoutResult, 'hello-skill').tokens).toEqual({
      input: 2700,
      cached: 900,
      output: 3,
    });
  });

  it('reports an error result', () => {
    const run = parseClaudeCode(
      '{"type":"result","subtype":"error_max_turns","is_error":true,"result":"","usage":{"input_tokens":5,"output_tokens":1}}',
      null,
    );
    expect(run.error).toContain('error_max_turns');
    expect(run.tokens).toEqual({ input: 5, cached: 0, output: 1 });
  });
});

describe('parseCodex', () => {
  const stdout = fixture('codex');

  it('reads commands, the agent message and turn usage; a SKILL.md read is a load', () => {
    const run = parseCodex(stdout, 'hello-skill');
    expect(run.steps.map((s) => `${s.kind}:${s.tool ?? ''}`)).toEqual([
      'tool_call:exec_command',
      'tool_result:exec_command',
      'tool_call:exec_command',
      'tool_result:exec_command',
      'message:',
    ]);
    expect(run.steps[1]?.output).toContain('name: hello-skill');
    expect(run.finalMessage).toBe('Wrote greeting.txt.');
    expect(run.tokens).toEqual(TOTAL);
    expect(run.skillLoaded).toBe(true);
    // The fallback-metadata warning is an error item but not a failure.
    expect(run.error).toBeUndefined();
  });

  it('does not count reading another skill, and reports a failed turn', () => {
    expect(parseCodex(stdout, 'other-skill').skillLoaded).toBe(false);
    expect(parseCodex('{"type":"turn.failed","error":{"message":"stream disconnected"}}', null).error).toBe(
      'codex: stream disconnected',
    );
  });
});

describe('parseOpencode', () => {
  const stdout = fixture('opencode');

  it('reads tool parts, text and step usage; a completed skill call is a load', () => {
    const run = parseOpencode(stdout, 'hello-skill');
    expect(run.steps.map((s) => `${s.kind}:${s.tool ?? ''}`)).toEqual([
      'tool_call:skill',
      'tool_result:skill',
      'tool_call:bash',
      'tool_result:bash',
      'message:',
    ]);
    expect(run.steps[1]?.output).toContain('<skill_content name="hello-skill">');
    expect(run.finalMessage).toBe('Wrote greeting.txt.');
    expect(run.tokens).toEqual(TOTAL);
    expect(run.skillLoaded).toBe(true);
  });

  it('does not count a skill call that failed', () => {
    const failed = stdout.replace(
      '"status":"completed","input":{"name":"hello-skill"}',
      '"status":"error","input":{"name":"hello-skill"}',
    );
    expect(failed).not.toBe(stdout);
    expect(parseOpencode(failed, 'hello-skill').skillLoaded).toBe(false);
  });
});

describe('json lines', () => {
  it('keeps objects and skips log lines and cut lines', () => {
    expect(parseJsonLines('warning: x\n{"a":1}\n{"b":\n  {"c":2}  \n')).toEqual([{ a: 1 }, { c: 2 }]);
  });

  it('flattens tool result content', () => {
    expect(textOf('plain')).toBe('plain');
    expect(textOf([{ type: 'text', text: 'a' }, { type: 'image' }, 'b'])).toBe('a\nb');
    expect(textOf(undefined)).toBe('');
    expect(textOf({ ok: true })).toBe('{"ok":true}');
  });
});
