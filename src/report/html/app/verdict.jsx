/** @import { Report } from '../../model.js' */
import {
  notRunReason,
  percent,
  RECOMMENDATION_LABEL,
  RECOMMENDATION_MEANING,
  STATUS_LABEL,
  signedPercent,
  timeSaving,
  tokenSaving,
} from './format.js';
import { Txt } from './text.jsx';

const RECOMMENDATION_CLASS = { adopt: 'good', 'test first': 'warn', 'do not install': 'bad' };
const STATUS_CLASS = { pass: 'good', caution: 'warn', risky: 'bad' };

/** @param {number | null} value */
function gainClass(value) {
  if (value === null) return 'muted';
  return value > 0.005 ? 'good' : value < -0.005 ? 'bad' : 'muted';
}

/** @param {{ label: string, value: string, tone: string, detail: import('preact').ComponentChildren }} props */
function Tile({ label, value, tone, detail }) {
  return (
    <div class={`tile tone-${tone}`}>
      <div class="tile-label">{label}</div>
      <div class="tile-value">{value}</div>
      <div class="tile-detail">{detail}</div>
    </div>
  );
}

/** The decision and the numbers behind it, above the fold. @param {{ report: Report }} props */
export function Verdict({ report }) {
  const { verdict, safety, utility: u, quality: q } = report;
  const active = safety.findings.filter((f) => !f.suppressed);
  const n = (/** @type {string} */ s) => active.filter((f) => f.severity === s).length;
  const tone = RECOMMENDATION_CLASS[verdict.recommendation];
  return (
    <section class={`verdict tone-${tone}`} id="verdict" aria-label="Verdict">
      <div class="verdict-main">
        <div class={`recommendation tone-${tone}`} data-testid="recommendation">
          {RECOMMENDATION_LABEL[verdict.recommendation]}
        </div>
        <p class="headline" data-testid="headline">
          <Txt value={verdict.headline} max={600} />
        </p>
        <p class="meaning">{RECOMMENDATION_MEANING[verdict.recommendation]}</p>
        {verdict.reasons.length ? (
          <ul class="reasons">
            {verdict.reasons.map((r, i) => (
              <li key={i}>
                <Txt value={r} max={600} />
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <div class="tiles">
        <Tile
          label="Safety"
          value={STATUS_LABEL[safety.status]}
          tone={STATUS_CLASS[safety.status]}
          detail={`score ${safety.score} / 100 · ${n('high')} high · ${n('medium')} medium · ${n('low')} low`}
        />
        {u ? (
          <>
            <Tile
              label="Utility gain"
              value={signedPercent(u.prg)}
              tone={gainClass(u.prg)}
              detail={
                u.ceiling ? 'no headroom: passes without the skill' : 'checklist items passed vs no skill'
              }
            />
            <Tile
              label="Efficiency gain"
              value={signedPercent(u.eg)}
              tone={gainClass(u.eg)}
              detail={timeSaving(u.deltaT)}
            />
            <Tile
              label="Cost gain"
              value={signedPercent(u.cg)}
              tone={gainClass(u.cg)}
              detail={tokenSaving(u.deltaQ)}
            />
          </>
        ) : (
          <Tile
            label="Utility"
            value="not run"
            tone="muted"
            detail={<Txt value={notRunReason(report, 'Utility')} max={160} />}
          />
        )}
        {q ? (
          <Tile
            label="Quality"
            value={percent(q.overall)}
            tone="neutral"
            detail={`static ${percent(q.groups.static)} · dynamic ${percent(q.groups.dynamic)} · rubric ${percent(q.groups.rubric)}`}
          />
        ) : (
          <Tile
            label="Quality"
            value="not run"
            tone="muted"
            detail={<Txt value={notRunReason(report, 'Quality')} max={160} />}
          />
        )}
      </div>
    </section>
  );
}
