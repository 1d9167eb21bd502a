/** @import { Report, ReportFinding } from '../../model.js' */

import { findingLocation, orderFindings, tally, VERDICT_LABEL } from '../../../core/format.js';
import { PATTERNS } from '../../../core/taxonomy.js';
import { Code, CodeBlock, Section, Txt } from '../../../core/ui.jsx';

const VERDICT_TONE = {
  confirmed: 'bad',
  suspected: 'warn',
  no_probe: 'muted',
  path_exists_not_triggered: 'muted',
  agent_refused: 'good',
  likely_false_positive: 'good',
};

const PATTERN_NAMES = Object.fromEntries(PATTERNS.map((p) => [p.id, p.name]));

const SHOWN_REFS = 5;

/** @param {{ r: ReportFinding['runtimeEvidence'][number], count: number }} props */
function RuntimeRef({ r, count }) {
  return (
    <li>
      <span class="chip chip-muted">
        <Txt value={r.kind} max={40} />
      </span>{' '}
      <Txt value={r.summary} max={600} />
      {count > 1 ? <span class="muted"> ×{count}</span> : null}
      {/* The artifact is named once: many summaries already end with its path. */}
      {r.artifact && !r.summary.includes(r.artifact) ? (
        <>
          {' '}
          <Code value={r.artifact} max={300} />
        </>
      ) : null}
    </li>
  );
}

/**
 * Runtime evidence behind a finding: repeats merged, the rest folded away, coloured by what the runtime
 * showed (red only when it confirmed the finding; a run that did not trigger it is neutral).
 * @param {{ refs: ReportFinding['runtimeEvidence'], verdict: ReportFinding['verdict'] }} props
 */
function RuntimeRefs({ refs, verdict }) {
  const merged = tally(refs, (r) => `${r.kind}\u0000${r.summary}\u0000${r.artifact ?? ''}`);
  return (
    <div class={`runtime-refs tone-${VERDICT_TONE[verdict]}`} data-testid="runtime-refs">
      <ul>
        {merged.slice(0, SHOWN_REFS).map((m, i) => (
          <RuntimeRef r={m.item} count={m.count} key={i} />
        ))}
      </ul>
      {merged.length > SHOWN_REFS ? (
        <details>
          <summary>{merged.length - SHOWN_REFS} more runtime records</summary>
          <ul>
            {merged.slice(SHOWN_REFS).map((m, i) => (
              <RuntimeRef r={m.item} count={m.count} key={i} />
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

/** @param {{ f: ReportFinding }} props */
function FindingCard({ f }) {
  return (
    <article class={`finding sev-${f.severity}`} data-testid="finding" data-pattern={f.pattern}>
      <header class="finding-head">
        <span class={`sev sev-${f.severity}`}>{f.severity}</span>
        <span class="pattern">
          {f.pattern} {PATTERN_NAMES[f.pattern] ?? 'Unknown pattern'}
        </span>
        <Code value={findingLocation(f)} max={300} />
        {VERDICT_LABEL[f.verdict] ? (
          <span class={`chip tone-${VERDICT_TONE[f.verdict]}`} data-testid="finding-verdict">
            {VERDICT_LABEL[f.verdict]}
          </span>
        ) : null}
        <span class="confidence" title="how sure the scan is that the risk is there">
          confidence {f.confidence.toFixed(2)}
          {f.verdict === 'no_probe' ? '' : ` · exploitability ${f.exploitConfidence.toFixed(2)}`}
        </span>
      </header>
      <p class="finding-message">
        <Txt value={f.message} max={600} />
      </p>
      <CodeBlock text={f.evidence} firstLine={f.line} />
      {f.rationale ? (
        <p class="rationale">
          <span class="label">Why</span> <Txt value={f.rationale} max={1200} />
        </p>
      ) : null}
      {f.runtimeEvidence.length ? <RuntimeRefs refs={f.runtimeEvidence} verdict={f.verdict} /> : null}
      <footer class="finding-foot">
        rule <Code value={f.rule} max={120} />
        {f.suppressed ? (
          <>
            {' '}
            · suppressed by {f.suppressed.by}: <Txt value={f.suppressed.reason} max={400} />
          </>
        ) : null}
      </footer>
    </article>
  );
}

/** @param {{ report: Report }} props */
export function Findings({ report }) {
  const ordered = orderFindings(report.safety.findings);
  const active = ordered.filter((f) => !f.suppressed);
  const suppressed = ordered.filter((f) => f.suppressed);
  return (
    <Section
      id="findings"
      title="Findings"
      aside={`${active.length} active${suppressed.length ? `, ${suppressed.length} suppressed` : ''} · finding score ${report.safety.score} / 100`}
    >
      {active.length === 0 ? <p class="empty">No active findings.</p> : null}
      {active.map((f, i) => (
        <FindingCard f={f} key={i} />
      ))}
      {suppressed.length ? (
        <details class="suppressed">
          <summary>{suppressed.length} suppressed finding(s)</summary>
          {suppressed.map((f, i) => (
            <FindingCard f={f} key={i} />
          ))}
        </details>
      ) : null}
      {report.safety.notes.length ? (
        <ul class="notes">
          {report.safety.notes.map((n, i) => (
            <li key={i}>
              <Txt value={n} />
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}
