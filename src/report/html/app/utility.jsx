/** @import { ScenarioResult, TrialSummary, UtilitySummary } from '../../model.js' */
/** @import { AgentRow } from './agent-rows.js' */

import { count, duration, effectiveTokens, signedPercent } from '../../../core/format.js';
import { Code, Section, Txt } from '../../../core/ui.jsx';
import { AGENT_COLUMNS, agentRows, agentScoreCells } from './agent-rows.js';

/** @param {{ value: boolean | null }} props */
function Check({ value }) {
  if (value === null)
    return (
      <span class="check check-none" title="no result">
        —
      </span>
    );
  return value ? (
    <span class="check check-pass" title="passed">
      ✓
    </span>
  ) : (
    <span class="check check-fail" title="failed">
      ✗
    </span>
  );
}

/** @param {{ label: string, t: TrialSummary }} props */
function TrialColumn({ label, t }) {
  return (
    <div class="trial">
      <h4>{label}</h4>
      <div class="trial-score">
        {t.passed}/{t.total} <span class="muted">items</span>
      </div>
      <dl>
        <dt>time</dt>
        <dd>{duration(t.timeMs)}</dd>
        <dt>effective input</dt>
        <dd>{count(effectiveTokens(t.tokens))} tokens</dd>
        <dt>input · cached · output</dt>
        <dd>
          {count(t.tokens.input)} · {count(t.tokens.cached)} · {count(t.tokens.output)}
        </dd>
        {t.skillLoaded !== null ? (
          <>
            <dt>skill loaded</dt>
            <dd class={t.skillLoaded ? '' : 't-warn'}>{t.skillLoaded ? 'yes' : 'no'}</dd>
          </>
        ) : null}
        <dt>agent</dt>
        <dd>
          <Txt value={t.agent} max={120} />
        </dd>
        <dt>trajectory</dt>
        <dd>
          <Code value={t.trajectory} max={300} />
        </dd>
      </dl>
    </div>
  );
}

/** @param {{ s: ScenarioResult }} props */
function Scenario({ s }) {
  return (
    <article class="scenario" data-testid="scenario">
      <header class="scenario-head">
        <Code value={s.id} max={120} />
        {s.valid ? (
          <span class="chip tone-neutral">pass-rate gain {signedPercent(s.prg)}</span>
        ) : (
          <span class="chip tone-warn">
            invalid: <Txt value={s.invalidReason ?? 'unknown'} max={200} />
          </span>
        )}
      </header>
      <blockquote class="instruction">
        <Txt value={s.instruction} max={2000} />
      </blockquote>
      <div class="side-by-side">
        <TrialColumn label="With skill" t={s.withSkill} />
        <TrialColumn label="Without skill" t={s.noSkill} />
      </div>
      <table class="checklist">
        <thead>
          <tr>
            <th>checklist item</th>
            <th>with</th>
            <th>without</th>
          </tr>
        </thead>
        <tbody>
          {s.checklist.map((c, i) => (
            <tr key={i}>
              <td>
                <Txt value={c.item} max={600} />
                {c.evidence ? (
                  <div class="muted small">
                    <Txt value={c.evidence} max={600} />
                  </div>
                ) : null}
              </td>
              <td>
                <Check value={c.withSkill} />
              </td>
              <td>
                <Check value={c.noSkill} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}

// styles.css is shared with other sections: this table's few layout needs are inline (the CSP allows it).
const NUM_CELL = { textAlign: 'right', whiteSpace: 'nowrap' };

/** One row per agent of a multi-agent audit (shown only for two or more). @param {{ rows: AgentRow[] }} props */
function ByAgent({ rows }) {
  return (
    <div class="by-agent" data-testid="utility-by-agent" style={{ marginBottom: '16px' }}>
      <h3>By agent</h3>
      <div class="table-scroll">
        <table>
          <thead>
            <tr>
              {AGENT_COLUMNS.map((h, i) => (
                <th key={h} style={i >= 2 ? NUM_CELL : {}}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                <td>
                  <Code value={r.agent} max={80} />
                  {r.harness ? (
                    <div class="muted small">
                      <Txt value={r.harness} max={120} />
                    </div>
                  ) : null}
                </td>
                <td>
                  <Txt value={r.model ?? '?'} max={120} />
                </td>
                {agentScoreCells(r).map((cell, j) => (
                  <td class="num" style={NUM_CELL} key={j}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** @param {{ utility: UtilitySummary, configuration: unknown }} props */
export function Utility({ utility, configuration }) {
  const valid = utility.scenarios.filter((s) => s.valid).length;
  const byAgent = agentRows(configuration);
  return (
    <Section
      id="scenarios"
      title="Scenarios: with skill vs without"
      aside={`${utility.scenarios.length} scenario(s), ${valid} valid · combined gain ${signedPercent(utility.ecg)}`}
    >
      {utility.ceiling ? (
        <p class="note">The agent already passes these scenarios without the skill, so no gain can show.</p>
      ) : null}
      {byAgent.length ? <ByAgent rows={byAgent} /> : null}
      {utility.scenarios.map((s, i) => (
        <Scenario s={s} key={i} />
      ))}
    </Section>
  );
}
