import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILTIN_RULES_DIR } from '../../../src/core/knowledge.js';
import { parseYamlText, writeYamlSnapshot, YamlSnapshot } from '../../../src/core/yaml-snapshot.js';

const temps: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'yaml-snapshot-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.yaml'))
    .map((e) => join(e.parentPath, e.name));
}

describe('the built-in rules snapshot', () => {
  it('gives every built-in rule file the value YAML parsing gives it', () => {
    const out = join(tempDir(), 'snapshot.json');
    const { stored } = writeYamlSnapshot(BUILTIN_RULES_DIR, out);
    const files = yamlFilesUnder(BUILTIN_RULES_DIR);
    expect(stored).toBe(files.length);
    const snapshot = YamlSnapshot.load(out, BUILTIN_RULES_DIR);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(snapshot.valueOf(file, text), file).toEqual(parseYamlText(text));
    }
  });

  it('parses a file again once its text differs from the one snapshotted', () => {
    const rules = tempDir();
    mkdirSync(join(rules, 'r1'));
    const file = join(rules, 'r1', 'rule.yaml');
    writeFileSync(file, 'id: r1\nseverity: high\n');
    const out = join(tempDir(), 'snapshot.json');
    writeYamlSnapshot(rules, out);
    const snapshot = YamlSnapshot.load(out, rules);
    expect(snapshot.valueOf(file, 'id: r1\nseverity: high\n')).toEqual({ id: 'r1', severity: 'high' });
    expect(snapshot.valueOf(file, 'id: r1\nseverity: low\n')).toBeUndefined();
    // Same text, another folder's file: only the rules folder it was made for.
    expect(snapshot.valueOf(join(tempDir(), 'r1', 'rule.yaml'), 'id: r1\nseverity: high\n')).toBeUndefined();
  });

  it('hands out a fresh value each time, so a caller that changes it changes no other', () => {
    const rules = tempDir();
    const file = join(rules, 'list.yaml');
    writeFileSync(file, 'items: [a, b]\n');
    const out = join(tempDir(), 'snapshot.json');
    writeYamlSnapshot(rules, out);
    const snapshot = YamlSnapshot.load(out, rules);
    const first = snapshot.valueOf(file, 'items: [a, b]\n') as { items: string[] };
    first.items.push('c');
    expect(snapshot.valueOf(file, 'items: [a, b]\n')).toEqual({ items: ['a', 'b'] });
  });

  it('leaves out what JSON cannot carry and what is not YAML, and works without a snapshot', () => {
    const rules = tempDir();
    writeFileSync(join(rules, 'inf.yaml'), 'limit: .inf\n');
    writeFileSync(join(rules, 'bad.yaml'), 'a: [unclosed\n');
    writeFileSync(join(rules, 'ok.yaml'), 'a: 1\n');
    const out = join(tempDir(), 'snapshot.json');
    expect(writeYamlSnapshot(rules, out)).toEqual({ stored: 1, left: 2 });
    const snapshot = YamlSnapshot.load(out, rules);
    expect(snapshot.valueOf(join(rules, 'inf.yaml'), 'limit: .inf\n')).toBeUndefined();
    expect(snapshot.valueOf(join(rules, 'ok.yaml'), 'a: 1\n')).toEqual({ a: 1 });
    const none = YamlSnapshot.load(join(rules, 'missing.json'), rules);
    expect(none.valueOf(join(rules, 'ok.yaml'), 'a: 1\n')).toBeUndefined();
    writeFileSync(join(rules, 'garbled.json'), '{not json');
    const garbled = YamlSnapshot.load(join(rules, 'garbled.json'), rules);
    expect(garbled.valueOf(join(rules, 'ok.yaml'), 'a: 1\n')).toBeUndefined();
  });
});
