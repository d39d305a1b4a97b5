import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

// deps:check's plug-in rule is only worth something if it fires: plant name tests in a scratch copy of the sources
// and expect the real script to refuse the ones outside the plug-in's folder, naming file, line and name.
const root = resolve(__dirname, '../..');
const script = join(root, 'scripts', 'checks', 'plug-in-names.cjs');
const findFile = (dir: string, name: string): string => {
  const hit = readdirSync(dir, { recursive: true, encoding: 'utf8' }).find((p) => p.endsWith(`/${name}`));
  if (!hit) throw new Error(`${name} not found under ${dir}`);
  return join(dir, hit);
};
const check = (dir: string) => spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });

describe('plug-in-names (deps:check)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'maou-plug-in-names-'));
    for (const pkg of readdirSync(join(root, 'packages'))) {
      const src = join(root, 'packages', pkg, 'src');
      if (existsSync(src)) cpSync(src, join(dir, 'packages', pkg, 'src'), { recursive: true });
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('given the sources as they are, then it passes and lists the plug-ins it found', () => {
    const r = check(dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/plug-ins \(.*webgpu.*s3.*\); no name tested outside its folder/);
  });

  it('given name tests planted outside the plug-ins, then it fails naming each; inside its own folder one passes', () => {
    writeFileSync(
      join(dir, 'packages/app/src/planted.ts'),
      "export const planted = (b: string, k: string) => b === 'webgpu' || 'bigquery' !== k;\n",
    );
    writeFileSync(
      join(dir, 'packages/interface/src/planted.ts'),
      "export const planted = (k: string) => {\n  switch (k) {\n    case 's3':\n      return 1;\n  }\n  return 0;\n};\n",
    );
    // inside the wasm plug-in's own folder, wherever the packages put it
    writeFileSync(
      join(dirname(findFile(dir, 'wasm-backend.plugin.ts')), 'planted.ts'),
      "export const mine = (b: string) => b === 'wasm';\n",
    );
    const r = check(dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("packages/app/src/planted.ts:1: tests the plug-in name 'webgpu' outside");
    expect(r.stderr).toContain("packages/app/src/planted.ts:1: tests the plug-in name 'bigquery' outside");
    expect(r.stderr).toContain("packages/interface/src/planted.ts:3: tests the plug-in name 's3' outside");
    expect(r.stderr).not.toContain('wasm/planted.ts');
    expect(r.stderr).toMatch(/^plug-in-names: 3 test\(s\)/);
  });

  it('given a plug-in file whose name it cannot read, then it refuses rather than leave that name unguarded', () => {
    mkdirSync(join(dir, 'packages/infra/src/sources/azure'), { recursive: true });
    writeFileSync(
      join(dir, 'packages/infra/src/sources/azure/azure.source.ts'),
      "export const azureSource = make('azure-blob');\n",
    );
    const r = check(dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('packages/infra/src/sources/azure/azure.source.ts declares no name this check can read');
  });
});
