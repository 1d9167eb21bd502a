import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pc from 'picocolors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  STATUS_ADVICE,
  STATUS_LABEL,
  VERDICT_STATUSES,
  type VerdictStatus,
} from '../../../src/core/verdict-words.js';
import { buildReport } from '../../../src/report/build.js';
import { renderReportHtmlWith } from '../../../src/report/html/render.js';
import { renderReportMarkdown } from '../../../src/report/markdown.js';
import type { Report } from '../../../src/report/model.js';
import { renderReportText } from '../../../src/report/report-text.js';
import { renderScanMarkdown } from '../../../src/report/scan-markdown.js';
import { renderScanText } from '../../../src/report/scan-text.js';
import { decide } from '../../../src/score/verdict.js';
import {
  buildReportTemplate,
  cleanReport,
  riskyReport,
  scanOnlyReport,
} from '../../support/report-fixtures.js';
import { makeSkill } from '../scan/prose/make-skill.js';

// One verdict vocabulary: every renderer says the status and its advice from verdict-words.ts, and the retired
// second vocabulary (adopt / test first / do not install, a separate "recommendation") appears in none of them.

const plainColors = pc.createColors(false);
const RETIRED = /\b(adopt|test first|do not install|recommendation)\b/i;

let template: string;
const outDir = mkdtempSync(join(tmpdir(), 'skillaudit-verdict-words-'));
beforeAll(async () => {
  template = await buildReportTemplate(outDir);
});
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const FIXTURES: Record<VerdictStatus, () => Report> = {
  risky: riskyReport,
  pass: cleanReport,
  caution: scanOnlyReport,
};

describe('the verdict vocabulary', () => {
  it.each(VERDICT_STATUSES)('%s reads the same in text, Markdown, JSON and the HTML bundle', (status) => {
    const report = FIXTURES[status]();
    expect(report.verdict.status).toBe(status);
    const text = renderReportText(report, plainColors);
    const md = renderReportMarkdown(report);
    const json = JSON.stringify(report);
    expect(text).toContain(` ${STATUS_LABEL[status].toUpperCase()} `);
    expect(text).toContain(STATUS_ADVICE[status]);
    expect(md).toContain(`${STATUS_LABEL[status]}: \``);
    expect(md).toContain(STATUS_ADVICE[status]);
    expect(report.verdict.advice).toBe(STATUS_ADVICE[status]);
    const html = renderReportHtmlWith(template, report);
    for (const out of [text, md, json, html]) expect(out).not.toMatch(RETIRED);
  });

  it('a built report carries status and advice, nothing else, in its verdict', () => {
    const skill = makeSkill({ 'SKILL.md': '---\nname: demo-skill\ndescription: Demo.\n---\n# Demo\n' });
    const report = buildReport({
      skill,
      skillPath: 'demo-skill',
      scan: { findings: [], safetyScore: 100, status: 'pass', decision: decide([]), notes: [] },
      detonation: null,
      quality: null,
      notRun: [],
      configuration: {},
    });
    expect(Object.keys(report.verdict).sort()).toEqual(['advice', 'reasons', 'status']);
    expect(report.verdict).toMatchObject({ status: 'pass', advice: STATUS_ADVICE.pass });
    expect(report.verdict.status).toBe(report.safety.status);
  });

  it('scan text and Markdown use the same status words', () => {
    const results = VERDICT_STATUSES.map((status) => ({
      path: `skills/${status}`,
      name: status,
      scan: { findings: [], safetyScore: 100, status, decision: decide([]), notes: [] },
    }));
    const text = renderScanText(results, plainColors);
    const md = renderScanMarkdown(results);
    for (const status of VERDICT_STATUSES) {
      expect(text).toContain(`  ${STATUS_LABEL[status].toUpperCase()}  `);
      expect(md).toContain(STATUS_LABEL[status]);
    }
    expect(text).not.toMatch(RETIRED);
    expect(md).not.toMatch(RETIRED);
  });
});
