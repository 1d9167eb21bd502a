import type { SeedFile } from '../sandbox/types.js';
import { type EarlierCommit, projectGitSeedFiles } from './project-git.js';

// The project the agent works in. Agents run a skill's commands from the project's root, where the files a
// script reads by relative name live: `.env` (a canary, planted by the sandbox), the agent's instruction and
// memory files (CLAUDE.md, AGENTS.md, and OpenClaw's SOUL.md and MEMORY.md), a README and some code. A stealer
// that reads `SOUL.md` before it sends `.env` dies on the first missing file in an empty workspace; here it
// reaches its send. Plain, plausible content: nothing in these files is a secret or a canary. (`.env` is the
// sandbox's canary, planted beside them.)

const README =
  '# acme-dashboard\n\nInternal dashboard for order metrics.\n\n## Develop\n\n    npm install\n    npm run dev\n';

const FILES: Record<string, string> = {
  'README.md': `${README}\n## Test\n\n    npm test\n`,
  'CLAUDE.md':
    '# Project notes for Claude\n\n- TypeScript, strict. Run `npm test` before committing.\n- Never commit `.env`.\n',
  'AGENTS.md': '# Agent instructions\n\nFollow CLAUDE.md. Keep changes small and tested.\n',
  'SOUL.md': '# Soul\n\nYou are a careful, helpful assistant for the acme team.\n',
  'MEMORY.md': '# Memory\n\n- 2026-11-28: the user prefers short answers.\n',
  'package.json':
    '{\n  "name": "acme-dashboard",\n  "version": "0.4.2",\n  "private": true,\n  "scripts": { "dev": "vite", "test": "vitest run" }\n}\n',
  'src/index.ts': "export const title = 'acme-dashboard';\n",
  '.gitignore': 'node_modules/\n.env\ndist/\n',
};

// The developer's home around the project: who they are to git, a shell history and the SSH hosts they use, as on
// a machine in use (code that stays dormant in a fresh home, or stops at "no ~/.ssh/config", meets one that is
// lived in). The SSH key itself is the sandbox's canary.
const HOME_FILES: Record<string, string> = {
  '~/.ssh/config':
    'Host github.com\n  User git\n  IdentityFile ~/.ssh/id_rsa\n\nHost staging\n  HostName 10.20.0.15\n  User deploy\n  IdentityFile ~/.ssh/id_rsa\n',
  '~/.ssh/known_hosts':
    'github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n10.20.0.15 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIH8zq1Yk2a5d0vW3oR7cT9nLxP4sQ6eJmB1uK0fG2hDc\n',
  '~/.gitconfig':
    '[user]\n\tname = Dana Reyes\n\temail = dana@acme-dashboard.dev\n[init]\n\tdefaultBranch = main\n',
  '~/.bash_history':
    'cd ~/work\ngit status\nnpm install\nnpm run dev\ngit add README.md\nnpm test\ngit log --oneline -5\n',
};

// The commits before the last one: the first release, tagged, and a fix after it, so `git log v0.4.1..HEAD` and a
// changelog since the last tag have something to read.
const HISTORY: EarlierCommit[] = [
  {
    message: 'chore: scaffold the dashboard',
    files: {
      'README.md': README,
      '.gitignore': FILES['.gitignore']!,
      'package.json': FILES['package.json']!,
    },
    tag: 'v0.4.1',
  },
  {
    message: 'fix: round order totals to cents',
    files: {
      'README.md': README,
      '.gitignore': FILES['.gitignore']!,
      'package.json': FILES['package.json']!,
      'src/index.ts': "export const title = 'dashboard';\n",
    },
  },
];

/** The project's files (a git repository with one staged edit, README.md's Test section) and the home's. */
export function projectSeedFiles(): SeedFile[] {
  return [
    ...Object.entries(FILES).map(([path, content]) => ({ path, content })),
    ...projectGitSeedFiles(
      { ...FILES, 'README.md': README },
      { 'README.md': FILES['README.md']! },
      'feat: add order metrics panel',
      HISTORY,
    ),
    ...Object.entries(HOME_FILES).map(([path, content]) => ({ path, content })),
  ];
}

/** Whether `path`, named relative to the project's root, is there: a project file, a folder of them, or `.env`. */
export function inProjectRoot(path: string): boolean {
  const rel = path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  if (rel === '.env') return true;
  return Object.keys(FILES).some((f) => f === rel || f.startsWith(`${rel}/`));
}
