// Trains the verdict model (src/score/verdict-model.json) on labelled real skills: `npm run train:verdict
// [-- <corpus>...]`. Defaults: the development corpus beside the checkout (../shared/corpus) and the team's
// own eval/verdicts. Writes the weights, the thresholds and where they came from, including the
// leave-one-source-out figures, so a reader of the model file knows what it was fitted on and how well it
// generalised. Never run on acceptance sets: figures on data the model was fitted on are not evidence.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadLabelledCorpus, scanLabelled } from '../src/cli/eval-verdicts.js';
import { scanSource } from '../src/scan/scan-source.js';
import {
  crossSource,
  DEFAULT_L2,
  DEFAULT_TARGETS,
  fitVerdict,
  type LabelledSkill,
  metrics,
  namedWeights,
  predictAll,
} from '../src/score/verdict-eval.js';

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const out = outIndex >= 0 ? args.splice(outIndex, 2)[1]! : 'src/score/verdict-model.json';
const corpora = args.length ? args : ['../shared/corpus', 'eval/verdicts'];

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

const fitted = fitVerdict(samples);
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
console.log(JSON.stringify(model, null, 2));
