/** @import { BatchSummary } from '../summary-model.js' */
import { Fragment } from 'preact';
import { count, when } from '../../core/format.js';
import { Code, Section, Txt } from '../../core/ui.jsx';
import { compact, millis, usd } from './numbers.js';

// How the batch ran: its configuration (free-form settings recorded by the batch), what it cost, how long.

/** A setting's value as text: strings as they are, anything else as compact JSON. @param {unknown} value */
function settingText(value) {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** @param {{ summary: BatchSummary }} props */
export function Run({ summary }) {
  const { configuration: config, cost, time } = summary;
  const settings = config ? Object.entries(config).filter(([k]) => k !== 'key' && k !== 'stages') : [];
  const stages = Object.entries(time.byStage);
  return (
    <Section id="run" title="The run" aside={`summary written ${when(summary.generatedAt)}`}>
      <div class="evidence-grid">
        <div class="evidence-block" data-testid="configuration">
          <h3>Configuration</h3>
          {config ? (
            <dl class="facts">
              <dt>key</dt>
              <dd>
                <Code value={settingText(config.key)} max={80} />
              </dd>
              <dt>stages</dt>
              <dd>
                {Array.isArray(config.stages) && config.stages.length ? (
                  <Txt value={config.stages.map(settingText).join(', ')} max={200} />
                ) : (
                  'none recorded'
                )}
              </dd>
              {settings.map(([k, v]) => (
                <Fragment key={k}>
                  <dt>
                    <Txt value={k} max={60} />
                  </dt>
                  <dd>
                    <Code value={settingText(v)} max={400} />
                  </dd>
                </Fragment>
              ))}
            </dl>
          ) : (
            <p class="muted">The batch folder records no configuration.</p>
          )}
        </div>
        <div class="evidence-block" data-testid="cost">
          <h3>Cost</h3>
          <dl class="facts">
            <dt>model spending</dt>
            <dd>{usd(cost.usd)}</dd>
            <dt>model calls</dt>
            <dd>{count(cost.calls)}</dd>
            <dt>input tokens</dt>
            <dd>{compact(cost.inputTokens)}</dd>
            <dt>output tokens</dt>
            <dd>{compact(cost.outputTokens)}</dd>
          </dl>
          {cost.calls === 0 ? <p class="muted small">Keyless: no model was called.</p> : null}
        </div>
        <div class="evidence-block" data-testid="time">
          <h3>Time</h3>
          <dl class="facts">
            <dt>audit time, all skills</dt>
            <dd>{millis(time.totalMs)}</dd>
            <dt>per skill: mean</dt>
            <dd>{millis(time.meanMs)}</dd>
            <dt>median · 95th percentile</dt>
            <dd>
              {millis(time.p50Ms)} · {millis(time.p95Ms)}
            </dd>
            {stages.map(([stage, ms]) => (
              <Fragment key={stage}>
                <dt>
                  stage <Txt value={stage} max={40} />
                </dt>
                <dd>{millis(ms)}</dd>
              </Fragment>
            ))}
          </dl>
        </div>
      </div>
    </Section>
  );
}
