/**
 * Layer rules (ADR 0001, 0010, 0011): domain <- engine <- app <- interface <- library <- cli; app <- host <- infra <-
 * library; host and engine <- compute <- library (infra and compute never import each other); library (@maou/bench-app)
 * is the composition root, cli the binary on top of it; the private testkit is for specs only.
 * tsconfig.depcruise.json resolves every @maou/bench-* name to its package's src, so these path rules see imports
 * across packages; scripts/checks/layer-rules.spec.ts plants a forbidden import for each and expects it refused.
 */
const layer = (name) => `^packages/${name}/src`;
const pkgs = (...names) => `^packages/(${names.join('|')})/`;
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'domain imports nothing of ours and no I/O',
      from: { path: layer('domain') },
      to: {
        path: [
          pkgs('engine', 'app', 'interface', 'host', 'infra', 'compute', 'testkit', 'library', 'cli'),
          '^(fs|node:|process|tsyringe|pino)',
        ],
      },
    },
    { name: 'domain-no-io', severity: 'error', from: { path: layer('domain') }, to: { dependencyTypes: ['core'] } },
    {
      name: 'engine-only-domain',
      severity: 'error',
      comment: 'the engine is tfjs-core plus the domain: no ports, no adapters',
      from: { path: layer('engine') },
      to: { path: pkgs('app', 'interface', 'host', 'infra', 'compute', 'testkit', 'library', 'cli') },
    },
    {
      name: 'engine-no-di-no-io',
      severity: 'error',
      comment: 'the engine needs no container, no metadata polyfill, no I/O',
      from: { path: layer('engine') },
      to: { path: '(^|/node_modules/)(tsyringe|reflect-metadata|pino)(/|$)' },
    },
    { name: 'engine-no-node', severity: 'error', from: { path: layer('engine') }, to: { dependencyTypes: ['core'] } },
    {
      name: 'app-only-domain-engine',
      severity: 'error',
      from: { path: layer('app') },
      to: { path: pkgs('interface', 'host', 'infra', 'compute', 'testkit', 'library', 'cli') },
    },
    {
      name: 'interface-not-engine-infra',
      severity: 'error',
      comment: 'option validation needs the domain and app types only',
      from: { path: layer('interface') },
      to: { path: pkgs('engine', 'host', 'infra', 'compute', 'testkit', 'library', 'cli') },
    },
    {
      name: 'infra-not-interface',
      severity: 'error',
      from: { path: layer('infra') },
      to: { path: pkgs('interface', 'library', 'cli') },
    },
    {
      name: 'host-only-domain-app',
      severity: 'error',
      comment: 'host facts (resources, worker start-up, module loading) sit under both infra and compute',
      from: { path: layer('host') },
      to: { path: pkgs('engine', 'interface', 'infra', 'compute', 'testkit', 'library', 'cli') },
    },
    {
      name: 'infra-compute-apart',
      severity: 'error',
      comment: 'infra (data, sources, reports) and compute (backends, kernels) are siblings: only library wires both',
      from: { path: '^packages/(infra|compute)/src' },
      to: { path: '^packages/(infra|compute)/src', pathNot: '^packages/$1/' },
    },
    {
      name: 'compute-not-interface',
      severity: 'error',
      from: { path: layer('compute') },
      to: { path: pkgs('interface', 'library', 'cli') },
    },
    {
      name: 'testkit-only-in-tests',
      severity: 'error',
      comment: 'the private testkit (harnesses, fake servers, fixtures) never reaches a shipped dist/',
      from: { path: '^packages/(?!testkit/|e2e/)', pathNot: '\\.(spec|e2e)\\.ts$' },
      to: { path: '^packages/testkit/' },
    },
    {
      name: 'only-cli-imports-library',
      severity: 'error',
      comment: 'the composition root: the binary and the e2e specs build on it, no lower layer does',
      from: { pathNot: '^packages/(library|cli|e2e)/' },
      to: { path: '^packages/library/' },
    },
    {
      name: 'nothing-imports-cli',
      severity: 'error',
      from: { pathNot: '^packages/(cli|e2e)/' },
      to: { path: '^packages/cli/' },
    },
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'no-orphans',
      severity: 'error',
      from: {
        orphan: true,
        pathNot: [
          '\\.(spec|e2e|d)\\.ts$',
          '(^|/)tsconfig\\.json$',
          '\\.config\\.',
          'packages/[^/]+/src/index\\.ts$',
          'packages/cli/src/main\\.ts$',
          'packages/app/src/testing/index\\.ts$',
          'packages/library/src/(testing|commands)/index\\.ts$',
          // jest's setupFiles for the e2e project
          'packages/e2e/src/plain-node-env\\.ts$',
        ],
      },
      to: {},
    },
    { name: 'not-to-unresolvable', severity: 'error', from: {}, to: { couldNotResolve: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['dist/', 'node_modules'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['main', 'types'],
    },
  },
};
