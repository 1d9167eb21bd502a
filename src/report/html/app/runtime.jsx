/** @import { RuntimeSummary } from '../../model.js' */
import { bytes, duration, limitLabel, mergedAttempts, tally } from '../../../core/format.js';
import { Code, Section, Txt } from '../../../core/ui.jsx';

/** @param {{ title: string, n: number, alarming?: boolean, wide?: boolean, children: import('preact').ComponentChildren }} props */
function Block({ title, n, alarming = false, wide = false, children }) {
  return (
    <div
      class={`evidence-block${wide ? ' wide' : ''}`}
      data-testid={`runtime-${title.toLowerCase().replace(/\s+/g, '-')}`}
    >
      <h3>
        {title}{' '}
        <span class={`count ${n > 0 && alarming ? 't-bad' : n === 0 ? 't-good' : ''}`}>
          {n === 0 ? 'none' : n}
        </span>
      </h3>
      {n > 0 ? children : null}
    </div>
  );
}

const SHOWN_ROWS = 12;

/** @param {{ rows: { item: RuntimeSummary['network'][number], count: number }[] }} props */
function NetworkRows({ rows }) {
  return (
    <tbody>
      {rows.map(({ item: a, count: times }, i) => (
        <tr key={i}>
          <td>
            <Code value={a.destination} max={300} />
            {times > 1 ? <span class="muted"> ×{times}</span> : null}
          </td>
          <td>
            <Txt value={a.protocol} max={20} />
          </td>
          <td>
            {a.blocked ? 'blocked' : <strong class="t-bad">connected</strong>}
            {a.bytes !== undefined ? ` · ${bytes(a.bytes)}` : ''}
          </td>
          <td class="t-bad">
            {a.canaries?.length ? (
              <Txt value={a.canaries.join(', ')} max={300} />
            ) : (
              <span class="muted">—</span>
            )}
          </td>
        </tr>
      ))}
    </tbody>
  );
}

/** Every connection attempt; repeats merged, long lists folded. @param {{ attempts: RuntimeSummary['network'] }} props */
function NetworkTable({ attempts }) {
  const rows = mergedAttempts(attempts);
  const head = (
    <thead>
      <tr>
        <th>destination</th>
        <th>protocol</th>
        <th>outcome</th>
        <th>carried</th>
      </tr>
    </thead>
  );
  return (
    <div class="table-scroll">
      <table>
        {head}
        <NetworkRows rows={rows.slice(0, SHOWN_ROWS)} />
      </table>
      {rows.length > SHOWN_ROWS ? (
        <details>
          <summary>{rows.length - SHOWN_ROWS} more destinations</summary>
          <table>
            {head}
            <NetworkRows rows={rows.slice(SHOWN_ROWS)} />
          </table>
        </details>
      ) : null}
    </div>
  );
}

/**
 * The processes the runs started, each command line once with how often it ran (every run of a script
 * starts the same interpreter again).
 * @param {{ processes: { argv: string[] }[] }} props
 */
function Processes({ processes }) {
  const merged = tally(processes, (p) => p.argv.join('\u0000'));
  return (
    <details class="processes" open={merged.length <= 8} data-testid="runtime-processes">
      <summary>
        Processes ({merged.length} distinct
        {merged.length < processes.length ? `, ${processes.length} started` : ''})
      </summary>
      <ol>
        {merged.map((m, i) => (
          <li key={i}>
            <Code value={m.item.argv.join(' ')} max={1000} />
            {m.count > 1 ? <span class="muted"> ×{m.count}</span> : null}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** What the skill's own scripts did in the sandbox. @param {{ runtime: RuntimeSummary }} props */
export function Runtime({ runtime }) {
  return (
    <Section
      id="runtime"
      title="Runtime evidence"
      aside={
        <>
          <Txt value={runtime.sandbox.backend} max={60} /> sandbox
          {runtime.sandbox.limitsApplied.length ? (
            <>
              {' · '}
              <Txt value={runtime.sandbox.limitsApplied.map(limitLabel).join(', ')} max={300} />
            </>
          ) : null}
        </>
      }
    >
      {runtime.coverage ? (
        <p class={runtime.coverage.completed === 0 ? 't-warn' : 'muted'} data-testid="runtime-coverage">
          <Txt value={runtime.coverage.headline} max={600} />
        </p>
      ) : null}
      <div class="evidence-grid">
        <Block title="Network attempts" n={runtime.network.length} alarming wide>
          <NetworkTable attempts={runtime.network} />
        </Block>
        <Block title="Canary hits" n={runtime.canaryHits.length} alarming>
          <ul>
            {runtime.canaryHits.map((h, i) => (
              <li key={i}>
                <Code value={h.canary} max={80} /> in <Txt value={h.where} max={400} />
              </li>
            ))}
          </ul>
        </Block>
        {runtime.expectedCredentialUse?.length ? (
          <Block title="Expected credential use" n={runtime.expectedCredentialUse.length}>
            <ul>
              {runtime.expectedCredentialUse.map((u, i) => (
                <li key={i}>
                  <Txt value={u} max={400} />
                </li>
              ))}
            </ul>
          </Block>
        ) : null}
        <Block title="Files changed" n={runtime.filesChanged.length}>
          <ul>
            {runtime.filesChanged.map((f, i) => (
              <li key={i}>
                <span class={`chip change-${f.change}`}>{f.change}</span> <Code value={f.path} max={400} />
              </li>
            ))}
          </ul>
        </Block>
        <Block title="Scripts run" n={runtime.scriptsRun.length}>
          <ul>
            {runtime.scriptsRun.map((s, i) => (
              <li key={i}>
                <Code value={s.command} max={400} />{' '}
                <span class="muted">
                  {s.timedOut ? 'timed out' : `exit ${s.exitCode ?? 'by signal'}`} · {duration(s.wallMs)}
                </span>
              </li>
            ))}
          </ul>
        </Block>
      </div>
      <Processes processes={runtime.processes} />
    </Section>
  );
}
