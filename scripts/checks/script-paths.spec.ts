import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The scripts import the library packages by name (their public entries, built by `tsc -b`). The paths left are the
// cli's own build output (the binary, the schema generator's input) and the exact sources the WebGPU bench packer
// carries; a moved source file breaks them without any compile error, so each must still name a source file.
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

  it('finds some', () => expect(refs.length).toBeGreaterThan(10));

  it('reach into no library package dist/ (import the package by name)', () => {
    expect(refs.filter(([, ref]) => /^packages\/(?!cli\/)[a-z-]+\/dist\//.test(ref))).toEqual([]);
  });

  it.each(refs)('%s: %s names a source file', (_file, ref) => {
    expect(sourceOf(ref).some((p) => existsSync(join(repo, p)))).toBe(true);
  });
});
