import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// A real `skillaudit serve` (the built CLI in a child process) whose https://github.com/ is a local folder of bare
// repositories (--git-mirror), so audits of the fixture pages' skills clone and audit real git repositories.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(ROOT, 'bin/skillaudit.js');
const SKILLS = fileURLToPath(new URL('../../fixtures/extension/skills/', import.meta.url));

export interface SkillAuditServer {
  origin: string;
  token: string;
  /** stdout and stderr so far, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/** github.com/acme/skills as a bare repository under <mirrorRoot>/acme/skills.git, holding the fixture skills. */
export function createSkillsMirror(workDir: string): string {
  const checkout = join(workDir, 'acme-skills');
  const mirrorRoot = join(workDir, 'mirror');
  cpSync(SKILLS, join(checkout, 'skills'), { recursive: true });
  const git = (args: string[], cwd: string) =>
    execFileSync('git', ['-c', 'user.name=fixture', '-c', 'user.email=fixture@example.invalid', ...args], {
      cwd,
      stdio: 'pipe',
    });
  git(['init', '-q', '-b', 'main'], checkout);
  git(['add', '.'], checkout);
  git(['commit', '-q', '-m', 'skills'], checkout);
  mkdirSync(join(mirrorRoot, 'acme'), { recursive: true });
  git(['clone', '-q', '--bare', checkout, join(mirrorRoot, 'acme', 'skills.git')], workDir);
  return mirrorRoot;
}

export async function startSkillAuditServer(dataDir: string, mirrorRoot: string): Promise<SkillAuditServer> {
  if (!existsSync(join(ROOT, 'dist/cli/main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` before the extension tests');
  }
  const token = 'extension-test-token';
  const child: ChildProcess = spawn(
    process.execPath,
    [
      BIN,
      'serve',
      '--port',
      '0',
      '--token',
      token,
      // A public catalogue, as a marketplace runs it for the extension: lookups need no token.
      '--public',
      '--data-dir',
      dataDir,
      '--git-mirror',
      `https://github.com/=${mirrorRoot}/`,
    ],
    { cwd: dataDir, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`skillaudit serve did not start in 30 s:\n${output}`)),
      30_000,
    );
    const check = () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`skillaudit serve exited with ${code}:\n${output}`));
    });
  });
  return {
    origin,
    token,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
