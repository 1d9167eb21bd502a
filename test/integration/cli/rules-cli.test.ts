import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanJson } from '../../../src/report/scan-json.js';
import { REPO_ROOT, requireBuild, runBuilt } from '../../support/built-cli.js';

// `skillaudit rules list|show|test` and `scan --rules DIR` as users run them: the built bin, which reads the
// built-in rules from the package's rules/ folder, and a rule pack of a team's own (test/fixtures/rule-pack).

const pack = join(REPO_ROOT, 'test', 'fixtures', 'rule-pack');
let work: string;
const run = (args: string[]) => runBuilt(args, work);

beforeAll(() => {
  requireBuild();
  work = mkdtempSync(join(tmpdir(), 'skillaudit-rules-cli-'));
  // A skill the team's rule is about: it tells the agent to write to the production database.
  mkdirSync(join(work, 'release-helper'));
  mkdirSync(join(work, 'release-helper', 'scripts'));
  writeFileSync(
    join(work, 'release-helper', 'scripts', 'notify.py'),
    'import requests\n\nrequests.post("https://api.mixpanel.com/track", json={"event": "release"}, timeout=5)\n',
  );
  writeFileSync(
    join(work, 'release-helper', 'SKILL.md'),
    '---\nname: release-helper\ndescription: Prepares the weekly release.\n---\n\nAfter tagging, delete from the production database every row of the trial_plans table.\n',
  );
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('skillaudit rules', () => {
  it('lists the built-in rules, and a pack of your own with --rules', async () => {
    const builtin = await run(['rules', 'list', '--format', 'json']);
    expect(builtin.status).toBe(0);
    const ids = (JSON.parse(builtin.stdout) as { id: string; match: object }[]).map((r) => r.id);
    expect(ids).toContain('code.env-harvest');
    expect(ids).toContain('md.instruction-override');
    expect(ids).not.toContain('acme.production-write');
    const withPack = await run(['rules', 'list', '--rules', pack]);
    expect(withPack.status).toBe(0);
    expect(withPack.stdout).toMatch(/^acme\.production-write\s+P4\s+medium\s+declarative \(prose phrases\)/m);
    expect(withPack.stdout).toMatch(/^acme\.analytics-upload\s+E1\s+\w+\s+declarative \(code calls\)/m);
  });

  it('shows one rule with its data and folder; an unknown id is an error', async () => {
    const shown = await run(['rules', 'show', 'md.instruction-override', '--format', 'json']);
    expect(shown.status).toBe(0);
    const rule = JSON.parse(shown.stdout) as { pattern: string; folder: string; fixtures: string[] };
    expect(rule.pattern).toBe('P1');
    expect(rule.folder).toMatch(/rules[\\/]md\.instruction-override$/);
    expect(rule.fixtures.length).toBeGreaterThan(0);
    const text = await run(['rules', 'show', 'code.embedded.env-harvest']);
    expect(text.stdout).toContain('Embedded script:');
    expect(text.stdout).toContain('embedded: code.embedded.env-harvest');
    const missing = await run(['rules', 'show', 'md.no-such-rule']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no rule md.no-such-rule');
  });

  it('tests a pack: 0 when its fixtures hold, 1 with the line that does not', async () => {
    const good = await run(['rules', 'test', pack]);
    expect(good.status).toBe(0);
    expect(good.stdout).toContain('2 of 2 rule folders pass');
    // The same rule with a fixture that claims a finding the rule cannot make.
    const broken = join(work, 'broken-pack');
    cpSync(pack, broken, { recursive: true });
    const fixture = join(broken, 'acme.production-write', 'fixtures', 'release-helper.md');
    writeFileSync(
      fixture,
      `${readFileSync(fixture, 'utf8')}\n<!-- skillaudit-test: ruleid acme.production-write -->\nRead the production database schema before planning.\n`,
    );
    const failed = await run(['rules', 'test', broken, '--format', 'json']);
    expect(failed.status).toBe(1);
    const checks = JSON.parse(failed.stdout) as {
      rule: string;
      passed: boolean;
      fixtures: { missing: { line: number }[] }[];
    }[];
    expect(checks.find((c) => c.rule === 'acme.analytics-upload')?.passed).toBe(true);
    const check = checks.find((c) => c.rule === 'acme.production-write');
    expect(check!.passed).toBe(false);
    expect(check!.fixtures[0]!.missing.map((m) => m.line)).toEqual([18]);
  });
});

describe('skillaudit scan --rules', () => {
  it("reports a pack's rule beside the built-in ones, in JSON and SARIF", async () => {
    const json = await run(['scan', join(work, 'release-helper'), '--rules', pack, '--format', 'json', '-q']);
    const report = JSON.parse(json.stdout) as ScanJson;
    const finding = report.skills[0]!.findings.find((f) => f.rule === 'acme.production-write');
    expect(finding?.line).toBe(6);
    const code = report.skills[0]!.findings.find((f) => f.rule === 'acme.analytics-upload');
    expect([code?.file, code?.line]).toEqual(['scripts/notify.py', 3]);
    const plain = await run(['scan', join(work, 'release-helper'), '--format', 'json', '-q']);
    expect((JSON.parse(plain.stdout) as ScanJson).skills[0]!.findings.map((f) => f.rule)).not.toContain(
      'acme.production-write',
    );
    const sarif = await run([
      'scan',
      join(work, 'release-helper'),
      '--rules',
      pack,
      '--format',
      'sarif',
      '-q',
    ]);
    expect(sarif.stdout).toContain('"id": "acme.production-write"');
  });

  it('refuses a pack that is not valid, naming the file and the field (exit 2)', async () => {
    const bad = join(work, 'bad-pack', 'acme.bad-rule');
    mkdirSync(bad, { recursive: true });
    writeFileSync(
      join(bad, 'rule.yaml'),
      'id: acme.bad-rule\npattern: P1\nmessage: m\nhelp: h\nmatch:\n  prose:\n    variants:\n      - all: ["/(unclosed/i"]\n        base: 0.5\n        why: w\n',
    );
    const r = await run(['scan', join(work, 'release-helper'), '--rules', join(work, 'bad-pack'), '-q']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(join('acme.bad-rule', 'rule.yaml'));
    expect(r.stderr).toContain('match.prose.variants.0.all.0');
    // A pack may not name code of ours to run: its rules say what they match.
    writeFileSync(
      join(bad, 'rule.yaml'),
      'id: acme.bad-rule\npattern: E2\nmessage: m\nhelp: h\ndetect: code-exfiltration\n',
    );
    const detect = await run(['rules', 'list', '--rules', join(work, 'bad-pack')]);
    expect(detect.status).toBe(2);
    expect(detect.stderr).toContain('`detect` names a built-in detector');
  });
});

describe('skillaudit scan --indicators', () => {
  it("makes a skill that posts to a host on the team's own list risky, and refuses a list that is not valid", async () => {
    // release-helper's script posts to api.mixpanel.com: a host nobody here calls bad until the team's list does.
    const list = join(work, 'our-indicators.json');
    writeFileSync(
      list,
      JSON.stringify({
        indicators: [
          {
            type: 'domain',
            value: 'mixpanel.com',
            campaign: 'exercise',
            source: 'our incident 12',
            published: '2026-12-05',
          },
        ],
      }),
    );
    const plain = await run(['scan', join(work, 'release-helper'), '--format', 'json', '-q', '--no-cache']);
    const before = (JSON.parse(plain.stdout) as ScanJson).skills[0]!;
    expect(before.findings.map((f) => f.rule)).not.toContain('intel.known-indicator');
    const listed = await run([
      'scan',
      join(work, 'release-helper'),
      '--indicators',
      list,
      '--format',
      'json',
      '-q',
      '--no-cache',
    ]);
    const after = (JSON.parse(listed.stdout) as ScanJson).skills[0]!;
    const hit = after.findings.find((f) => f.rule === 'intel.known-indicator');
    expect([hit?.file, hit?.line]).toEqual(['scripts/notify.py', 3]);
    expect(after.status).toBe('risky');
    expect(listed.status).toBe(1);

    // The full audit takes the same list (the static stage is the same scan).
    const audited = await run([
      'audit',
      join(work, 'release-helper'),
      '--indicators',
      list,
      '--no-detonate',
      '--format',
      'json',
      '-q',
      '--fail-on',
      'never',
      '--out',
      join(work, 'runs'),
    ]);
    expect(audited.status).toBe(0);
    const report = JSON.parse(audited.stdout) as {
      safety: { status: string; findings: { rule: string }[] };
    };
    expect(report.safety.findings.map((f) => f.rule)).toContain('intel.known-indicator');
    expect(report.safety.status).toBe('risky');

    writeFileSync(list, '{"indicators": [{"type": "ip", "value": "mixpanel.com"}]}');
    const bad = await run(['scan', join(work, 'release-helper'), '--indicators', list, '-q']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('our-indicators.json');
    expect(bad.stdout).toBe('');
  });
});
