const API = 'https://api.github.com';
const TIMEOUT_MS = 20_000;

interface Pull {
  number: number;
  title: string;
  user: { login: string } | null;
  labels: { name: string }[];
  merged_at: string | null;
}

const [repo, tag] = process.argv.slice(2);
if (!repo || !/^[\w.-]+\/[\w.-]+$/.test(repo) || !tag || !/^[\w.+-]+$/.test(tag)) {
  console.error('usage: draft.ts <owner>/<repo> <tag>');
  process.exit(2);
}
const token = process.env.GITHUB_TOKEN;
if (!token) {
  console.error('GITHUB_TOKEN is not set');
  process.exit(2);
}

async function github<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${API}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`GitHub ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

function section(pull: Pull): string {
  const names = pull.labels.map((l) => l.name);
  if (names.includes('feature') || names.includes('enhancement')) return 'Features';
  if (names.includes('bug')) return 'Fixes';
  if (names.includes('docs')) return 'Documentation';
  return 'Other';
}

async function main(): Promise<void> {
  const latest = await github<{ published_at: string } | null>(`/repos/${repo}/releases/latest`).catch((err: Error) => {
    console.error(`no previous release found (${err.message}); including the last 100 merged pull requests`);
    return null;
  });
  const since = latest ? Date.parse(latest.published_at) : 0;
  const pulls = await github<Pull[]>(`/repos/${repo}/pulls?state=closed&sort=updated&direction=desc&per_page=100`);
  const merged = pulls.filter((p) => p.merged_at && Date.parse(p.merged_at) > since);
  const groups = new Map<string, string[]>();
  for (const p of merged) {
    const list = groups.get(section(p)) ?? [];
    list.push(`- ${p.title} (#${p.number}) by @${p.user?.login ?? 'ghost'}`);
    groups.set(section(p), list);
  }
  const body = ['Features', 'Fixes', 'Documentation', 'Other']
    .filter((s) => groups.has(s))
    .map((s) => `## ${s}\n\n${groups.get(s)!.join('\n')}`)
    .join('\n\n');
  const release = await github<{ html_url: string }>(`/repos/${repo}/releases`, {
    method: 'POST',
    body: JSON.stringify({ tag_name: tag, name: tag, body, draft: true }),
  });
  console.log(`draft created: ${release.html_url} (${merged.length} pull requests)`);
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
