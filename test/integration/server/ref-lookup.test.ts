// One commit, one verdict: a page at a branch or tag shows the audit of the commit that ref points at now, whatever
// ref it was submitted under, and the lookup says which commit the page shows. Real HTTP, SQLite and git
// (`ls-remote` against a local bare repository standing in for https://github.com/acme/skills).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import {
  type AuditJson,
  git,
  makeMirror,
  REPO_URL,
  skillMd,
  startTestService,
  submit,
  waitFor,
} from './support.js';

let root: string;
let service: RunningService;
let first: string;
let second: string;
let atTag: AuditJson;
let atDefault: AuditJson;

interface LookupJson {
  found: boolean;
  audit?: AuditJson;
  pageCommit?: string;
}

async function lookup(page: string): Promise<LookupJson> {
  const response = await fetch(`${service.url}/api/lookup?url=${encodeURIComponent(page)}`);
  expect(response.status).toBe(200);
  return (await response.json()) as LookupJson;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'skillaudit-ref-lookup-'));
  const mirror = makeMirror(root, { 'skills/notes/SKILL.md': skillMd('notes') });
  const work = join(root, 'work');
  const bare = join(mirror, 'acme', 'skills.git');
  first = git(work, 'rev-parse', 'HEAD').toString().trim();
  // v1 (an annotated tag) and the release branch stay at the first commit; main moves on.
  git(work, 'tag', '-a', 'v1', '-m', 'first release');
  git(work, 'branch', 'release');
  writeFileSync(
    join(work, 'skills', 'notes', 'SKILL.md'),
    skillMd('notes', '# Use\n\nAsk the agent twice.\n'),
  );
  git(work, 'commit', '-q', '-am', 'second');
  second = git(work, 'rev-parse', 'HEAD').toString().trim();
  git(work, 'push', '-q', bare, 'main', 'release', 'v1');
  service = await startTestService(join(root, 'data'), {
    public: true,
    policy: {
      allowedHosts: new Set(['github.com']),
      allowPrivate: false,
      mirrors: [{ from: 'https://github.com/', to: `file://${mirror}/` }],
    },
  });
  const tag = await submit(service.url, { source: `${REPO_URL}@v1#skills/notes` });
  atTag = await waitFor(service.url, tag.json.id as string);
  const latest = await submit(service.url, { source: `${REPO_URL}#skills/notes` });
  atDefault = await waitFor(service.url, latest.json.id as string);
}, 120_000);

afterAll(async () => {
  await service?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('GET /api/lookup at a branch or tag', () => {
  it('audited the tag at the first commit and the default branch at the second', () => {
    expect(atTag).toMatchObject({ status: 'done', commit: first });
    expect(atDefault).toMatchObject({ status: 'done', commit: second });
  });

  it('answers a branch page with the audit of the commit the branch points at, submitted under a tag', async () => {
    // No audit was submitted at "release": without resolving it the answer was the default branch's audit,
    // of a version the page does not show.
    const found = await lookup(`${REPO_URL}/tree/release/skills/notes`);
    expect(found).toMatchObject({ found: true, pageCommit: first, audit: { id: atTag.id, commit: first } });
  });

  it('answers the default branch and the tag with their own commits', async () => {
    expect(await lookup(`${REPO_URL}/tree/main/skills/notes`)).toMatchObject({
      pageCommit: second,
      audit: { id: atDefault.id },
    });
    expect(await lookup(`${REPO_URL}/blob/v1/skills/notes/SKILL.md`)).toMatchObject({
      pageCommit: first,
      audit: { id: atTag.id },
    });
    expect(await lookup(`https://skills.sh/acme/skills/notes`)).toMatchObject({
      pageCommit: second,
      audit: { id: atDefault.id },
    });
  });

  it('a page at a hash needs no resolving; an unknown ref falls back to the default branch, unresolved', async () => {
    const atHash = await lookup(`${REPO_URL}/tree/${first.slice(0, 7)}/skills/notes`);
    expect(atHash).toMatchObject({ found: true, audit: { id: atTag.id } });
    expect(atHash.pageCommit).toBeUndefined();
    const unknown = await lookup(`${REPO_URL}/tree/no-such-branch/skills/notes`);
    expect(unknown).toMatchObject({ found: true, audit: { id: atDefault.id } });
    expect(unknown.pageCommit).toBeUndefined();
  });
});
