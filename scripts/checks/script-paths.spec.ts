import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The scripts import the packages by name (their public entries, built by `tsc -b`). The paths left are the cli's
// binary, the schema generator's input types, and the WebGPU bench packer's map from package names to their sources;
// a moved source file breaks them without any compile error, so each must still name a source file.
const repo = join(__dirname, '..', '..');
const scripts = readdirSync(join(repo, 'scripts')).filter((f) => /\.(ts|cjs|js)$/.test(f));

const sourceOf = (built: string): string[] => {
  const src = built.replace('/dist/', '/src/').replace(/\.js$/, '');
  return [`${src}.ts`, src, join(src, 'index.ts')];
};

describe('paths the scripts load from the packages', () => {
  const refs = scripts.flatMap((file) =>
    [
      ...readFileSync(join(repo, 'scripts', file), 'utf8').matchAll(
        /packages\/[a-z-]+\/(?:dist|src)\/[A-Za-z0-9/_.-]+/g,
      ),
    ].map((m) => [file, m[0]] as const),
  );

  it('finds some', () => expect(refs.length).toBeGreaterThan(5));

  it("reach into no package's dist/ but the cli's binary (import the package by name)", () => {
    expect(refs.filter(([, ref]) => ref.includes('/dist/') && ref !== 'packages/cli/dist/main.js')).toEqual([]);
  });

  it('name sources only in the packer (its map from names to sources) and as the schema types', () => {
    const sources = refs.filter(([, ref]) => ref.includes('/src/'));
    expect(
      sources.filter(([file]) => file !== 'pack-webgpu-bench.cjs' && file !== 'generate-report-schemas.cjs'),
    ).toEqual([]);
  });

  it.each(refs)('%s: %s names a source file', (_file, ref) => {
    expect(sourceOf(ref).some((p) => existsSync(join(repo, p)))).toBe(true);
  });
});
