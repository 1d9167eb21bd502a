import { when } from '../core/format.js';
import { isVerdictStatus, STATUS_ADVICE, STATUS_LABEL, STATUS_TONE } from '../core/verdict-words.js';
import type { AuditView } from './audit-view.js';

// The service's own pages (home, audits list, an audit's status before its report exists): plain HTML with
// the report's colours, no script, every value escaped (sources and errors come from submitters).

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const STYLE = `
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#f6f8fa;--good:#1a7f37;--warn:#9a6700;--bad:#cf222e;--busy:#0969da}
*{box-sizing:border-box}body{overflow-wrap:anywhere;margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
header.top{background:#fff;border-bottom:1px solid var(--line)}header.top .wrap{display:flex;gap:16px;align-items:baseline;flex-wrap:wrap}
.brand{font-weight:700}.brand a,nav a{color:inherit;text-decoration:none}nav a{color:var(--busy);margin-right:12px}
.wrap{max-width:64rem;margin:0 auto;padding:12px 16px}main.wrap{padding-top:24px}
h1{font-size:1.5rem;margin:0 0 8px}h2{font-size:1.1rem;margin:24px 0 8px}
.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:16px;margin-bottom:16px;border-left:6px solid var(--tone,var(--line))}
.tone-good{--tone:var(--good)}.tone-warn{--tone:var(--warn)}.tone-bad{--tone:var(--bad)}.tone-busy{--tone:var(--busy)}
.chip{display:inline-block;padding:1px 8px;border-radius:999px;font-size:.85em;font-weight:600;color:#fff;background:var(--tone,var(--muted))}
.muted{color:var(--muted)}code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;word-break:break-all}
pre{background:#fff;border:1px solid var(--line);border-radius:6px;padding:12px;overflow-x:auto}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}dt{color:var(--muted)}dd{margin:0;min-width:0;overflow-wrap:anywhere}
table{width:100%;border-collapse:collapse;background:#fff;border:1px solid var(--line);border-radius:8px}
th,td{text-align:left;padding:8px 10px;border-bottom:1px solid var(--line);vertical-align:top}th{font-size:.85em;color:var(--muted);font-weight:600}
td.source{overflow-wrap:anywhere}form.filters{display:flex;gap:8px;flex-wrap:wrap;align-items:end;margin-bottom:12px}
label{display:flex;flex-direction:column;font-size:.85em;color:var(--muted)}input,select,button{font:inherit;padding:4px 8px;max-width:100%;box-sizing:border-box}
.pager{display:flex;gap:16px;margin-top:12px}
@media (max-width:640px){table.audits thead{display:none}table.audits tr{display:block;border-bottom:1px solid var(--line)}
table.audits td{display:block;border:0;padding:4px 10px}table.audits td[data-label]::before{content:attr(data-label) ": ";color:var(--muted)}}
`;

export function page(title: string, body: string, refreshSeconds?: number): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${refreshSeconds ? `<meta http-equiv="refresh" content="${refreshSeconds}">` : ''}
<title>${escapeHtml(title)} · SkillAudit</title>
<style>${STYLE}</style>
</head><body>
<header class="top"><div class="wrap"><span class="brand"><a href="/">SkillAudit</a></span>
<nav><a href="/audits">Audits</a><a href="/api/health">Health</a></nav></div></header>
<main class="wrap">${body}</main>
</body></html>
`;
}

const STAGE_WORDS: Record<string, string> = {
  intake: 'fetching and reading the skill',
  scan: 'static safety scan',
  detonate: 'running its scripts in the sandbox',
  quality: 'measuring its quality',
};

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
}

/** A group's state: how many parts are in each state; its tone is its worst part's once all are done. */
function groupState(parts: readonly AuditView[]): { label: string; detail: string; tone: string } {
  const states = parts.map(auditState);
  const counts = new Map<string, number>();
  for (const state of states) counts.set(state.label, (counts.get(state.label) ?? 0) + 1);
  const tones = new Set(states.map((s) => s.tone));
  const tone = ['busy', 'bad', 'warn'].find((t) => tones.has(t)) ?? 'good';
  return {
    label: `${parts.length} skills`,
    detail: [...counts].map(([label, n]) => `${n} ${label.toLowerCase()}`).join(', '),
    tone,
  };
}

/** The audit's true state in words and a tone: queued with its place, running with its stage, done, failed. */
export function auditState(audit: AuditView): { label: string; detail: string; tone: string } {
  if (audit.parts) return groupState(audit.parts);
  if (audit.status === 'queued') {
    const place = audit.queuePosition ?? 1;
    return {
      label: 'Queued',
      detail: place <= 1 ? 'next in line' : `${ordinal(place)} in line`,
      tone: 'busy',
    };
  }
  if (audit.status === 'running') {
    const stage = audit.stage ?? 'intake';
    return { label: 'Running', detail: `${stage}: ${STAGE_WORDS[stage] ?? stage}`, tone: 'busy' };
  }
  if (audit.status === 'failed') {
    return {
      label: 'Failed',
      detail: audit.error ? `${audit.error.code}: ${audit.error.message}` : 'no reason recorded',
      tone: 'bad',
    };
  }
  const verdict = audit.verdict;
  if (verdict && isVerdictStatus(verdict.status)) {
    return {
      label: STATUS_LABEL[verdict.status],
      detail: [verdict.rating !== undefined ? `safety ${verdict.rating}/100` : '', verdict.reason ?? '']
        .filter(Boolean)
        .join(' · '),
      tone: STATUS_TONE[verdict.status],
    };
  }
  return { label: 'Done', detail: '', tone: 'good' };
}

const REFRESH_SECONDS = 5;

/** One value of the status page's list: sources and hashes as code, the group as a link. */
function cell(key: string, value: string): string {
  if (key === 'Part of') return `<a href="${escapeHtml(value)}">all skills of this source</a>`;
  return key === 'Content hash' || key === 'Source' ? `<code>${escapeHtml(value)}</code>` : escapeHtml(value);
}

/** /audits/:id before the report exists: the state, refreshed every few seconds while it can still change. */
export function statusPage(audit: AuditView): string {
  const state = auditState(audit);
  const live = audit.status === 'queued' || audit.status === 'running';
  const name = audit.skill ?? (audit.parts ? `in ${audit.source}` : 'audit');
  const rows: [string, string | undefined][] = [
    ['Source', audit.source],
    ['Part of', audit.partOf ? audit.partOf.reportUrl : undefined],
    ['Skill', audit.skill],
    ['Content hash', audit.contentHash],
    ['Submitted', when(audit.createdAt)],
    ['Started', audit.startedAt ? when(audit.startedAt) : undefined],
    ['Finished', audit.finishedAt ? when(audit.finishedAt) : undefined],
  ];
  const body = `
<section class="card tone-${state.tone}" data-testid="audit-state" data-state="${audit.status}">
<h1><span class="chip">${escapeHtml(state.label)}</span> ${escapeHtml(name)}</h1>
<p>${escapeHtml(state.detail)}</p>
<dl>${rows
    .filter((r): r is [string, string] => r[1] !== undefined)
    .map(([k, v]) => `<dt>${k}</dt><dd>${cell(k, v)}</dd>`)
    .join('')}</dl>
</section>
${audit.parts ? `<h2>The skills in this source</h2>\n<p class="muted">The source holds several skills and the submission named none, so each is audited on its own; each has its own report.</p>\n${auditTable(audit.parts)}` : ''}
${live ? `<p class="muted">This page refreshes every ${REFRESH_SECONDS} seconds; ${audit.parts ? 'each report appears on its skill’s page when its audit is done' : 'the report appears here when the audit is done'}.</p>` : ''}
${audit.status === 'failed' ? '<p class="muted">Submit the source again to retry.</p>' : ''}`;
  return page(`${state.label}: ${audit.skill ?? audit.source}`, body, live ? REFRESH_SECONDS : undefined);
}

/** The home page: what the service does, the submit form, the same from a script, and the audits. */
export function homePage(counts: Record<string, number>, authRequired: boolean, origin: string): string {
  const auth = authRequired ? ` \\\n  -H "Authorization: Bearer $TOKEN"` : '';
  const body = `
<h1>SkillAudit</h1>
<p>This service audits agent skills before anyone installs them: a static safety scan, the skill's own scripts
run in a sandbox with decoy secrets, and a quality profile. Each audit ends in a verdict:</p>
<ul>${(['pass', 'caution', 'risky'] as const)
    .map(
      (s) =>
        `<li><span class="chip tone-${STATUS_TONE[s]}">${STATUS_LABEL[s]}</span> ${escapeHtml(STATUS_ADVICE[s])}</li>`,
    )
    .join('')}</ul>
<h2>Submit a skill</h2>
<form method="post" action="/submit" enctype="multipart/form-data" class="submit" data-testid="submit-form">
<p><label>Git repository URL (a GitHub folder page works too)<input type="url" name="url" placeholder="https://github.com/owner/repo/tree/main/skills/pdf" size="60"></label></p>
<p><label>or an archive (.zip, .tar.gz, .skill)<input type="file" name="archive" accept=".zip,.skill,.tar.gz,.tgz,.tar"></label></p>
<p><label>Skill name, when the source holds several (optional)<input type="text" name="skill" maxlength="128"></label></p>
${authRequired ? '<p><label>Token<input type="password" name="token" required autocomplete="current-password"></label></p>' : ''}
<p><button type="submit">Audit</button></p>
</form>
${
  authRequired
    ? `<form method="post" action="/session" data-testid="token-form">
<p><label>Already submitted? Your token shows your audits<input type="password" name="token" required autocomplete="current-password"></label>
<button type="submit">Show my audits</button></p>
</form>
`
    : ''
}<p>The same from a script, a git repository URL${authRequired ? ' with the service token' : ''}:</p>
<pre><code>curl -X POST ${escapeHtml(origin)}/api/audits${escapeHtml(auth)} \\
  -H 'Content-Type: application/json' -d '{"source": "https://github.com/owner/repo/tree/main/skills/pdf"}'</code></pre>
<p>or an archive (.zip, .tar.gz); the same archive audited before is answered from the finished audit unless
you add <code>&amp;fresh=1</code>:</p>
<pre><code>curl -X POST '${escapeHtml(origin)}/api/audits?filename=pdf.zip'${escapeHtml(auth)} \\
  -H 'Content-Type: application/zip' --data-binary @pdf.zip</code></pre>
<p>The answer names the audit's status page (<code>/audits/&lt;id&gt;</code>), which becomes the report when the audit
is done. The API is described in docs/server.md of the SkillAudit repository.</p>
<h2>Audits</h2>
<p>${(['queued', 'running', 'done', 'failed'] as const)
    .map((s) => `<a href="/audits?status=${s}">${counts[s] ?? 0} ${s}</a>`)
    .join(' · ')} · <a href="/audits">all audits</a></p>`;
  return page('Audit agent skills', body);
}

export interface AuditListPage {
  audits: AuditView[];
  total: number;
  page: number;
  pageSize: number;
  status?: string;
  source?: string;
}

function listUrl(q: { status?: string; source?: string; page?: number }): string {
  const params = new URLSearchParams();
  if (q.status) params.set('status', q.status);
  if (q.source) params.set('source', q.source);
  if (q.page && q.page > 1) params.set('page', String(q.page));
  const text = params.toString();
  return `/audits${text ? `?${text}` : ''}`;
}

/** Audits as a table, a row each: state, skill (linking to its page), source, detail, submitted. */
function auditTable(audits: readonly AuditView[]): string {
  const rows = audits
    .map((a) => {
      const state = auditState(a);
      return `<tr data-testid="audit-row" data-status="${a.status}">
<td data-label="state"><span class="chip tone-${state.tone}">${escapeHtml(state.label)}</span></td>
<td data-label="skill"><a href="${escapeHtml(a.reportUrl)}">${escapeHtml(a.skill ?? a.id)}</a></td>
<td data-label="source" class="source"><code>${escapeHtml(a.source)}</code></td>
<td data-label="detail" class="muted">${escapeHtml(state.detail)}</td>
<td data-label="submitted"><time datetime="${escapeHtml(a.createdAt)}">${escapeHtml(when(a.createdAt))}</time></td>
</tr>`;
    })
    .join('');
  return `<table class="audits"><thead><tr><th>state</th><th>skill</th><th>source</th><th>detail</th><th>submitted</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** GET /audits: newest first, filters by status and source, a page at a time. */
export function auditsPage(list: AuditListPage): string {
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize));
  const options = ['', 'queued', 'running', 'done', 'failed']
    .map(
      (s) =>
        `<option value="${s}"${s === (list.status ?? '') ? ' selected' : ''}>${s || 'any status'}</option>`,
    )
    .join('');
  const body = `
<h1>Audits</h1>
<form class="filters" method="get" action="/audits">
<label>status<select name="status">${options}</select></label>
<label>source contains<input name="source" value="${escapeHtml(list.source ?? '')}" maxlength="200"></label>
<button type="submit">Filter</button>
</form>
<p class="muted" data-testid="audit-count">${list.total} audit${list.total === 1 ? '' : 's'}${pages > 1 ? `, page ${list.page} of ${pages}` : ''}</p>
${list.audits.length ? auditTable(list.audits) : '<p>No audit matches.</p>'}
<div class="pager">${list.page > 1 ? `<a rel="prev" href="${escapeHtml(listUrl({ ...list, page: list.page - 1 }))}">← newer</a>` : ''}${
    list.page < pages
      ? `<a rel="next" href="${escapeHtml(listUrl({ ...list, page: list.page + 1 }))}">older →</a>`
      : ''
  }</div>`;
  return page('Audits', body);
}
