import { relative } from 'node:path';
import type { Log, ReportingDescriptor, Result } from 'sarif';
import type { RuleInfo } from '../core/rule.js';
import { patternById } from '../core/taxonomy.js';
import type { Severity } from '../core/types.js';
import type { SkillScanResult } from '../scan/index.js';
import { VERSION } from '../version.js';

// SARIF 2.1.0 for GitHub code scanning: one reportingDescriptor per detector rule, results located in the
// repository by the skill's path joined with the file, severity as level and as `security-severity`.

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  high: 'error',
  medium: 'warning',
  low: 'note',
};
const SECURITY_SEVERITY: Record<Severity, string> = { high: '8.0', medium: '5.0', low: '2.0' };

function descriptor(rule: RuleInfo): ReportingDescriptor {
  const pattern = patternById(rule.pattern);
  return {
    id: rule.id,
    name: `${pattern.id} ${pattern.name}`,
    shortDescription: { text: rule.message },
    fullDescription: { text: pattern.summary },
    help: {
      text: rule.help,
      markdown: `**${pattern.id} ${pattern.name}** (${pattern.severity}). ${rule.help}`,
    },
    defaultConfiguration: { level: LEVEL[pattern.severity] },
    properties: {
      tags: ['security', pattern.id, pattern.family],
      'security-severity': SECURITY_SEVERITY[pattern.severity],
      precision: 'medium',
    },
  };
}

function artifactUri(skillPath: string, file: string): string {
  // Repository-relative when the skill lives under the working directory (the CI case), else as given.
  const rel = relative(process.cwd(), skillPath);
  const base = rel.startsWith('..') || rel === '' ? (rel === '' ? '' : skillPath) : rel;
  return (base ? `${base}/${file}` : file).replace(/\\/g, '/').replace(/^\.\//, '');
}

/**
 * The SARIF log of a scan. The run's properties carry each skill's verdict and rating, and the invocation the
 * command's exit code, so a consumer of the log reads the same answer as the terminal and the JSON.
 */
export function toSarif(
  results: readonly SkillScanResult[],
  rules: readonly RuleInfo[],
  exitCode?: number,
): Log {
  const used = new Set(results.flatMap((r) => r.scan?.findings.map((f) => f.rule) ?? []));
  // One descriptor per id: a rule may be applied by more than one detector (prose and script comments).
  const once = [...new Map(rules.map((r) => [r.id, r] as const)).values()];
  const descriptors = once.filter((r) => used.has(r.id)).map(descriptor);
  const ruleIndex = new Map(descriptors.map((d, i) => [d.id, i]));
  const sarifResults: Result[] = results.flatMap((r) =>
    (r.scan?.findings ?? []).map((f) => ({
      ruleId: f.rule,
      ruleIndex: ruleIndex.get(f.rule)!,
      level: LEVEL[f.severity],
      message: { text: `${f.message} (${f.pattern}, confidence ${f.confidence.toFixed(2)}): ${f.rationale}` },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: artifactUri(r.path, f.file) },
            region: { startLine: f.line, endLine: f.endLine, snippet: { text: f.evidence } },
          },
        },
      ],
      partialFingerprints: { 'skillaudit/v1': f.id },
      properties: { pattern: f.pattern, confidence: f.confidence, skill: r.name },
      ...(f.suppressed
        ? {
            suppressions: [
              {
                kind: f.suppressed.by === 'inline' ? ('inSource' as const) : ('external' as const),
                justification: f.suppressed.reason,
              },
            ],
          }
        : {}),
    })),
  );
  const invocationErrors = results
    .filter((r) => r.error)
    .map((r) => ({ level: 'error' as const, message: { text: `${r.path}: ${r.error!.message}` } }));
  return {
    version: '2.1.0',
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    runs: [
      {
        tool: {
          driver: {
            name: 'SkillAudit',
            version: VERSION,
            informationUri: 'https://github.com/SkillAudit/skillaudit',
            rules: descriptors,
          },
        },
        invocations: [
          {
            executionSuccessful: invocationErrors.length === 0,
            ...(exitCode !== undefined ? { exitCode } : {}),
            toolExecutionNotifications: invocationErrors,
          },
        ],
        results: sarifResults,
        properties: {
          skills: results.flatMap((r) =>
            r.scan
              ? [
                  {
                    path: r.path,
                    ...(r.name ? { name: r.name } : {}),
                    status: r.scan.status,
                    rating: r.scan.decision.rating,
                  },
                ]
              : [],
          ),
        },
      },
    ],
  };
}
