import {
  bytes,
  clip,
  count,
  duration,
  effectiveTokens,
  findingLocation,
  limitLabel,
  mergedAttempts,
  notRunReason,
  orderFindings,
  percent,
  reveal,
  STATUS_ADVICE,
  STATUS_ICON,
  STATUS_LABEL,
  signedPercent,
  timeSaving,
  tokenSaving,
  VERDICT_LABEL,
  when,
} from '../core/format.js';
import { patternById } from '../core/taxonomy.js';
import {
  AGENT_COLUMNS,
  type AgentRow,
  agentLabel,
  agentRows,
  agentScoreCells,
} from './html/app/agent-rows.js';
import type { Report, ReportFinding, RuntimeSummary, UtilitySummary } from './model.js';

// The audit as GitHub-flavoured Markdown for PR comments. Every string from the report is untrusted: short
// values go into code spans, quoted code into fenced blocks (both render no HTML, links, images or mentions),
// and prose goes through `prose`, which escapes Markdown and HTML and defangs autolinks and @-mentions.
// Hidden characters are revealed first everywhere. Output stays well under GitHub's 65,536-character limit.

const MAX_FINDINGS = 25;
const EVIDENCE_LINES = 8;
const LINE_CHARS = 160;
const LIST_ITEMS = 8;
// GitHub rejects comments over 65,536 characters: finding details stop at a budget, and a last guard cuts
// whatever still overflows at a line boundary.
const DETAIL_BUDGET = 24_000;
const MAX_CHARS = 60_000;

/** Untrusted text as inline Markdown prose: nothing in it can become markup, a link or a mention. */
export function prose(text: string, max = 400): string {
  return (
    clip(reveal(text), max)
      .replace(/\s*\n\s*/g, ' ')
      // GFM autolinks scheme:// and www. text even when escaped: defang them visibly before escaping.
      .replace(/\b([a-z][a-z0-9+.-]*):\/\//gi, '$1[:]//')
      .replace(/\bwww\./gi, 'www[.]')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/[\\`*_{}[\]()#+!|~]/g, '\\$&')
      .replace(/^([-=]|\d+[.)])/, '\\$1')
      // A fullwidth at sign: no e-mail autolink and no @-mention notification.
      .replace(/@/g, '\uFF20')
  );
}

/** Untrusted text as a code span (single line), safe inside table cells too. */
export function codeSpan(text: string, max = LINE_CHARS): string {
  const value = clip(reveal(text), max).replace(/\n/g, ' ⏎ ').replace(/\|/g, '\\|');
  const longestRun = Math.max(0, ...(value.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = value.startsWith('`') || value.endsWith('`') || value === '' ? ' ' : '';
  return `${fence}${pad}${value}${pad}${fence}`;
}

/** Untrusted multi-line text as a fenced block whose fence no line inside can close. */
export function fencedBlock(text: string, maxLines = EVIDENCE_LINES): string {
  const lines = reveal(text).split('\n');
  const shown = lines.slice(0, maxLines).map((l) => clip(l, LINE_CHARS));
  if (lines.length > maxLines) shown.push(`… ${lines.length - maxLines} more lines`);
  const body = shown.join('\n');
  const longestRun = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}text\n${body}\n${fence}`;
}

function renderFinding(f: ReportFinding): string[] {
  const out = [
    `#### ${f.severity.toUpperCase()} · ${f.pattern} ${patternById(f.pattern).name} · ${codeSpan(findingLocation(f))}`,
    '',
    `${prose(f.message)} — ${VERDICT_LABEL[f.verdict] ? `**${VERDICT_LABEL[f.verdict]}**, ` : ''}confidence ${f.confidence.toFixed(2)}, rule ${codeSpan(f.rule, 80)}`,
    '',
    fencedBlock(f.evidence),
  ];
  if (f.rationale) out.push('', `Why: ${prose(f.rationale, 300)}`);
  if (f.runtimeEvidence.length) {
    out.push(
      '',
      ...bulletList(f.runtimeEvidence, (e) => `runtime (${prose(e.kind, 40)}): ${prose(e.summary, 300)}`),
    );
  }
  out.push('');
  return out;
}

function renderSafety(report: Report): string[] {
  const { safety } = report;
  const active = orderFindings(safety.findings.filter((f) => !f.suppressed));
  const suppressed = safety.findings.filter((f) => f.suppressed);
  const n = (s: ReportFinding['severity']) => active.filter((f) => f.severity === s).length;
  const out = [
    `### Safety: ${STATUS_ICON[safety.status]} ${STATUS_LABEL[safety.status]} (${safety.decision.rating}/100)`,
    '',
    `${n('high')} high, ${n('medium')} medium, ${n('low')} low` +
      (suppressed.length ? `; ${suppressed.length} suppressed` : '') +
      (active.length === 0 ? '. No active findings.' : '.'),
    '',
  ];
  if (active.length) {
    out.push('| severity | pattern | where | runtime verdict |', '|---|---|---|---|');
    for (const f of active.slice(0, MAX_FINDINGS)) {
      out.push(
        `| ${f.severity} | ${f.pattern} ${patternById(f.pattern).name} | ${codeSpan(findingLocation(f))} | ${VERDICT_LABEL[f.verdict] || '—'} |`,
      );
    }
    if (active.length > MAX_FINDINGS) out.push(`| … | ${active.length - MAX_FINDINGS} more | | |`);
    out.push('');
    let used = 0;
    let detailed = 0;
    for (const f of active.slice(0, MAX_FINDINGS)) {
      const detail = renderFinding(f);
      const size = detail.reduce((sum, l) => sum + l.length + 1, 0);
      if (used + size > DETAIL_BUDGET) break;
      out.push(...detail);
      used += size;
      detailed++;
    }
    if (active.length > detailed) {
      out.push(
        `… ${active.length - detailed} more findings not detailed here (the HTML or JSON report lists all).`,
        '',
      );
    }
  }
  out.push(
    ...bulletList(
      suppressed,
      (f) =>
        `suppressed (${f.suppressed!.by}): ${f.pattern} at ${codeSpan(findingLocation(f))}: ${prose(f.suppressed!.reason)}`,
    ),
  );
  out.push(...bulletList(safety.notes, (note) => `note: ${prose(note)}`));
  if (suppressed.length || safety.notes.length) out.push('');
  return out;
}

function bulletList<T>(
  items: readonly T[],
  show: (item: T) => string,
  indent = '',
  limit = LIST_ITEMS,
): string[] {
  const out = items.slice(0, limit).map((item) => `${indent}- ${show(item)}`);
  if (items.length > limit) out.push(`${indent}- … ${items.length - limit} more`);
  return out;
}

/** The coverage headline and what the runs did not reach: read before the evidence, never implied by it. */
function renderCoverage(c: NonNullable<RuntimeSummary['coverage']>): string[] {
  return [
    `**Coverage:** ${prose(c.headline, 600)}`,
    '',
    ...bulletList(
      c.missing,
      (m) =>
        `died on a missing ${m.kind} ${codeSpan(m.name, 80)} (${m.runs.map((r) => codeSpan(r, 80)).join(', ')})`,
    ),
    ...bulletList(c.scriptsNotRun, (s) => `not run: ${codeSpan(s.file)}: ${prose(s.reason, 200)}`),
    ...bulletList(c.overBudget, (e) => `left out by the run budget: ${codeSpan(e)}`),
    ...(c.shims.length ? [`- platform shims used: ${c.shims.map((x) => codeSpan(x, 20)).join(', ')}`] : []),
    ...(c.standIns?.length
      ? [
          `- inert stand-ins for missing modules or tools: ${c.standIns.map((x) => codeSpan(x, 80)).join(', ')}`,
        ]
      : []),
    ...bulletList(
      c.installsCut ?? [],
      (i) => `went on past an install that could not complete offline: ${codeSpan(i)}`,
    ),
    ...(c.provided?.length
      ? [`- provided because the skill asked: ${c.provided.map((x) => prose(x, 80)).join(', ')}`]
      : []),
    ...(c.missing.length ||
    c.scriptsNotRun.length ||
    c.overBudget.length ||
    c.shims.length ||
    c.standIns?.length ||
    c.installsCut?.length ||
    c.provided?.length
      ? ['']
      : []),
  ];
}

function renderRuntime(runtime: RuntimeSummary): string[] {
  return [
    '### Runtime evidence',
    '',
    ...(runtime.coverage ? renderCoverage(runtime.coverage) : []),
    `Sandbox: ${codeSpan(runtime.sandbox.backend, 40)}` +
      (runtime.sandbox.limitsApplied.length
        ? `, limits ${runtime.sandbox.limitsApplied.map((l) => codeSpan(limitLabel(l), 60)).join(', ')}`
        : ''),
    '',
    `- **Scripts run:** ${runtime.scriptsRun.length}`,
    ...bulletList(
      runtime.scriptsRun,
      (s) =>
        `${codeSpan(s.command)}: ${s.timedOut ? 'timed out' : `exit ${s.exitCode ?? 'by signal'}`}, ${duration(s.wallMs)}`,
      '  ',
    ),
    `- **Network attempts:** ${runtime.network.length || 'none'}`,
    ...bulletList(
      mergedAttempts(runtime.network),
      ({ item: n, count: times }) =>
        `${codeSpan(n.protocol, 20)} ${codeSpan(n.destination)}${times > 1 ? ` ×${times}` : ''} ${n.blocked ? '(blocked)' : '**(connected)**'}` +
        (n.bytes !== undefined ? `, ${bytes(n.bytes)}` : '') +
        (n.canaries?.length ? `, carried ${n.canaries.map((x) => codeSpan(x, 60)).join(', ')}` : ''),
      '  ',
    ),
    `- **Canary hits:** ${runtime.canaryHits.length || 'none'}`,
    ...bulletList(runtime.canaryHits, (h) => `${codeSpan(h.canary, 60)} in ${codeSpan(h.where)}`, '  '),
    ...(runtime.expectedCredentialUse?.length
      ? [
          `- **Expected credential use:** ${runtime.expectedCredentialUse.length}`,
          ...bulletList(runtime.expectedCredentialUse, (u) => codeSpan(u), '  '),
        ]
      : []),
    `- **Files changed:** ${runtime.filesChanged.length || 'none'}`,
    ...bulletList(runtime.filesChanged, (f) => `${f.change} ${codeSpan(f.path)}`, '  '),
    `- **Processes:** ${runtime.processes.length}`,
    ...bulletList(runtime.processes, (p) => codeSpan(p.argv.join(' ')), '  '),
    '',
  ];
}

function renderUtility(u: UtilitySummary): string[] {
  const out = [
    '### Utility, efficiency and cost',
    '',
    '| pass-rate gain | efficiency gain | cost gain | combined gain |',
    '|---|---|---|---|',
    `| ${signedPercent(u.prg)} | ${signedPercent(u.eg)} (${timeSaving(u.deltaT)}) | ${signedPercent(u.cg)} (${tokenSaving(u.deltaQ)}) | ${signedPercent(u.ecg)} |`,
    '',
  ];
  if (u.ceiling)
    out.push('The agent already passes these scenarios without the skill, so no gain can show.', '');
  out.push('| scenario | with skill | without skill | pass-rate gain |', '|---|---|---|---|');
  for (const s of u.scenarios.slice(0, MAX_FINDINGS)) {
    const cell = (t: typeof s.withSkill) =>
      `${t.passed}/${t.total} · ${duration(t.timeMs)} · ${count(effectiveTokens(t.tokens))} tok`;
    out.push(
      `| ${codeSpan(s.id, 60)} | ${cell(s.withSkill)} | ${cell(s.noSkill)} | ${s.valid ? signedPercent(s.prg) : `invalid: ${prose(s.invalidReason ?? 'unknown', 120)}`} |`,
    );
  }
  if (u.scenarios.length > MAX_FINDINGS)
    out.push('', `… ${u.scenarios.length - MAX_FINDINGS} more scenarios.`);
  out.push('');
  return out;
}

/** One row per agent of a multi-agent audit; names from the configuration go into code spans. */
function renderAgents(rows: readonly AgentRow[]): string[] {
  if (rows.length === 0) return [];
  return [
    '#### By agent',
    '',
    `| ${AGENT_COLUMNS.join(' | ')} |`,
    `|${AGENT_COLUMNS.map(() => '---|').join('')}`,
    ...rows
      .slice(0, LIST_ITEMS)
      .map(
        (r) =>
          `| ${codeSpan(agentLabel(r), 80)} | ${codeSpan(r.model ?? '?', 80)} | ${agentScoreCells(r).join(' | ')} |`,
      ),
    ...(rows.length > LIST_ITEMS ? ['', `… ${rows.length - LIST_ITEMS} more agents.`] : []),
    '',
  ];
}

function renderQuality(report: Report): string[] {
  const q = report.quality!;
  const out = [
    `### Quality: ${percent(q.overall)} overall`,
    '',
    `Static ${percent(q.groups.static)}, dynamic ${percent(q.groups.dynamic)}, rubric ${percent(q.groups.rubric)}.`,
    '',
    '| dimension | group | score |',
    '|---|---|---|',
  ];
  for (const d of q.dimensions) {
    out.push(
      `| ${prose(d.name, 60)} | ${prose(d.group, 20)} | ${d.score === null ? `not run: ${prose(d.reason ?? d.status, 160)}` : percent(d.score)} |`,
    );
  }
  out.push('');
  return out;
}

function notRunSection(report: Report, title: 'Runtime evidence' | 'Utility' | 'Quality'): string[] {
  return [`### ${title}`, '', `Not run: ${prose(notRunReason(report, title))}.`, ''];
}

export function renderReportMarkdown(report: Report): string {
  const { skill, verdict } = report;
  const p = skill.provenance;
  const out = [
    `## ${STATUS_ICON[verdict.status]} ${STATUS_LABEL[verdict.status]}: ${codeSpan(skill.name, 80)}`,
    '',
    `**${STATUS_ADVICE[verdict.status]}**`,
    '',
    ...bulletList(verdict.reasons, (r) => prose(r)),
    '',
    ...renderSafety(report),
    ...(report.runtime ? renderRuntime(report.runtime) : notRunSection(report, 'Runtime evidence')),
    ...(report.utility ? renderUtility(report.utility) : notRunSection(report, 'Utility')),
    ...renderAgents(agentRows(report.configuration)),
    ...(report.quality ? renderQuality(report) : notRunSection(report, 'Quality')),
  ];
  if (report.notRun.length) {
    out.push(
      '### Not run',
      '',
      ...bulletList(report.notRun, (n) => `${prose(n.stage, 80)}: ${prose(n.reason)}`, '', 20),
      '',
    );
  }
  if (skill.diagnostics.length) {
    out.push('### Spec and intake diagnostics', '');
    out.push(
      ...bulletList(skill.diagnostics, (d) => {
        const where = d.file ? ` ${codeSpan(d.line ? `${d.file}:${d.line}` : d.file)}` : '';
        return `${d.level} ${codeSpan(d.code, 60)}${where}: ${prose(d.message)}`;
      }),
      '',
    );
  }
  out.push(
    `<sub>Skill ${codeSpan(skill.id.slice(0, 12), 12)} from ${p.source} ${codeSpan(p.uri)}` +
      (p.commit ? ` at ${codeSpan(p.commit, 40)}` : p.ref ? ` at ${codeSpan(p.ref, 80)}` : '') +
      ` · ${report.tool.name} ${codeSpan(report.tool.version, 40)} · ${codeSpan(when(report.generatedAt), 40)}</sub>`,
    '',
  );
  return withinLimit(out.join('\n'));
}

/** Cuts Markdown that would exceed GitHub's comment limit at a line boundary, saying so. */
export function withinLimit(markdown: string): string {
  if (markdown.length <= MAX_CHARS) return markdown;
  // Fenced blocks only appear in the budgeted finding details, so a cut here never leaves one open.
  const cut = markdown.lastIndexOf('\n', MAX_CHARS);
  return `${markdown.slice(0, cut)}\n\n… report cut at ${MAX_CHARS} characters; the HTML or JSON report has everything.\n`;
}
