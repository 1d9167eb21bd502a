// Trains the verdict model (src/score/verdict-model.json) on labelled real skills: `npm run train:verdict
// [-- <corpus>...]`. Default: the development corpus beside the checkout (../shared/corpus) alone; the team's
// eval/verdicts stays out, so bench/verdicts.ts measures on skills the model never saw. Writes the weights, the
// thresholds and where they came from (the scanner's digest, the leave-one-source-out figures), and a frozen
// snapshot of the feature rows that test/unit/score/verdict-model.test.ts refits to the same model. Never run
// on acceptance sets: figures on data the model was fitted on are not evidence.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadLabelledCorpus, scanLabelled } from '../src/cli/eval-verdicts.js';
import { scanSource } from '../src/scan/source/scan-source.js';
import { SNAPSHOT_FILE, scannerDigest } from './verdict-provenance.js';
import {
  crossSource,
  DEFAULT_L2,
  DEFAULT_TARGETS,
  featureRows,
  fitRows,
  type LabelledSkill,
  metrics,
  namedWeights,
  predictAll,
} from '../src/score/verdict-eval.js';

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const out = outIndex >= 0 ? args.splice(outIndex, 2)[1]! : 'src/score/verdict-model.json';
const corpora = args.length ? args : ['../shared/corpus'];

const samples: LabelledSkill[] = [];
const provenance: Record<string, unknown>[] = [];
for (const dir of corpora) {
  const corpus = loadLabelledCorpus(dir);
  const { samples: got, errors } = await scanLabelled(corpus, (root) => scanSource(root));
  if (Object.keys(errors).length) {
    console.error(`${dir}: ${Object.keys(errors).length} skill(s) could not be scanned:`, errors);
    process.exit(2);
  }
  samples.push(...got);
  const manifest = join(dir, 'manifest.json');
  const count = (label: string) => got.filter((s) => s.label === label).length;
  provenance.push({
    corpus: dir,
    ...(existsSync(manifest)
      ? { manifestSha256: createHash('sha256').update(readFileSync(manifest)).digest('hex') }
      : {}),
    skills: got.length,
    malicious: count('malicious'),
    risky: count('risky'),
    benign: count('benign'),
    sources: new Set(got.map((s) => s.source)).size,
  });
  console.error(`${dir}: ${got.length} skills scanned`);
}

// Rounded as the snapshot stores them, so that refitting the snapshot gives this model to the last digit.
const rows = featureRows(samples).map((r) => ({ ...r, values: r.values.map((v) => Math.round(v * 1e6) / 1e6) }));
const fitted = fitRows(rows);
const inSample = metrics(predictAll(fitted, samples));
const cross = crossSource(samples);
let commit = 'unknown';
try {
  commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
} catch {
  // Not a git checkout: the commit stays unknown.
}

const model = {
  version: 1,
  features: fitted.features,
  bias: Math.round(fitted.model.bias * 10_000) / 10_000,
  weights: namedWeights(fitted),
  thresholds: fitted.thresholds,
  training: {
    trainedAt: new Date().toISOString().slice(0, 10),
    scannerCommit: commit,
    scannerDigest: scannerDigest(),
    positive: 'labelled malicious or risky',
    l2: DEFAULT_L2,
    targets: DEFAULT_TARGETS,
    data: provenance,
    inSample: { precision: inSample.precision, recall: inSample.recall, f1: inSample.f1, fpr: inSample.fpr },
    crossSource: {
      pooled: {
        precision: cross.pooled.precision,
        recall: cross.pooled.recall,
        f1: cross.pooled.f1,
        fpr: cross.pooled.fpr,
        benignPass: cross.pooled.byLabel.benign.pass / Math.max(1, cross.pooled.fp + cross.pooled.tn),
      },
      meanAccuracy: cross.meanAccuracy,
      worst: cross.worst,
    },
  },
};
writeFileSync(out, `${JSON.stringify(model, null, 2)}\n`);
mkdirSync(dirname(SNAPSHOT_FILE), { recursive: true });
writeFileSync(
  SNAPSHOT_FILE,
  `${JSON.stringify({ features: fitted.features, rows })}\n`,
);
console.log(JSON.stringify(model, null, 2));
