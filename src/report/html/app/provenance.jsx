/** @import { Report } from '../../model.js' */
import { bytes, when } from '../../../core/format.js';
import { Code, MaybeLink, Section, Txt } from '../../../core/ui.jsx';

/** @param {{ report: Report }} props */
export function NotRunList({ report }) {
  return (
    <Section id="not-run" title="What was not run, and why">
      {report.notRun.length === 0 ? (
        <p class="empty">Every stage ran.</p>
      ) : (
        <ul class="not-run-list" data-testid="not-run">
          {report.notRun.map((n, i) => (
            <li key={i}>
              <strong>
                <Txt value={n.stage} max={120} />
              </strong>
              : <Txt value={n.reason} max={600} />
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** @param {{ label: string, children: import('preact').ComponentChildren }} props */
function Row({ label, children }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** @param {{ value: string | null }} props */
function Opt({ value }) {
  return value === null ? <span class="muted">—</span> : <Code value={value} max={300} />;
}

/** @param {{ report: Report }} props */
export function Provenance({ report }) {
  const { skill, tool } = report;
  const p = skill.provenance;
  return (
    <Section id="provenance" title="Provenance and versions">
      <dl class="facts">
        <Row label="source">
          {p.source} <MaybeLink value={p.uri} />
        </Row>
        <Row label="ref · commit">
          <Opt value={p.ref} /> · <Opt value={p.commit} />
        </Row>
        <Row label="path in source">
          <Code value={p.subdir} max={300} />
        </Row>
        <Row label="owner · category">
          <Opt value={p.owner} /> · <Opt value={p.category} />
        </Row>
        <Row label="content id">
          <Code value={skill.id} max={64} />
        </Row>
        <Row label="generated">
          <time dateTime={report.generatedAt}>{when(report.generatedAt)}</time> by {tool.name}{' '}
          <Txt value={tool.version} max={40} />
        </Row>
      </dl>
      {skill.diagnostics.length ? (
        <>
          <h3>Spec and intake diagnostics</h3>
          <ul class="notes">
            {skill.diagnostics.map((d, i) => (
              <li key={i}>
                <span class={`chip level-${d.level}`}>{d.level}</span> <Code value={d.code} max={80} />
                {d.file ? (
                  <>
                    {' '}
                    <Code value={d.line ? `${d.file}:${d.line}` : d.file} max={300} />
                  </>
                ) : null}{' '}
                <Txt value={d.message} max={600} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <details>
        <summary>Files ({skill.files.length})</summary>
        <div class="table-scroll">
          <table class="files">
            <thead>
              <tr>
                <th>path</th>
                <th>kind</th>
                <th>language</th>
                <th class="num">size</th>
                <th>sha256</th>
              </tr>
            </thead>
            <tbody>
              {skill.files.map((f, i) => (
                <tr key={i}>
                  <td>
                    <Code value={f.path} max={300} />
                  </td>
                  <td>
                    <Txt value={f.kind} max={20} />
                  </td>
                  <td>
                    <Txt value={f.language ?? '—'} max={30} />
                  </td>
                  <td class="num" title={`${f.size} bytes`}>
                    {bytes(f.size)}
                  </td>
                  <td>
                    {f.sha256 ? <Code value={f.sha256.slice(0, 16)} /> : <span class="muted">not read</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
      <details>
        <summary>Configuration</summary>
        <pre class="code config">
          <Txt value={JSON.stringify(report.configuration, null, 2)} max={20000} />
        </pre>
      </details>
    </Section>
  );
}
