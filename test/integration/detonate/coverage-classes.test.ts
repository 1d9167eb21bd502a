import { describe, expect, it, vi } from 'vitest';
import { detonateFixture } from './support.js';

// Real bubblewrap + strace + sink. Classes of malicious scripts the detonation used not to confirm, each with a
// skill that fails without its fix, and a clean look-alike where one could be confirmed by mistake.

vi.setConfig({ testTimeout: 180_000 });

const confirmedPatterns = (d: Awaited<ReturnType<typeof detonateFixture>>) =>
  d.confirmed.map((f) => f.pattern);

describe('what malicious scripts hide', () => {
  it('decoded code piped into a shell is confirmed by the commands it started', async () => {
    const d = await detonateFixture('decoded-wipe');
    const sc3 = d.confirmed.find((f) => f.pattern === 'SC3');
    expect(sc3, 'SC3 is confirmed').toBeDefined();
    expect(sc3!.verdict.evidence.join('\n')).toMatch(
      /decoded code ran: `base64 -d \| bash` started .*rm -rf/,
    );
  });

  it('sudo on the sudoers file is an escalation; an installer running sudo apt-get is not', async () => {
    const bad = await detonateFixture('sudo-sudoers');
    const pe2 = bad.confirmed.find((f) => f.pattern === 'PE2');
    expect(pe2, 'PE2 is confirmed').toBeDefined();
    expect(pe2!.verdict.evidence.join('\n')).toMatch(
      /ran sudo tee -a \/etc\/sudoers\.d\/deploy \(an account or sudo file\)/,
    );

    const clean = await detonateFixture('clean-sudo-install');
    expect(clean.confirmed).toEqual([]);
    const run = clean.runs.find((r) => r.entry.id === 'scripts/install-deps.sh');
    expect(
      run?.evidence.processes.some((p) => p.argv[0] === 'sudo'),
      'the sudo step ran',
    ).toBe(true);
    const verdicts = clean.verdicts.filter(
      (v) => clean.findings.find((f) => f.id === v.finding)?.pattern === 'PE2',
    );
    expect(verdicts.length).toBeGreaterThan(0);
    for (const v of verdicts) expect(v.kind).not.toBe('confirmed');
  });

  it('a script that reads .env by a relative name runs again from the project root and is confirmed', async () => {
    const d = await detonateFixture('dotenv-root');
    const first = d.runs.find((r) => r.entry.id === 'scripts/usage-report.js');
    expect(first?.stopped).toMatch(/missing file/);
    const again = d.runs.find((r) => r.entry.id === 'scripts/usage-report.js (from the project root)');
    expect(again, 'the retry ran').toBeDefined();
    expect(again!.canaryHits.map((h) => h.canary)).toContain('workspace-dotenv');
    expect(confirmedPatterns(d).some((p) => ['E1', 'E2'].includes(p))).toBe(true);
  });

  it("a package's postinstall hook runs as npm would, and its download-and-run is confirmed", async () => {
    const d = await detonateFixture('npm-hook');
    const hook = d.runs.find((r) => r.entry.id === 'package.json postinstall');
    expect(hook?.entry.runAs).toBe('install-hook');
    const sc2 = d.confirmed.find((f) => f.pattern === 'SC2' && f.file === 'package.json');
    expect(sc2, 'SC2 in package.json is confirmed').toBeDefined();
    expect(sc2!.verdict.evidence.join('\n')).toMatch(/second-stage marker ran/);

    const clean = await detonateFixture('clean-npm-hook');
    expect(clean.runs.map((r) => r.entry.id)).toEqual(
      expect.arrayContaining(['package.json postinstall', 'package.json prepare']),
    );
    expect(clean.confirmed).toEqual([]);
  });

  it("the database clients' password files are canaries: reading and sending them is confirmed", async () => {
    const d = await detonateFixture('db-creds');
    const run = d.runs.find((r) => r.entry.id === 'scripts/check.sh');
    expect(run?.evidence.sensitiveReads.map((r) => r.path)).toEqual(
      expect.arrayContaining([expect.stringMatching(/\.pgpass$/), expect.stringMatching(/\.my\.cnf$/)]),
    );
    expect(confirmedPatterns(d)).toEqual(expect.arrayContaining(['PE3']));
  });

  it('a home that is lived in has an SSH config: a script that needs one reaches the key it sends', async () => {
    const d = await detonateFixture('ssh-lived-in');
    const run = d.runs.find((r) => r.entry.id === 'scripts/hosts.sh');
    expect(run?.evidence.stdout).toMatch(/^staging$/m);
    expect(run?.canaryHits.map((h) => h.canary)).toContain('ssh-private-key');
    expect(confirmedPatterns(d)).toEqual(expect.arrayContaining(['PE3']));
  });

  it("an agent's session transcripts are canaries too: uploading them is confirmed, reading them locally is not", async () => {
    const bad = await detonateFixture('session-upload');
    const run = bad.runs.find((r) => r.entry.id === 'scripts/standup.py');
    expect(run?.canaryHits.map((h) => h.canary)).toContain('agent-session-transcript');
    // Sent to the host SKILL.md names: still the user's conversations leaving.
    expect(confirmedPatterns(bad).some((p) => ['E1', 'E4'].includes(p))).toBe(true);

    const clean = await detonateFixture('clean-session-stats');
    const stats = clean.runs.find((r) => r.entry.id === 'scripts/stats.py');
    expect(stats?.evidence.stdout).toMatch(/\| -home-skill-work \| 1 \| 3 \|/);
    expect(clean.confirmed).toEqual([]);
  });

  it('a run budget smaller than the entry points goes to the flagged script first', async () => {
    const d = await detonateFixture('budget-tail', { maxRuns: 4 });
    expect(d.runs.length).toBeLessThanOrEqual(4);
    expect(d.runs.some((r) => r.entry.origin.file === 'scripts/zz_sync.py')).toBe(true);
    expect(confirmedPatterns(d)).toContain('PE3');
    expect(d.coverage.overBudget.length).toBeGreaterThan(0);
  });
});

describe('guards that wait out the sandbox', () => {
  it('a long wait before the payload is shortened, in Python, Node and the shell, and a crontab entry is seen', async () => {
    const d = await detonateFixture('delayed-drop');
    const cache = d.runs.find((r) => r.entry.id === 'scripts/warm-cache.js');
    expect(cache?.timedOut).toBe(false);
    expect(cache?.canaryHits.map((h) => h.canary)).toContain('npmrc');
    const warmup = d.runs.find((r) => r.entry.id === 'scripts/warmup.py');
    expect(warmup?.timedOut).toBe(false);
    expect(warmup?.canaryHits.map((h) => h.canary)).toContain('aws-credentials-file');
    const schedule = d.runs.find((r) => r.entry.id === 'scripts/schedule.sh');
    expect(schedule?.shimsUsed).toEqual(expect.arrayContaining(['sleep 600']));
    const p4 = d.confirmed.find((f) => f.pattern === 'P4' && f.file === 'scripts/schedule.sh');
    expect(p4, 'the crontab entry is confirmed').toBeDefined();
    expect([p4!.evidence, ...p4!.verdict.evidence].join('\n')).toMatch(/\.local\/share\/cron\/crontab/);
    expect(confirmedPatterns(d)).toEqual(expect.arrayContaining(['PE3', 'E1']));
  });
});

describe('keys and settings a script will not run without', () => {
  it('a key guard passes on a planted canary key, and what the script then sends is confirmed', async () => {
    const d = await detonateFixture('key-guard');
    const run = d.runs.find((r) => r.entry.id === 'scripts/publish.sh');
    // The script names its key and project; it stopped at "LINEAR_API_KEY is not set" without them.
    expect(run?.evidence.stderr).not.toMatch(/is not set|unbound variable/);
    expect(run?.canaryHits.map((h) => h.canary)).toEqual(expect.arrayContaining(['LINEAR_API_KEY']));
    expect(run?.canaryHits.some((h) => h.where.includes('193.29.57.14'))).toBe(true);
    // What the sandbox gave the script is on the record.
    expect(d.coverage.provided).toEqual(
      expect.arrayContaining(['environment LINEAR_API_KEY (a canary key)', 'environment LINEAR_PROJECT_ID']),
    );
    expect(confirmedPatterns(d).some((p) => ['E1', 'E2'].includes(p))).toBe(true);
  });
  it('a clean script sending its own key to the vendor the key is named for confirms nothing, and says so', async () => {
    const d = await detonateFixture('clean-vendor-key');
    const run = d.runs.find((r) => r.entry.id.startsWith('scripts/translate.py') && r.exitCode === 0);
    expect(run, 'a run reached the API call and wrote the translation').toBeDefined();
    expect(run!.evidence.network.sink.some((r) => r.host === 'api-free.deepl.com')).toBe(true);
    expect(run!.canaryHits).toEqual([]);
    expect(run!.expectedCredentialUse.join('\n')).toMatch(
      /DEEPL_AUTH_KEY sent to .*api-free\.deepl\.com.*own key/,
    );
    expect(d.confirmed).toEqual([]);
  });
});

describe('inputs and installs a command needs before it reaches its code', () => {
  it('an input file a SKILL.md command names gets a sample of its type, so the script reads it and goes on', async () => {
    const d = await detonateFixture('named-input');
    const run = d.runs.find((r) => r.entry.id.startsWith('SKILL.md:'));
    expect(run?.evidence.stderr).not.toMatch(/No such file/);
    expect(run?.evidence.stdout).toMatch(/\| north \| \d/);
    expect(d.coverage.provided).toContain('input file sales-export.csv');
    expect(run?.canaryHits.map((h) => h.canary)).toContain('aws-credentials-file');
    expect(confirmedPatterns(d)).toEqual(expect.arrayContaining(['PE3']));
  });
  it('pip and npm installs that cannot complete offline let the script go on, and say so', async () => {
    const d = await detonateFixture('offline-install');
    const run = d.runs.find((r) => r.entry.id === 'scripts/bootstrap.sh');
    // Reported on the instruments' channel, not left in the run's stderr.
    expect(run?.instruments.installsCut).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^pip install --quiet ruff/),
        expect.stringMatching(/^npm install --no-save/),
      ]),
    );
    expect(run?.evidence.stderr).not.toMatch(/ install (pip|npm) /);
    // What the installs would have done never happened: the run can lower nothing.
    expect(run?.stopped).toMatch(/install that could not complete offline/);
    expect(d.coverage.installsCut).toEqual(
      expect.arrayContaining([expect.stringMatching(/^pip install/), expect.stringMatching(/^npm install/)]),
    );
    expect(d.coverage.headline).toMatch(/could not complete offline/);
    const sc2 = d.confirmed.find((f) => f.pattern === 'SC2' && f.file === 'scripts/bootstrap.sh');
    expect(sc2, 'the download piped into sh after the installs is confirmed').toBeDefined();
  });
  it('a source tarball from a raw address unpacks to its folder, and its configure step is confirmed', async () => {
    const d = await detonateFixture('tarball-build');
    const run = d.runs.find((r) => r.entry.id === 'scripts/build.sh');
    expect(run?.evidence.processes.some((p) => p.argv[0] === './configure')).toBe(true);
    expect(d.confirmed.some((f) => f.pattern === 'SC2' && f.file === 'scripts/build.sh')).toBe(true);
  });
  it("a setup.py's own install command runs as pip would run it, and what it sends is confirmed", async () => {
    const d = await detonateFixture('setup-hook');
    const hook = d.runs.find((r) => r.entry.id === 'setup.py install --user');
    expect(hook?.entry.runAs).toBe('install-hook');
    expect(hook?.canaryHits.map((h) => h.canary)).toContain('ssh-private-key');
    expect(d.confirmed.some((f) => f.file === 'setup.py' && ['E1', 'E2', 'PE3'].includes(f.pattern))).toBe(
      true,
    );
  });
  it('`npx tsx` in SKILL.md runs with the bundled loader instead of failing to fetch tsx', async () => {
    const d = await detonateFixture('ts-report');
    const run = d.runs.find((r) => r.entry.id.startsWith('SKILL.md:'));
    expect(run?.evidence.stderr).not.toMatch(/ENOVERSIONS|ETARGET|E404|could not determine executable/);
    expect(run?.evidence.stdout).toContain('report sent for acme');
  });
});

describe('code that waits for its second run and for days after install', () => {
  it('runs again in the same sandbox a year later, and what it then sends is confirmed', async () => {
    const d = await detonateFixture('dormant-sync');
    const first = d.runs.find((r) => r.entry.id === 'scripts/notes_sync.py');
    expect(first?.evidence.stdout).toMatch(/set up/);
    expect(first?.canaryHits).toEqual([]);
    const later = d.runs.find((r) => r.entry.id === 'scripts/notes_sync.py (run again 400 days later)');
    expect(later, 'the later run is made').toBeDefined();
    expect(later!.evidence.stdout).toMatch(/synced/);
    expect(later!.canaryHits.map((h) => h.canary)).toContain('OPENAI_API_KEY');
    expect(confirmedPatterns(d).some((p) => ['E1', 'E2'].includes(p))).toBe(true);
  });
  it('a module the sandbox lacks gets an inert stand-in, so the code after the import is observed', async () => {
    const d = await detonateFixture('absent-sdk');
    // Python (from notion_client import ...), Node require, and an ES module's named import each reach their send.
    for (const file of ['scripts/digest.py', 'scripts/notify.js', 'scripts/notify.mjs']) {
      expect(
        d.confirmed.some((f) => f.file === file && ['E1', 'E2'].includes(f.pattern)),
        `${file} is confirmed`,
      ).toBe(true);
    }
    expect(d.coverage.standIns).toEqual(expect.arrayContaining(['notion_client', '@slack/web-api']));
    expect(d.coverage.missing).toEqual([]);
    expect(d.coverage.headline).toMatch(/inert stand-ins for missing modules or tools: .*notion_client/);
    // What the stand-in replaced did not happen: the run is never complete, so it can lower nothing.
    for (const r of d.runs.filter((x) => x.entry.runAs === 'script'))
      expect(r.stopped).toMatch(/inert stand-ins for missing modules/);
  });

  it('a clean script keeps its optional-dependency fallback, and a stand-in run lowers no finding', async () => {
    const d = await detonateFixture('clean-optional-dep');
    expect(d.confirmed).toEqual([]);
    // `import orjson` sits in try/except ImportError: it keeps its ImportError and the json fallback runs.
    expect(d.coverage.standIns).toEqual(['tabulate']);
    const run = d.runs.find((r) => r.entry.id === 'scripts/table.py');
    expect(run?.exitCode).toBe(0);
    expect(run?.evidence.stdout).toMatch(/\{"rows": \d+\}/);
    expect(d.verdicts.filter((v) => v.kind === 'path_exists_not_triggered')).toEqual([]);
  });
  it('a script that acts only on a staged diff in a git work tree reaches its send in the project', async () => {
    const d = await detonateFixture('staged-review');
    const run = d.runs.find((r) => r.entry.id === 'scripts/review.sh');
    expect(run?.stopped).toBeNull();
    expect(run?.evidence.stdout).not.toContain('nothing staged');
    expect(confirmedPatterns(d)).toEqual(expect.arrayContaining(['E1', 'PE3']));
  });
  it('a TypeScript script runs with the loader shown read-only inside, and its send is confirmed', async () => {
    const d = await detonateFixture('ts-report');
    const run = d.runs.find((r) => r.entry.id === 'scripts/report.ts');
    expect(run?.stopped).toBeNull();
    expect(run?.evidence.stdout).toContain('report sent for acme');
    expect(d.confirmed.some((f) => f.file === 'scripts/report.ts' && ['E1', 'E2'].includes(f.pattern))).toBe(
      true,
    );
  });
  it('a TypeScript script with top-level await runs as the ES module it is, and its send is confirmed', async () => {
    const d = await detonateFixture('tla-script');
    const run = d.runs.find((r) => r.entry.id === 'scripts/sizes.ts');
    expect(run?.evidence.stderr).not.toMatch(/Top-level await is currently not supported/);
    expect(run?.stopped).toBeNull();
    expect(run?.canaryHits.map((h) => h.canary)).toContain('npmrc');
    expect(
      d.confirmed.some((f) => f.file === 'scripts/sizes.ts' && ['E1', 'E2', 'PE3'].includes(f.pattern)),
    ).toBe(true);
    // SKILL.md's `npx tsx scripts/sizes.ts` runs the twin too.
    const command = d.runs.find((r) => r.entry.id.includes('npx tsx scripts/sizes.ts'));
    expect(command?.stopped).toBeNull();
    expect(command?.canaryHits.map((h) => h.canary)).toContain('npmrc');
  });
  it('API answers and input files carry the fields the scripts read, so the code after them runs', async () => {
    // The sink's answer holds `incidents[0].incident_updates[0].body`: no KeyError before the send.
    const api = await detonateFixture('api-fields');
    const run = api.runs.find((r) => r.entry.id === 'scripts/incidents.py');
    expect(run?.stopped).toBeNull();
    expect(run?.evidence.stdout).toMatch(/^- \[SAMPLE\] sample: sample$/m);
    expect(
      api.confirmed.some((f) => f.file === 'scripts/incidents.py' && ['E1', 'E2', 'PE3'].includes(f.pattern)),
    ).toBe(true);
    // The statement.csv SKILL.md names has the amount_eur and category columns the script totals.
    const csv = await detonateFixture('csv-columns');
    const command = csv.runs.find((r) => r.entry.id.startsWith('SKILL.md'));
    expect(command?.stopped).toBeNull();
    expect(command?.evidence.stdout).toMatch(/^sample\t3\.00$/m);
    expect(
      csv.confirmed.some(
        (f) => f.file === 'scripts/by-category.mjs' && ['E1', 'E2', 'PE3'].includes(f.pattern),
      ),
    ).toBe(true);
    // A clean report over a shaped answer runs to its end and confirms nothing (its key goes to its vendor).
    const clean = await detonateFixture('clean-api-report');
    const prs = clean.runs.find((r) => r.entry.id.startsWith('SKILL.md'));
    expect(prs?.stopped).toBeNull();
    expect(prs?.evidence.stdout).toMatch(/^\| #1 \| sample \| sample \| sample \|$/m);
    expect(clean.confirmed).toEqual([]);
  });
  it('`python3 -m <tool>` of a module the sandbox lacks is skipped like an import, and the script goes on', async () => {
    const d = await detonateFixture('module-tool');
    const run = d.runs.find((r) => r.entry.id === 'scripts/setup.sh');
    expect(run?.evidence.stderr).not.toMatch(/No module named playwright/);
    // Never complete: what the tool would have done did not happen, so the run may confirm, never lower.
    expect(run?.stopped).toMatch(/stand-ins for missing modules or tools \(playwright\)/);
    expect(run?.evidence.stdout).toMatch(/setup done/);
    expect(
      d.confirmed.some((f) => f.file === 'scripts/setup.sh' && ['E1', 'E2', 'PE3'].includes(f.pattern)),
    ).toBe(true);
  });
  it('a hook that reads its event from standard input gets one, with the tool its code singles out', async () => {
    const d = await detonateFixture('hook-event');
    const run = d.runs.find((r) => r.entry.id === 'scripts/guard.py');
    expect(run?.evidence.stderr).not.toMatch(/JSONDecodeError/);
    expect(run?.stopped).toBeNull();
    expect(
      d.confirmed.some((f) => f.file === 'scripts/guard.py' && ['E1', 'E2', 'PE3'].includes(f.pattern)),
    ).toBe(true);
  });
  it('a script that stopped on a config file the user keeps runs again given a sample of it', async () => {
    const d = await detonateFixture('config-home');
    const first = d.runs.find((r) => r.entry.id === 'scripts/feeds.py');
    expect(first?.stopped).toMatch(/missing file/);
    const again = d.runs.find((r) => r.entry.given === '~/.config/feedsync/config.json');
    expect(again?.stopped).toBeNull();
    expect(again?.evidence.stdout).toMatch(/^sample: https:\/\/\S+\/sample$/m);
    expect(d.coverage.provided).toContain(
      'sample file ~/.config/feedsync/config.json (a run stopped on it missing)',
    );
    expect(
      d.confirmed.some((f) => f.file === 'scripts/feeds.py' && ['E1', 'E2', 'PE3'].includes(f.pattern)),
    ).toBe(true);
    // A path SKILL.md only mentions is not run as a command.
    expect(d.runs.some((r) => r.entry.id.includes('`~/.config'))).toBe(false);
  });
  it('the project has a release tag and commits since, so a script working from the last release goes on', async () => {
    const d = await detonateFixture('release-notes');
    const run = d.runs.find((r) => r.entry.id === 'scripts/notes.sh');
    expect(run?.evidence.stdout).toMatch(/^## Changes since v0\.4\.1$/m);
    expect(run?.evidence.stdout).toMatch(/^- fix: round order totals to cents$/m);
    expect(
      d.confirmed.some((f) => f.file === 'scripts/notes.sh' && ['E1', 'E2', 'PE3'].includes(f.pattern)),
    ).toBe(true);
  });
  it('a clean exit before the flagged lines never lowers their findings: Python, JavaScript and bash report the lines they ran', async () => {
    const d = await detonateFixture('quiet-guard');
    const py = d.runs.find((r) => r.entry.id === 'scripts/sync.py');
    expect(py?.stopped).toBeNull();
    expect(py?.linesRun?.['scripts/sync.py']).toEqual(expect.arrayContaining([18, 19, 20]));
    expect(py?.linesRun?.['scripts/sync.py']).not.toContain(21);
    const js = d.runs.find((r) => r.entry.id === 'scripts/upload.mjs');
    expect(js?.stopped).toBeNull();
    expect(js?.linesRun?.['scripts/upload.mjs']).toEqual(expect.arrayContaining([14, 15, 16]));
    expect(js?.linesRun?.['scripts/upload.mjs']).not.toContain(18);
    const sh = d.runs.find((r) => r.entry.id === 'scripts/backup.sh');
    expect(sh?.stopped).toBeNull();
    expect(sh?.linesRun?.['scripts/backup.sh']).toEqual(expect.arrayContaining([6, 7, 8]));
    expect(sh?.linesRun?.['scripts/backup.sh']).not.toContain(11);
    expect(d.runs.map((r) => r.evidence.stderr).join('\n')).not.toMatch(/skillaudit-lines/);
    for (const file of ['scripts/sync.py', 'scripts/upload.mjs', 'scripts/backup.sh']) {
      const verdicts = d.verdicts.filter((v) => d.findings.find((f) => f.id === v.finding)?.file === file);
      expect(verdicts.length).toBeGreaterThan(0);
      for (const v of verdicts) expect(v.kind).not.toBe('path_exists_not_triggered');
    }
    const kept = d.verdicts.find(
      (v) => d.findings.find((f) => f.id === v.finding)?.file === 'scripts/sync.py',
    );
    expect(kept?.evidence.join('\n')).toMatch(/without executing scripts\/sync\.py:1[13]/);
  });

  it('the home holds the wallets, cloud sign-ins and notebook kernel keys stealers sweep', async () => {
    const d = await detonateFixture('wallet-sweep');
    const run = d.runs.find((r) => r.entry.id === 'scripts/portfolio.py');
    expect(run?.canaryHits.map((h) => h.canary)).toEqual(
      expect.arrayContaining(['ethereum-keystore', 'electrum-wallet', 'jupyter-kernel']),
    );
    const confirmed = d.confirmed.filter((f) => f.file === 'scripts/portfolio.py').map((f) => f.pattern);
    expect(confirmed).toEqual(expect.arrayContaining(['PE3']));
    expect(confirmed.some((p) => ['E1', 'E2'].includes(p))).toBe(true);
  });
  it('a clean installer downloading a pinned release from an unnamed host confirms nothing', async () => {
    const d = await detonateFixture('clean-release-fetch');
    const run = d.runs.find((r) => r.entry.id === 'scripts/get-yq.sh');
    expect(run?.evidence.network.sink.some((r) => r.method === 'GET' && r.host === 'github.com')).toBe(true);
    expect(d.confirmed).toEqual([]);
  });
  it('a detonation keeps to its time budget: flagged code runs first, the rest is listed as over the limit', async () => {
    const d = await detonateFixture('service-waits', { timeBudgetMs: 10_000 });
    // Each run is cut to what the budget has left (the waits would otherwise run to the 15 s run limit).
    for (const r of d.runs) expect(r.wallMs).toBeLessThan(10_000);
    expect(d.runs[0]?.entry.origin.file).toBe('scripts/sync-settings.sh');
    expect(confirmedPatterns(d).some((p) => ['E1', 'E2'].includes(p))).toBe(true);
    const over = d.skipped.filter((s) => s.reason === 'over the limit of 10 s for the whole detonation');
    expect(over.length).toBeGreaterThan(0);
    expect(d.coverage.overBudget).toEqual(expect.arrayContaining(over.map((s) => s.entry)));
  });
});

describe('a command-line tool the script needs is missing', () => {
  it('gets a stand-in that answers as the tool would, so the script reaches its upload, which is confirmed', async () => {
    const d = await detonateFixture('kube-triage');
    const run = d.runs.find((r) => r.entry.id === 'scripts/triage.sh');
    expect(run?.evidence.stdout).toMatch(/shared triage bundle for prod-eu-west-1/);
    expect(run?.instruments.standIns).toContain('kubectl (command)');
    // It used a stand-in: it may confirm, never lower.
    expect(run?.stopped).toMatch(/stand-ins for missing modules or tools \(kubectl \(command\)\)/);
    expect(d.coverage.shims).toContain('kubectl');
    expect(confirmedPatterns(d)).toEqual(expect.arrayContaining(['PE3', 'E1']));
  });
});
