// The import direction of src/ (docs/architecture.md, "Layers"), checked by `npm run lint:deps` (part of
// `npm run lint`, run by .ci/run and by test/unit/lint/import-direction.test.ts):
//   delivery (cli, server, batch) → pipeline → stages → shared layers (core, model, sandbox, store, util).
// A stage is used from outside only through its index.ts; the shared layers are plain modules, imported by path,
// and import no stage. The browser bundles (report page, dashboard, extension) take only node-free modules.

const SHARED = '(core|model|sandbox|store|util)';
const STAGES = '(intake|scan|detonate|judge|quality|score|report|tasks|agents|schemes)';
const PIPELINE = '(pipeline)';
const DELIVERY = '(cli|server|batch)';
const BROWSER = [
  '^src/report/html/app/',
  '^src/batch/dashboard-app/',
  '^src/core/(format\\.ts|verdict-words\\.ts|ui\\.jsx)$',
  '^extension/(lib|entrypoints)/',
];

/** Known exceptions, each with why; keep this list short and shrinking. */
const EXCEPTIONS = [
  // score's verdict features read the host classes (paste sites, dynamic DNS, request catchers) of the rules'
  // shared vocabulary (rules/_shared/vocabulary.yaml) through scan's prose-vocabulary. Imported by file, not
  // through scan's index, because scan's engine imports score: the index would close a load cycle.
  { from: '^src/score/verdict-features\\.ts$', to: '^src/scan/detectors/prose-vocabulary\\.ts$' },
];
/** The rule for every file but the exceptions' importers, and for each of those the rule less its one target. */
const exempt = (rule) => [
  { ...rule, from: { ...rule.from, pathNot: EXCEPTIONS.map((e) => e.from) } },
  ...EXCEPTIONS.map((e) => ({
    ...rule,
    from: { ...rule.from, path: e.from },
    to: { ...rule.to, pathNot: [...(rule.to.pathNot ?? []), e.to] },
  })),
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'shared-imports-no-stage',
      comment: 'core, model, sandbox, store and util sit below every stage: move the shared piece down instead.',
      severity: 'error',
      from: { path: `^src/(${SHARED}/|version\\.ts$)` },
      to: { path: `^src/(${STAGES}|${PIPELINE}|${DELIVERY})/` },
    },
    {
      name: 'stage-imports-no-pipeline-or-delivery',
      comment: 'A stage is called by the pipeline and the delivery layers, never the other way round.',
      severity: 'error',
      from: { path: `^src/${STAGES}/` },
      to: { path: `^src/(${PIPELINE}|${DELIVERY})/` },
    },
    {
      name: 'pipeline-imports-no-delivery',
      comment: 'The pipeline runs the stages for cli, server and batch; it does not know them.',
      severity: 'error',
      from: { path: `^src/${PIPELINE}/` },
      to: { path: `^src/${DELIVERY}/` },
    },
    ...exempt({
      name: 'stage-through-its-index',
      comment:
        "Another folder uses a stage only through its index.ts (or the index.ts of a sub-stage loaded apart: quality/estimate, quality/optimize, scan/evaluate, scan/source), never its internals.",
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: {
        path: `^src/(${STAGES}|${PIPELINE}|${DELIVERY})/`,
        pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$', '^src/[^/]+/[^/]+/index\\.ts$'],
      },
    }),
    {
      name: 'extension-takes-only-core',
      comment: 'The browser extension is its own package: of the CLI it bundles only src/core (verdict words, formats).',
      severity: 'error',
      from: { path: '^extension/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'browser-code-is-node-free',
      comment: 'The report page, the dashboard and the extension bundle these modules: no node: builtins there.',
      severity: 'error',
      from: { path: BROWSER },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'no-circular',
      comment: 'An ESM import cycle can hand a module an undefined binding while it loads (types load nothing).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'A relative import that resolves to nothing is a typo or a file moved without its importers.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true, path: '^\\.\\.?/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.d\\.ts$', '(^|/)node_modules/', '^extension/\\.(output|wxt)/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.jsx', '.json'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
