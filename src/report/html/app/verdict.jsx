/** @import { Report } from '../../model.js' */
import {
  notRunReason,
  percent,
  STATUS_ADVICE,
  STATUS_LABEL,
  STATUS_TONE,
  signedPercent,
  timeSaving,
  tokenSaving,
} from '../../../core/format.js';
import { Tile, Txt } from '../../../core/ui.jsx';

/** @param {number | null} value */
function gainClass(value) {
  if (value === null) return 'muted';
  return value > 0.005 ? 'good' : value < -0.005 ? 'bad' : 'muted';
}

/** The decision and the numbers behind it, above the fold. @param {{ report: Report }} props */
export function Verdict({ report }) {
  const { verdict, safety, utility: u, quality: q } = report;
  const active = safety.findings.filter((f) => !f.suppressed);
  const n = (/** @type {string} */ s) => active.filter((f) => f.severity === s).length;
  const tone = STATUS_TONE[verdict.status];
  return (
    <section class={`verdict tone-${tone}`} id="verdict" aria-label="Verdict">
      <div class="verdict-main">
        <div class={`status-banner tone-${tone}`} data-testid="status">
          {STATUS_LABEL[verdict.status]}
        </div>
        <p class="headline" data-testid="advice">
          {STATUS_ADVICE[verdict.status]}
        </p>
        {verdict.reasons.length ? (
          <ul class="reasons">
            {verdict.reasons.map((r, i) => (
              <li key={i} data-testid="reason">
                <Txt value={r} max={600} />
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <div class="tiles">
        <Tile
          label="Safety"
          value={`${safety.decision.rating} / 100`}
          tone={STATUS_TONE[safety.status]}
          detail={`${n('high')} high · ${n('medium')} medium · ${n('low')} low · finding score ${safety.score}`}
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
