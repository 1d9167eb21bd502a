/** @import { BatchSummary } from '../summary-model.js' */
import { count, STATUS_LABEL, STATUS_TONE } from '../../core/format.js';
import { Tile } from '../../core/ui.jsx';
import { VERDICT_STATUSES as STATUSES } from '../../core/verdict-words.js';
import { score, share } from './numbers.js';

/** The corpus at a glance: how many skills, how they came out, the score. @param {{ summary: BatchSummary }} props */
export function Headline({ summary }) {
  const { counts, statuses } = summary;
  const other = counts.otherConfiguration
    ? ` · ${count(counts.otherConfiguration)} under another configuration (left out)`
    : '';
  return (
    <section class="headline-tiles" id="overview" aria-label="Overview">
      <div data-testid="tile-audited">
        <Tile
          label="Skills audited"
          value={count(counts.audited)}
          tone="neutral"
          detail={`of ${count(counts.total)} in the batch${other}`}
        />
      </div>
      <div data-testid="tile-failed">
        <Tile
          label="Failed"
          value={count(counts.failed)}
          tone={counts.failed ? 'bad' : 'muted'}
          detail={counts.failed ? 'could not be audited: see Failures' : 'every skill was audited'}
        />
      </div>
      {STATUSES.map((s) => (
        <div data-testid={`tile-${s}`} key={s}>
          <Tile
            label={STATUS_LABEL[s]}
            value={count(statuses[s])}
            tone={STATUS_TONE[s]}
            detail={`${share(counts.audited ? statuses[s] / counts.audited : null)} of audited skills`}
          />
        </div>
      ))}
      <div data-testid="tile-score">
        <Tile
          label="Safety"
          value={score(summary.scoreMean)}
          tone="neutral"
          detail={`mean · median ${score(summary.scoreMedian)} (pass 70–100, caution 40–69, risky 0–39)`}
        />
      </div>
    </section>
  );
}
