import type { AuditView } from './audit-view.js';

// The page at /audits/:id before the report exists: status, stage and error, refreshed every few seconds
// without any script. Every value is escaped: the source and error text come from the submitter.

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

const REFRESH_SECONDS = 5;

export function statusPage(audit: AuditView): string {
  const rows: [string, string | undefined][] = [
    ['Status', audit.status],
    ['Stage', audit.stage],
    ['Place in queue', audit.queuePosition?.toString()],
    ['Source', audit.source],
    ['Skill', audit.skill],
    ['Submitted', audit.createdAt],
    ['Started', audit.startedAt],
    ['Error', audit.error ? `${audit.error.code}: ${audit.error.message}` : undefined],
  ];
  const live = audit.status === 'queued' || audit.status === 'running';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${live ? `<meta http-equiv="refresh" content="${REFRESH_SECONDS}">` : ''}
<title>SkillAudit: audit ${escapeHtml(audit.id)} ${escapeHtml(audit.status)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:3rem auto;padding:0 1rem}th{text-align:left;padding-right:1rem;vertical-align:top}td{word-break:break-all}</style>
</head><body>
<h1>${live ? 'Audit in progress' : 'Audit failed'}</h1>
<table>${rows
    .filter((r): r is [string, string] => r[1] !== undefined)
    .map(([k, v]) => `<tr><th>${k}</th><td>${escapeHtml(v)}</td></tr>`)
    .join('')}</table>
${live ? `<p>This page refreshes every ${REFRESH_SECONDS} seconds; the report appears here when the audit is done.</p>` : ''}
</body></html>
`;
}
