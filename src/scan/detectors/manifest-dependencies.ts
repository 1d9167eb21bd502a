// Dependency manifests: requirements*.txt, pyproject.toml and package.json. SC1 for versions that are not
// pinned, SC5 for custom indexes, raw URLs and unpinned git sources, and the remote-code rules (SC2/SC3/SC5)
// over package.json lifecycle scripts, which npm runs on install.
//
// Pinning policy (documented choice): a Python requirement counts as pinned when it has an exact version
// (==, ===), a compatible-release (~=) or an upper bound (<, <=); a bare name or a lower bound alone (>=) is
// unpinned. An npm dependency is flagged only for `*`, `latest`, `next`, `x`, an empty range or `>=` with no
// upper bound; caret and tilde ranges are normal npm practice with a lockfile.
//
// SC4 typosquats: a dependency name (length >= 5, not itself well-known) within edit distance 1 (names
// shorter than 10) or 2 of a well-known package of the same ecosystem (known-packages.ts), keeping its
// first letter, or its words reordered and misspelt (`dotenv-pyton`; a plain reorder such as
// `ffmpeg-python` is a common legitimate alias). Legitimate neighbours are in the known lists; a trailing version number
// (`markdown2`, `psycopg3`) is a variant, not a squat; inside an owned npm scope (`@aws-sdk/...`) or a
// plugin family (`react-*`, `pytest-*`, `google-cloud-*`, `lodash.*`) siblings are legion, so only an adjacent
// transposition of a known sibling counts there.
import { parse as parseToml } from 'smol-toml';
import { analyseCode } from '../code/analyse.js';
import { clamp, contextConfidence, dedupe } from '../code/hits.js';
import { hostOf, isIpHost } from '../code/network.js';
import { rulesDetectedBy } from '../engine/rule-pack.js';
import type { Detector, FileContext, Hit } from '../rule.js';
import { lineAt, lineStarts, quote, trailingRunStart } from '../text.js';
import { obfuscationHits } from './code-obfuscation.js';
import { supplyChainHits } from './code-supply-chain.js';
import { editDistance } from './frontmatter-namespace.js';
import { KNOWN_NPM, KNOWN_PYPI, NEIGHBOURS_NPM, NEIGHBOURS_PYPI } from './known-packages.js';

export const MANIFEST_RULES = rulesDetectedBy('manifest-dependencies');

/** Install-script hits come from the code rules; each maps to the manifest rule of the same pattern. */
const INSTALL_SCRIPT_RULE: Record<string, string> = {
  'code.remote-code': 'manifest.install-script-remote-code',
  'code.decoded-exec': 'manifest.install-script-obfuscated',
  'code.hidden-name': 'manifest.install-script-obfuscated',
  'code.packed': 'manifest.install-script-obfuscated',
  'code.unverifiable-source': 'manifest.install-script-source',
  'code.unpinned-install': 'manifest.install-script-unpinned',
};

const SC1 = 'manifest.unpinned-dependency';
const SC4 = 'manifest.typosquat-dependency';
const SC5 = 'manifest.unverifiable-source';
const PUBLIC_INDEX = /^(pypi\.org|files\.pythonhosted\.org|pypi\.python\.org|download\.pytorch\.org)$/;
const PINNED_REF = /(@|#)[0-9a-f]{7,40}\b|#(sha256|sha384|sha512|md5)=|#commit=/i;

type Kind = 'requirements' | 'pyproject' | 'package.json';

function manifestKind(path: string): Kind | null {
  const base = path.split('/').pop() ?? '';
  if (/^requirements[\w.-]*\.(txt|in)$|^constraints[\w.-]*\.txt$/i.test(base)) return 'requirements';
  if (base === 'pyproject.toml') return 'pyproject';
  if (base === 'package.json') return 'package.json';
  return null;
}

function hit(
  ctx: FileContext,
  rule: string,
  line: number,
  evidence: string,
  base: number,
  why: string,
  message?: string,
): Hit {
  const { confidence, notes } = contextConfidence(ctx, base);
  const h: Hit = {
    rule,
    line,
    endLine: line,
    evidence: quote(evidence),
    confidence: clamp(confidence),
    rationale: [why, ...notes].join('; '),
  };
  if (message) h.message = message;
  return h;
}

/** One PEP 508 requirement (or pip option line): what is wrong with it, if anything. */
function judgeRequirement(spec: string): { rule: string; confidence: number; why: string } | null {
  const s = spec.trim();
  const opt = /^(-i|--index-url|--extra-index-url|-f|--find-links|--trusted-host)[\s=]+(\S+)/.exec(s);
  if (opt) {
    const value = opt[2]!;
    const { host } = hostOf(/^\w+:\/\//.test(value) ? value : `x://${value}`);
    if (!host || PUBLIC_INDEX.test(host)) return null;
    return { rule: SC5, confidence: isIpHost(host) ? 0.8 : 0.7, why: `package index ${value}` };
  }
  if (/^-(r|c|e\s+\.|-requirement|-constraint)\b/.test(s) || s.startsWith('-')) {
    const editable = /^(-e|--editable)\s+(\S+)/.exec(s);
    if (editable && /^(git\+|https?:)/.test(editable[2]!) && !PINNED_REF.test(editable[2]!))
      return {
        rule: SC5,
        confidence: 0.65,
        why: `editable install from ${editable[2]} without a pinned commit`,
      };
    return null;
  }
  const url = /(?:^|@\s*)((?:git\+)?(?:https?|ftp|ssh|git):\/\/\S+)/.exec(s);
  if (url) {
    const { host } = hostOf(url[1]!.replace(/^git\+/, ''));
    if (isIpHost(host))
      return { rule: SC5, confidence: 0.8, why: `installs from a raw IP address (${url[1]})` };
    if (PINNED_REF.test(url[1]!)) return null;
    return { rule: SC5, confidence: 0.65, why: `installs from ${url[1]} without a pinned commit or hash` };
  }
  if (/^(\.|\/|file:)/.test(s)) return null;
  const body = s.replace(/;.*$/, '').replace(/\[.*?\]/, '');
  const name = /^[A-Za-z0-9][\w.-]*/.exec(body)?.[0];
  if (!name) return null;
  if (/===?|~=|<(?!>)/.test(body) || /--hash/.test(s)) return null;
  return {
    rule: SC1,
    confidence: /[>!]=?/.test(body) ? 0.5 : 0.6,
    why: /[>]/.test(body) ? `${name} has only a lower bound` : `${name} has no version`,
  };
}

type Ecosystem = 'pypi' | 'npm';
const KNOWN: Record<Ecosystem, { list: readonly string[]; set: ReadonlySet<string> }> = {
  pypi: { list: KNOWN_PYPI, set: new Set([...KNOWN_PYPI, ...NEIGHBOURS_PYPI]) },
  npm: { list: KNOWN_NPM, set: new Set([...KNOWN_NPM, ...NEIGHBOURS_NPM]) },
};
const FAMILY =
  /^(@[\w.-]+\/|(?:lodash|python|react|vue|eslint|babel|webpack|rollup|vite|postcss|gatsby|types|pytest|django|flask|sphinx|mkdocs|google-cloud|azure|mypy-boto3|opentelemetry|langchain|llama-index|jupyterlab)[-.])/;

function normaliseName(name: string, eco: Ecosystem): string {
  const lower = name.trim().toLowerCase();
  return eco === 'pypi' ? lower.replace(/[-_.]+/g, '-') : lower;
}

/** One adjacent transposition turns a into b. */
function isTransposition(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  let i = 0;
  while (a[i] === b[i]) i++;
  return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

const bare = (name: string) => name.replace(/^@[\w.-]+\//, '');
const sortedWords = (name: string) =>
  name
    .split(/[-_./]+/)
    .sort()
    .join('-');

/** The well-known package `raw` imitates, if any. */
export function dependencyTyposquat(
  raw: string,
  eco: Ecosystem,
): { target: string; distance: number; how: string } | null {
  const name = normaliseName(raw, eco);
  const known = KNOWN[eco];
  if (name.length < 5 || known.set.has(name)) return null;
  const family = FAMILY.exec(name)?.[1];
  let best: { target: string; distance: number; how: string } | null = null;
  for (const target of known.list) {
    if (target.length < 5) continue;
    // lodash4 and lodash are one package's names.
    if (name.slice(0, trailingRunStart(name, /\d/)) === target.slice(0, trailingRunStart(target, /\d/)))
      continue;
    const targetFamily = FAMILY.exec(target)?.[1];
    if (family && targetFamily && family.slice(0, -1) === targetFamily.slice(0, -1)) {
      if (isTransposition(name.slice(family.length), target.slice(family.length)) && !best)
        best = { target, distance: 1, how: 'two letters swapped' };
      continue;
    }
    const max = target.length >= 10 ? 2 : 1;
    // Squats keep the first letter (people misspell the middle of a name); most legitimate neighbours
    // differ at the start (gaxios / axios, dargs / yargs, psutil / gsutil).
    const distance = bare(name)[0] === bare(target)[0] ? editDistance(name, target, max) : max + 1;
    if (distance <= max && (!best || distance < best.distance))
      best = { target, distance, how: `${distance} edit${distance > 1 ? 's' : ''} away` };
    else if (!best && /[-_.]/.test(name) && editDistance(sortedWords(name), sortedWords(target), 1) === 1)
      best = { target, distance: 2, how: 'its words reordered and misspelt' };
  }
  return best;
}

function typosquatHit(ctx: FileContext, name: string, eco: Ecosystem, line: number, evidence: string) {
  const squat = dependencyTyposquat(name, eco);
  if (!squat) return null;
  return hit(
    ctx,
    SC4,
    line,
    evidence,
    squat.distance <= 1 ? 0.65 : 0.6,
    `${name} looks like the well-known ${eco === 'npm' ? 'npm' : 'PyPI'} package ${squat.target} (${squat.how})`,
  );
}

/** The project name of a PEP 508 requirement line, or null for options, URLs and paths. */
function requirementName(spec: string): string | null {
  const s = spec.trim();
  if (!s || s.startsWith('-') || /^(\.|\/|file:|\w+:\/\/|git\+)/.test(s)) return null;
  return /^[A-Za-z0-9][\w.-]*/.exec(s)?.[0] ?? null;
}

function requirementsHits(ctx: FileContext): Hit[] {
  const hits: Hit[] = [];
  ctx.text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (!line) return;
    const j = judgeRequirement(line);
    if (j) hits.push(hit(ctx, j.rule, i + 1, raw, j.confidence, j.why));
    const name = requirementName(line);
    const squat = name ? typosquatHit(ctx, name, 'pypi', i + 1, raw) : null;
    if (squat) hits.push(squat);
  });
  return hits;
}

/** Line of the first occurrence of `needle` (as a quoted string) in the text, else 1. */
function lineOfString(ctx: FileContext, starts: number[], needle: string): number {
  for (const q of ['"', "'"]) {
    const at = ctx.text.indexOf(`${q}${needle}`);
    if (at >= 0) return lineAt(starts, at);
  }
  const at = ctx.text.indexOf(needle);
  return at >= 0 ? lineAt(starts, at) : 1;
}

function pyprojectHits(ctx: FileContext): Hit[] {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(ctx.text) as Record<string, unknown>;
  } catch {
    return [];
  }
  const starts = lineStarts(ctx.text);
  const specs: string[] = [];
  const project = (doc.project ?? {}) as Record<string, unknown>;
  if (Array.isArray(project.dependencies))
    specs.push(...project.dependencies.filter((d): d is string => typeof d === 'string'));
  for (const group of Object.values((project['optional-dependencies'] ?? {}) as Record<string, unknown>))
    if (Array.isArray(group)) specs.push(...group.filter((d): d is string => typeof d === 'string'));
  const hits: Hit[] = [];
  for (const spec of specs) {
    const j = judgeRequirement(spec);
    if (j) {
      const line = lineOfString(ctx, starts, spec);
      hits.push(hit(ctx, j.rule, line, spec, j.confidence, j.why));
    }
    const name = requirementName(spec);
    const squat = name ? typosquatHit(ctx, name, 'pypi', lineOfString(ctx, starts, spec), spec) : null;
    if (squat) hits.push(squat);
  }
  // Package indexes: [[tool.uv.index]], [[tool.poetry.source]], [[tool.pdm.source]], [tool.uv] index-url.
  const tool = (doc.tool ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const indexes: unknown[] = [
    ...asArray(tool.uv?.index),
    ...asArray(tool.poetry?.source),
    ...asArray(tool.pdm?.source),
    ...[tool.uv?.['index-url'], ...asArray(tool.uv?.['extra-index-url'])].map((url) => ({ url })),
  ];
  for (const index of indexes) {
    const url = (index as { url?: unknown } | null)?.url;
    if (typeof url !== 'string') continue;
    const j = judgeRequirement(`--index-url ${url}`);
    if (j) hits.push(hit(ctx, j.rule, lineOfString(ctx, starts, url), `url = "${url}"`, j.confidence, j.why));
  }
  // Poetry: name = "*" or a table with git but no rev.
  const poetry =
    ((doc.tool as Record<string, unknown> | undefined)?.poetry as Record<string, unknown> | undefined) ?? {};
  for (const section of ['dependencies', 'dev-dependencies']) {
    for (const [name, v] of Object.entries((poetry[section] ?? {}) as Record<string, unknown>)) {
      if (name === 'python') continue;
      const line = lineOfString(ctx, starts, name).valueOf();
      const squat = typosquatHit(ctx, name, 'pypi', line, `${name} = ${JSON.stringify(v)}`);
      if (squat) hits.push(squat);
      if (v === '*' || v === '')
        hits.push(hit(ctx, SC1, line, `${name} = "${String(v)}"`, 0.6, `${name} accepts any version`));
      else if (typeof v === 'object' && v !== null && 'git' in v && !('rev' in v) && !('tag' in v))
        hits.push(
          hit(
            ctx,
            SC5,
            line,
            `${name} = { git = "${String((v as { git: unknown }).git)}" }`,
            0.65,
            `${name} from git without a rev`,
          ),
        );
    }
  }
  return hits;
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
}

const NPM_UNPINNED = /^(\*|latest|next|x|X|)$|^>=?\s*[\d.]+$/;
const NPM_SOURCE = /^(git\+|git:|github:|gitlab:|bitbucket:|https?:|file:|[\w.-]+\/[\w.-]+(#.*)?$)/;

async function packageJsonHits(ctx: FileContext): Promise<Hit[]> {
  let pkg: Record<string, unknown>;
  try {
    pkg = JSON.parse(ctx.text) as Record<string, unknown>;
  } catch {
    return [];
  }
  if (typeof pkg !== 'object' || pkg === null) return [];
  const starts = lineStarts(ctx.text);
  const hits: Hit[] = [];
  for (const section of ['dependencies', 'devDependencies', 'optionalDependencies']) {
    const deps = pkg[section];
    if (typeof deps !== 'object' || deps === null) continue;
    for (const [name, range] of Object.entries(deps as Record<string, unknown>)) {
      if (typeof range !== 'string') continue;
      const line = lineOfString(ctx, starts, `${name}"`);
      const evidence = `"${name}": "${range}"`;
      const base = section === 'devDependencies' ? 0.8 : 1;
      const squat = typosquatHit(ctx, name, 'npm', line, evidence);
      if (squat) hits.push(squat);
      if (NPM_SOURCE.test(range) && !/^file:/.test(range)) {
        const { host } = hostOf(range.replace(/^git\+/, ''));
        if (isIpHost(host))
          hits.push(hit(ctx, SC5, line, evidence, 0.8 * base, `${name} comes from a raw IP address`));
        else if (!PINNED_REF.test(range))
          hits.push(
            hit(ctx, SC5, line, evidence, 0.65 * base, `${name} comes from ${range} without a pinned commit`),
          );
      } else if (NPM_UNPINNED.test(range.trim()))
        hits.push(
          hit(ctx, SC1, line, evidence, 0.6 * base, `${name} accepts any version (${range || 'empty'})`),
        );
    }
  }
  // Lifecycle scripts run on `npm install`: scan them as shell.
  const scripts = pkg.scripts;
  if (typeof scripts === 'object' && scripts !== null) {
    for (const [name, script] of Object.entries(scripts as Record<string, unknown>)) {
      if (typeof script !== 'string' || !/^(pre|post)?install$|^prepare$|^prepublish$/.test(name)) continue;
      const model = await analyseCode('bash', script);
      if (!model) continue;
      const line = lineOfString(ctx, starts, `${name}"`);
      const sub: FileContext = { ...ctx, text: script, file: { ...ctx.file, language: 'bash' } };
      for (const h of [...supplyChainHits(sub, model), ...obfuscationHits(sub, model)]) {
        const rule = INSTALL_SCRIPT_RULE[h.rule];
        if (rule)
          hits.push({
            ...h,
            rule,
            line,
            endLine: line,
            rationale: `${h.rationale}; in the ${name} script npm runs on install`,
          });
      }
    }
  }
  return hits;
}

export const manifestDetector: Detector = {
  name: 'manifest-dependencies',
  rules: MANIFEST_RULES,
  appliesTo: (file) => file.text !== null && manifestKind(file.path) !== null,
  async detect(ctx) {
    const kind = manifestKind(ctx.file.path);
    if (kind === 'requirements') return dedupe(requirementsHits(ctx));
    if (kind === 'pyproject') return dedupe(pyprojectHits(ctx));
    if (kind === 'package.json') return dedupe(await packageJsonHits(ctx));
    return [];
  },
};
