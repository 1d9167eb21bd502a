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
  STATUS_LABEL,
  signedPercent,
  tally,
  timeSaving,
  tokenSaving,
  VERDICT_LABEL,
  when,
} from '../core/format.js';
import { patternById } from '../core/taxonomy.js';
import type { Colors } from './colors.js';
import {
  AGENT_COLUMNS,
  type AgentRow,
  agentLabel,
  agentRows,
  agentScoreCells,
} from './html/app/agent-rows.js';
import type { Report, ReportFinding, RuntimeSummary, TrialSummary } from './model.js';

// Terminal summary of an audit: the decision first, then the evidence behind it. Every string from the report
// may carry skill text, so each one passes through `reveal` (no terminal escapes, bidi or invisible characters
// reach the terminal) before colour is applied.

const TOP_FINDINGS = 10;
const EVIDENCE_LINES = 4;
const LINE_CHARS = 200;
const LIST_ITEMS = 8;

/** One line of untrusted text: hidden characters shown, newlines folded, length bounded. */
function line(text: string, max = LINE_CHARS): string {
  return clip(reveal(text).replace(/\n/g, ' ⏎ '), max);
}

/** The status as a coloured banner: the one word a reader looks for first. */
function statusBanner(status: Report['safety']['status'], c: Colors): string {
  const label = ` ${STATUS_LABEL[status].toUpperCase()} `;
  if (status === 'risky') return c.bold(c.bgRed(c.white(label)));
  if (status === 'caution') return c.bold(c.bgYellow(c.black(label)));
  return c.bold(c.bgGreen(c.black(label)));
}

function statusWord(report: Report, c: Colors): string {
  const word = STATUS_LABEL[report.safety.status].toUpperCase();
  if (report.safety.status === 'risky') return c.bold(c.red(word));
  if (report.safety.status === 'caution') return c.bold(c.yellow(word));
  return c.bold(c.green(word));
}

function severityTag(f: ReportFinding, c: Colors): string {
  const tag = f.severity.toUpperCase().padEnd(6);
  return f.severity === 'high' ? c.red(tag) : f.severity === 'medium' ? c.yellow(tag) : c.dim(tag);
}

function verdictTag(f: ReportFinding, c: Colors): string {
  const label = VERDICT_LABEL[f.verdict];
  if (f.verdict === 'confirmed') return c.bold(c.red(label));
  if (f.verdict === 'suspected') return c.yellow(label);
  return c.dim(label);
}

function heading(title: string, c: Colors): string {
  return c.bold(c.underline(title));
}

function renderFinding(f: ReportFinding, c: Colors): string[] {
  const out = [
    `  ${severityTag(f, c)} ${c.bold(`${f.pattern} ${patternById(f.pattern).name}`)}  ${c.cyan(line(findingLocation(f)))}  ${VERDICT_LABEL[f.verdict] ? `${verdictTag(f, c)}  ` : ''}${c.dim(`confidence ${f.confidence.toFixed(2)}`)}`,
    `         ${line(f.message)}`,
  ];
  const evidence = f.evidence.replace(/\r\n/g, '\n').split('\n');
  for (const e of evidence.slice(0, EVIDENCE_LINES)) out.push(`         ${c.dim('│')} ${line(e)}`);
  if (evidence.length > EVIDENCE_LINES)
    out.push(`         ${c.dim(`│ … ${evidence.length - EVIDENCE_LINES} more lines`)}`);
  if (f.rationale) out.push(`         ${c.dim(`why: ${line(f.rationale, 300)}`)}`);
  for (const ev of f.runtimeEvidence) out.push(`         ${c.magenta('runtime:')} ${line(ev.summary)}`);
  return out;
}

function renderFindings(report: Report, c: Colors): string[] {
  const { findings } = report.safety;
  const active = orderFindings(findings.filter((f) => !f.suppressed));
  const suppressed = findings.filter((f) => f.suppressed);
  const bySeverity = (s: ReportFinding['severity']) => active.filter((f) => f.severity === s).length;
  const out = [
    `${heading('Safety', c)}  ${statusWord(report, c)}  ${report.safety.decision.rating}/100  ` +
      c.dim(
        `${bySeverity('high')} high, ${bySeverity('medium')} medium, ${bySeverity('low')} low` +
          (suppressed.length ? `, ${suppressed.length} suppressed` : ''),
      ),
  ];
  for (const f of active.slice(0, TOP_FINDINGS)) out.push(...renderFinding(f, c));
  if (active.length > TOP_FINDINGS) {
    out.push(c.dim(`  … ${active.length - TOP_FINDINGS} more findings (--format html or json lists all)`));
  }
  for (const f of suppressed) {
    out.push(
      c.dim(
        `  suppressed (${f.suppressed!.by}): ${f.pattern} ${line(findingLocation(f))} — ${line(f.suppressed!.reason)}`,
      ),
    );
  }
  for (const note of report.safety.notes) out.push(c.dim(`  note: ${line(note)}`));
  return out;
}

function listed<T>(items: readonly T[], show: (item: T) => string, c: Colors): string[] {
  const out = items.slice(0, LIST_ITEMS).map((item) => `    ${show(item)}`);
  if (items.length > LIST_ITEMS) out.push(c.dim(`    … ${items.length - LIST_ITEMS} more`));
  return out;
}

function renderRuntime(runtime: RuntimeSummary, c: Colors): string[] {
  const out = [
    `${heading('Runtime evidence', c)}  ${c.dim(`${line(runtime.sandbox.backend)} sandbox; ${runtime.scriptsRun.length} script run(s)`)}`,
    ...(runtime.sandbox.limitsApplied.length
      ? [c.dim(`  limits: ${line(runtime.sandbox.limitsApplied.map(limitLabel).join(', '), 400)}`)]
      : []),
  ];
  const cov = runtime.coverage;
  if (cov) {
    // The headline first: a section built from runs that all crashed must not read as a clean bill.
    out.push(`  ${cov.completed === 0 ? c.yellow(line(cov.headline)) : line(cov.headline)}`);
    out.push(
      ...listed(
        cov.missing,
        (m) => `died on a missing ${m.kind} ${c.bold(line(m.name))} ${c.dim(`(${m.runs.length} run(s))`)}`,
        c,
      ),
      ...listed(cov.scriptsNotRun, (s) => `not run: ${line(s.file)}: ${c.dim(line(s.reason))}`, c),
      ...listed(cov.overBudget, (e) => `left out by the run budget: ${line(e)}`, c),
    );
    if (cov.shims.length) out.push(`  platform shims used: ${line(cov.shims.join(', '))}`);
    if (cov.standIns?.length)
      out.push(`  inert stand-ins for missing modules or tools: ${line(cov.standIns.join(', '))}`);
    for (const i of cov.installsCut ?? [])
      out.push(`  went on past an install that could not complete offline: ${line(i)}`);
    if (cov.provided?.length)
      out.push(`  provided because the skill asked: ${line(cov.provided.join(', '))}`);
  }
  for (const s of runtime.scriptsRun) {
    const end = s.timedOut ? c.yellow('timed out') : `exit ${s.exitCode ?? 'signal'}`;
    out.push(`  ran ${c.cyan(line(s.command))}  ${end}  ${c.dim(duration(s.wallMs))}`);
  }
  out.push(
    `  network attempts: ${runtime.network.length === 0 ? c.green('none') : c.red(String(runtime.network.length))}`,
  );
  out.push(
    ...listed(
      mergedAttempts(runtime.network),
      ({ item: n, count: times }) =>
        `${line(n.protocol)} ${c.bold(line(n.destination))}${times > 1 ? c.dim(` ×${times}`) : ''} ${n.blocked ? c.dim('(blocked)') : c.red('(connected)')}` +
        (n.bytes !== undefined ? c.dim(` ${bytes(n.bytes)}`) : '') +
        (n.canaries?.length ? ` ${c.red(`carried ${line(n.canaries.join(', '))}`)}` : ''),
      c,
    ),
  );
  out.push(
    `  canary hits: ${runtime.canaryHits.length === 0 ? c.green('none') : c.red(String(runtime.canaryHits.length))}`,
  );
  out.push(...listed(runtime.canaryHits, (h) => `${c.red(line(h.canary))} in ${line(h.where)}`, c));
  if (runtime.expectedCredentialUse?.length) {
    out.push(`  expected credential use: ${runtime.expectedCredentialUse.length}`);
    out.push(...listed(runtime.expectedCredentialUse, (u) => line(u), c));
  }
  out.push(
    `  files changed: ${runtime.filesChanged.length === 0 ? c.green('none') : String(runtime.filesChanged.length)}`,
  );
  out.push(...listed(runtime.filesChanged, (f) => `${f.change.padEnd(8)} ${line(f.path)}`, c));
  const processes = tally(runtime.processes, (p) => p.argv.join('\u0000'));
  out.push(`  processes: ${processes.length} distinct, ${runtime.processes.length} started`);
  out.push(
    ...listed(
      processes,
      ({ item, count: times }) => c.dim(`${line(item.argv.join(' '))}${times > 1 ? ` ×${times}` : ''}`),
      c,
    ),
  );
  return out;
}

function trialLine(label: string, t: TrialSummary): string {
  return `${label} ${t.passed}/${t.total} items in ${duration(t.timeMs)}, ${count(effectiveTokens(t.tokens))} effective input tokens`;
}

function renderUtility(report: Report, c: Colors): string[] {
  const u = report.utility!;
  const valid = u.scenarios.filter((s) => s.valid).length;
  const out = [
    `${heading('Utility', c)}  ${c.dim(`${u.scenarios.length} scenario(s), ${valid} valid`)}`,
    `  pass-rate gain ${c.bold(signedPercent(u.prg))}   efficiency gain ${c.bold(signedPercent(u.eg))} (${timeSaving(u.deltaT)})   cost gain ${c.bold(signedPercent(u.cg))} (${tokenSaving(u.deltaQ)})   combined ${c.bold(signedPercent(u.ecg))}`,
  ];
  if (u.ceiling)
    out.push(
      c.dim('  the agent already passes these scenarios without the skill: no headroom to measure a gain'),
    );
  for (const s of u.scenarios) {
    out.push(
      `  ${c.bold(line(s.id, 60))}  ${s.valid ? `pass-rate gain ${signedPercent(s.prg)}` : c.yellow(`invalid: ${line(s.invalidReason ?? 'unknown')}`)}`,
    );
    out.push(`    ${c.dim(line(s.instruction, 160))}`);
    out.push(
      `    ${trialLine('with skill:   ', s.withSkill)}${s.withSkill.skillLoaded === false ? c.yellow(' (skill not loaded)') : ''}`,
    );
    out.push(`    ${trialLine('without skill:', s.noSkill)}`);
  }
  return out;
}

/** Display width for padding: combining marks (the tilde of Δq̃) take no column. */
function columns(text: string): number {
  return Array.from(text.replace(/\p{M}/gu, '')).length;
}

/** One row per agent of a multi-agent audit, columns padded to line up (names bounded and revealed). */
function renderAgents(rows: readonly AgentRow[], c: Colors): string[] {
  const table = rows.map((r) => [line(agentLabel(r), 60), line(r.model ?? '?', 60), ...agentScoreCells(r)]);
  const widths = AGENT_COLUMNS.map((h, i) =>
    Math.max(columns(h), ...table.map((cells) => columns(cells[i]!))),
  );
  const row = (cells: readonly string[]) =>
    `  ${cells.map((cell, i) => cell + ' '.repeat(Math.max(0, widths[i]! - columns(cell)))).join('  ')}`.trimEnd();
  return [
    `  ${c.bold('By agent')}  ${c.dim(`${rows.length} agent configurations`)}`,
    c.dim(row(AGENT_COLUMNS)),
    ...table.map(row),
  ];
}

function renderQuality(report: Report, c: Colors): string[] {
  const q = report.quality!;
  const out = [
    `${heading('Quality', c)}  overall ${c.bold(percent(q.overall))}  ${c.dim(`static ${percent(q.groups.static)}, dynamic ${percent(q.groups.dynamic)}, rubric ${percent(q.groups.rubric)}`)}`,
  ];
  for (const d of q.dimensions) {
    const bar =
      d.score === null
        ? ''
        : `${'█'.repeat(Math.round(d.score * 20))}${'░'.repeat(20 - Math.round(d.score * 20))}`;
    const value =
      d.score === null ? c.dim(`not run: ${line(d.reason ?? d.status)}`) : `${bar} ${percent(d.score)}`;
    out.push(`  ${line(d.name, 40).padEnd(38)} ${value}`);
  }
  return out;
}

function notRunLines(
  report: Report,
  section: 'Runtime evidence' | 'Utility' | 'Quality',
  c: Colors,
): string[] {
  return [`${heading(section, c)}  ${c.dim(`not run: ${line(notRunReason(report, section))}`)}`];
}

export function renderReportText(report: Report, c: Colors): string {
  const { skill, verdict } = report;
  const agents = agentRows(report.configuration);
  const out: string[] = [
    `${statusBanner(verdict.status, c)}  ${c.bold(line(skill.name, 80))}  ${c.dim(line(skill.path, 120))}`,
    c.bold(STATUS_ADVICE[verdict.status]),
    ...verdict.reasons.map((r) => `  • ${line(r, 300)}`),
    '',
    ...renderFindings(report, c),
    '',
    ...(report.runtime ? renderRuntime(report.runtime, c) : notRunLines(report, 'Runtime evidence', c)),
    '',
    ...(report.utility ? renderUtility(report, c) : notRunLines(report, 'Utility', c)),
    ...(agents.length ? renderAgents(agents, c) : []),
    '',
    ...(report.quality ? renderQuality(report, c) : notRunLines(report, 'Quality', c)),
  ];
  if (report.notRun.length) {
    out.push('', heading('Not run', c));
    for (const n of report.notRun) out.push(`  ${line(n.stage, 80)}: ${c.dim(line(n.reason))}`);
  }
  if (skill.diagnostics.length) {
    out.push('', heading('Spec and intake diagnostics', c));
    const diagnostic = (d: Report['skill']['diagnostics'][number]) => {
      const where = d.file ? ` ${c.cyan(line(d.line ? `${d.file}:${d.line}` : d.file))}` : '';
      return `${c.yellow(d.level)} ${line(d.code, 60)}${where}: ${line(d.message)}`;
    };
    out.push(...listed(skill.diagnostics, diagnostic, c).map((l) => l.slice(2)));
  }
  const p = skill.provenance;
  out.push(
    '',
    c.dim(
      `skill ${skill.id.slice(0, 12)} from ${p.source} ${line(p.uri, 160)}` +
        (p.commit ? `@${line(p.commit, 40).slice(0, 12)}` : p.ref ? `@${line(p.ref, 60)}` : '') +
        `  ·  ${report.tool.name} ${line(report.tool.version, 40)}  ·  ${line(when(report.generatedAt), 40)}`,
    ),
  );
  return `${out.join('\n')}\n`;
}
