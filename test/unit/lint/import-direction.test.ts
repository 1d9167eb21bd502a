import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The import-direction lint (.dependency-cruiser.cjs, `npm run lint:deps`): the real tree passes it, and a tree
// that breaks each rule once fails it with that rule named at that import.

const ROOT = resolve(import.meta.dirname, '../../..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  rule: string;
  from: string;
  /** The first module it leads to (a cycle lists the rest on the lines after). */
  to: string;
}

/** Runs the lint as `npm run lint:deps` does (the `err` reporter, whose exit code counts the errors). */
function cruise(
  cwd: string,
  paths: string[],
): { status: number | null; violations: Violation[]; output: string } {
  const run = spawnSync(process.execPath, [DEPCRUISE, ...paths, '--config', CONFIG, '--output-type', 'err'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = run.stdout + run.stderr;
  const violations = [...output.matchAll(/^\s*error (\S+): (\S+) →\s*(\S*)/gm)].map(([, rule, from, to]) => ({
    rule: rule!,
    from: from!,
    to: to!,
  }));
  return { status: run.status, violations, output };
}

describe('import-direction lint', () => {
  it('passes on the project as it is', () => {
    const { status, violations, output } = cruise(ROOT, ['src', 'extension/lib', 'extension/entrypoints']);
    expect(violations).toEqual([]);
    expect(status, output).toBe(0);
  });

  describe('on a tree that breaks every rule', () => {
    let dir: string;
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    let result: ReturnType<typeof cruise>;
    const found = (rule: string) =>
      result.violations.filter((v) => v.rule === rule).map((v) => [v.from, v.to]);

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'skillaudit-depcruise-'));
      write(
        'tsconfig.json',
        JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
      );
      // Allowed: a stage through another's index, a stage on core and util, core on util.
      write('src/util/lines.ts', 'export const one = 1;\n');
      write('src/core/types.ts', "import { one } from '../util/lines.js';\nexport const kind = one;\n");
      write(
        'src/scan/engine.ts',
        "import { kind } from '../core/types.js';\nexport const scan = () => kind;\n",
      );
      write('src/scan/index.ts', "export { scan } from './engine.js';\n");
      write(
        'src/detonate/index.ts',
        "import { scan } from '../scan/index.js';\nexport const run = () => scan();\n",
      );
      // Broken, one per rule.
      write('src/core/taxonomy.ts', "import { scan } from '../scan/index.js';\nexport const t = scan;\n");
      write(
        'src/detonate/verdicts.ts',
        "import { scan } from '../scan/engine.js';\nexport const v = scan;\n",
      );
      write(
        'src/report/build.ts',
        "import { audit } from '../pipeline/index.js';\nexport const b = audit;\n",
      );
      write('src/report/index.ts', "export { b } from './build.js';\n");
      write(
        'src/pipeline/index.ts',
        "import { serve } from '../cli/serve.js';\nexport const audit = serve;\n",
      );
      write('src/cli/serve.ts', 'export const serve = 1;\n');
      write(
        'src/report/html/app/page.ts',
        "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n",
      );
      write('src/quality/a.ts', "import { b } from './b.js';\nexport const a = () => b;\n");
      write('src/quality/b.ts', "import { a } from './a.js';\nexport const b = () => a;\n");
      write('src/score/safety.ts', "import { gone } from './missing.js';\nexport const s = gone;\n");
      write(
        'extension/lib/badge.ts',
        "import { scan } from '../../src/scan/index.js';\nexport const x = scan;\n",
      );
      result = cruise(dir, ['src', 'extension/lib']);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('fails, naming each broken import and nothing allowed', () => {
      expect(result.status, result.output).toBe(result.violations.length);
      expect(result.status).toBeGreaterThan(0);
      expect(found('shared-imports-no-stage')).toEqual([['src/core/taxonomy.ts', 'src/scan/index.ts']]);
      expect(found('stage-through-its-index')).toContainEqual([
        'src/detonate/verdicts.ts',
        'src/scan/engine.ts',
      ]);
      expect(found('stage-imports-no-pipeline-or-delivery')).toEqual([
        ['src/report/build.ts', 'src/pipeline/index.ts'],
      ]);
      expect(found('pipeline-imports-no-delivery')).toEqual([['src/pipeline/index.ts', 'src/cli/serve.ts']]);
      expect(found('browser-code-is-node-free')).toEqual([['src/report/html/app/page.ts', 'fs']]);
      expect(found('no-circular')).toEqual([['src/quality/a.ts', 'src/quality/b.ts']]);
      expect(found('not-to-unresolvable')).toEqual([['src/score/safety.ts', './missing.js']]);
      expect(found('extension-takes-only-core')).toEqual([['extension/lib/badge.ts', 'src/scan/index.ts']]);
      const allowed = ['src/detonate/index.ts', 'src/scan/engine.ts', 'src/core/types.ts'];
      expect(result.violations.filter((v) => allowed.includes(v.from))).toEqual([]);
    });
  });
});
