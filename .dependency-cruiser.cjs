/** Layer rules: domain <- app <- interface <- cli, and app <- infra <- cli. */
const layer = (name) => `^packages/${name}/src`;
module.exports = {
  forbidden: [
    { name: 'domain-is-pure', severity: 'error', comment: 'domain imports nothing of ours and no I/O',
      from: { path: layer('domain') }, to: { path: ['^packages/(app|interface|infra|cli)/', '^(fs|node:|process|tsyringe|pino)'] } },
    { name: 'domain-no-io', severity: 'error', from: { path: layer('domain') }, to: { dependencyTypes: ['core'] } },
    { name: 'app-only-domain', severity: 'error', from: { path: layer('app') }, to: { path: '^packages/(interface|infra|cli)/' } },
    { name: 'interface-not-infra', severity: 'error', from: { path: layer('interface') }, to: { path: '^packages/(infra|cli)/' } },
    { name: 'infra-not-interface', severity: 'error', from: { path: layer('infra') }, to: { path: '^packages/(interface|cli)/' } },
    { name: 'nothing-imports-cli', severity: 'error', from: { pathNot: '^packages/(cli|e2e)/' }, to: { path: '^packages/cli/' } },
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    { name: 'no-orphans', severity: 'error',
      from: { orphan: true, pathNot: ['\\.(spec|e2e|d)\\.ts$', '(^|/)tsconfig\\.json$', '\\.config\\.', 'packages/[^/]+/src/index\\.ts$', 'packages/cli/src/main\\.ts$', 'packages/app/src/testing/index\\.ts$'] }, to: {} },
    { name: 'not-to-unresolvable', severity: 'error', from: {}, to: { couldNotResolve: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['dist/', 'node_modules'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    combinedDependencies: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], mainFields: ['main', 'types'] },
  },
};
