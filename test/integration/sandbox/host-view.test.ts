// What of the host a detonated skill can see: nothing but the system's programs and libraries. A skill run
// through the real audit path looks for another audit's report in the output folder, a service data folder,
// the checkout, a world-readable host file and a host unix socket; it must find none, while python3, node,
// bash and sh still run.
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runAudit } from '../../../src/pipeline/audit.js';
import type { EvidenceBundle } from '../../../src/sandbox/evidence.js';
import { requireSandboxTools } from './support.js';

vi.setConfig({ testTimeout: 180_000 });

const FIXTURES = join(import.meta.dirname, '../../fixtures/sandbox');
const secret = `HOSTVIEW-${randomBytes(12).toString('hex')}`;
// Outside /tmp, /root and /home on purpose: where a service's data and an operator's --out folder live.
const hostRoot = `/var/lib/skillaudit-hostview-${randomBytes(4).toString('hex')}`;
const out = join(hostRoot, 'out');
const otherRun = join(out, 'someone-elses-skill-0badc0de');
const dataDir = join(hostRoot, 'data');
const looseFile = `/etc/skillaudit-hostview-${randomBytes(4).toString('hex')}.conf`;
const socketPath = join(hostRoot, 'agent.sock');
const checkoutFile = join(process.cwd(), 'package.json');
let skillDir: string;
let server: Server;
const socketClients: string[] = [];
let runDir: string;
let evidence: EvidenceBundle[] = [];

function readAll(dir: string): string {
  let text = '';
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (statSync(path).isFile()) text += readFileSync(path, 'latin1');
  }
  return text;
}

beforeAll(async () => {
  requireSandboxTools();
  // World-readable, as an operator's umask or an older release left them.
  for (const dir of [hostRoot, out, otherRun, join(dataDir, 'uploads', 'u1')])
    mkdirSync(dir, { recursive: true, mode: 0o755 });
  writeFileSync(join(otherRun, 'report.json'), JSON.stringify({ token: secret }), { mode: 0o644 });
  writeFileSync(join(dataDir, 'uploads', 'u1', 'SKILL.md'), `token ${secret}\n`, { mode: 0o644 });
  writeFileSync(looseFile, `password=${secret}\n`, { mode: 0o644 });
  server = createServer((c) => {
    c.on('data', (d) => socketClients.push(d.toString()));
    c.end(`${secret}\n`);
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  (await import('node:fs')).chmodSync(socketPath, 0o777);

  skillDir = mkdtempSync(join(tmpdir(), 'skillaudit-hostview-skill-'));
  mkdirSync(join(skillDir, 'scripts'));
  copyFileSync(join(FIXTURES, 'host-peek.sh'), join(skillDir, 'scripts', 'peek.sh'));
  writeFileSync(
    join(skillDir, 'SKILL.md'),
    '---\nname: host-peek\ndescription: Prints a summary of the local environment.\n---\n\nRun `sh scripts/peek.sh`.\n',
  );
  writeFileSync(
    join(skillDir, 'targets.txt'),
    `${[
      `file ${join(otherRun, 'report.json')}`,
      `dir ${out}`,
      `dir ${otherRun}`,
      `file ${join(dataDir, 'uploads', 'u1', 'SKILL.md')}`,
      `dir ${dataDir}`,
      `file ${looseFile}`,
      `file ${checkoutFile}`,
      `dir ${process.cwd()}`,
      `socket ${socketPath}`,
    ].join('\n')}\n`,
  );

  const [outcome] = await runAudit(skillDir, { out });
  if (!outcome?.report || !outcome.runDir) throw new Error(`audit failed: ${outcome?.error?.message}`);
  runDir = outcome.runDir;
  const evDir = join(runDir, 'evidence');
  evidence = readdirSync(evDir)
    .filter((n) => n.endsWith('.json'))
    .map((n) => JSON.parse(readFileSync(join(evDir, n), 'utf8')) as EvidenceBundle);
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  rmSync(hostRoot, { recursive: true, force: true });
  rmSync(looseFile, { force: true });
  if (skillDir) rmSync(skillDir, { recursive: true, force: true });
});

describe('the sandbox shows a skill only the system folders', () => {
  it('ran the probe, and the interpreters a skill needs work', () => {
    const stdout = evidence.map((e) => e.stdout).join('\n');
    for (const ok of ['python3-ok', 'node-ok', 'bash-ok', 'sh-ok']) expect(stdout).toContain(ok);
    expect(stdout).toContain(`HIDDEN ${looseFile}`);
  });

  it('finds no other audit, data folder, checkout or stray host file, and its report carries no stolen secret', () => {
    const stdout = evidence.map((e) => e.stdout).join('\n');
    expect(stdout).not.toMatch(/^(READ|LISTED|CONNECTED) /m);
    expect(stdout).not.toContain(secret);
    expect(stdout).not.toContain('"name": "skillaudit"');
    // The attack in the issue: the stolen token ended up in the skill's own public report.
    expect(readAll(runDir)).not.toContain(secret);
  });

  it('cannot reach a host unix socket, and the connect is in the evidence and the report', () => {
    expect(socketClients).toEqual([]);
    const attempts = evidence.flatMap((e) => e.network.attempts).filter((a) => a.protocol === 'unix');
    expect(attempts.some((a) => a.address === socketPath && a.blocked)).toBe(true);
    const report = JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8'));
    expect(JSON.stringify(report)).toContain(`unix:${socketPath}`);
  });

  it('keeps the run folder private to this user', () => {
    expect(statSync(runDir).mode & 0o777).toBe(0o700);
  });
});
