#!/usr/bin/env node
// The published packages as tarballs, for a service outside this repository (issue 42): `pnpm pack:all [DIR]` packs
// the nine packages into DIR (default maou-tarballs/) and prints the install lines. None of them is on a registry, so
// all nine are installed together: npm matches each tarball's dependencies on the others to the ones given beside it;
// pnpm needs them as overrides too. The consumer test packs the same way (packTarballs).
//
//   pnpm pack:all [DIR]     (builds first)
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const repo = path.resolve(__dirname, '../..');
/** Every published package, as its folder under packages/. */
const PACKAGES = ['domain', 'engine', 'app', 'interface', 'host', 'infra', 'compute', 'library', 'cli'];

// pnpm as this script was started by (`pnpm run`), else the pinned one through npx.
const pnpm = (argv, cwd, quiet = false) => {
  const viaPnpm = /pnpm/.test(process.env.npm_execpath ?? '');
  const [cmd, pre] = viaPnpm ? [process.execPath, [process.env.npm_execpath]] : ['npx', ['--yes', 'pnpm@10.34.8']];
  execFileSync(cmd, [...pre, ...argv], { cwd, stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'] });
};

/**
 * Packs every published package (`pnpm pack`: `workspace:*` becomes the exact version) into `dir`, which must be
 * built first. Returns { name, dir (the workspace folder), file (the tarball's name), path } for each.
 */
const packTarballs = (dir) => {
  pnpm(
    ['-r', ...PACKAGES.flatMap((p) => ['--filter', `./packages/${p}`]), 'pack', '--pack-destination', dir],
    repo,
    true,
  );
  return PACKAGES.map((p) => {
    const folder = `packages/${p}`;
    const { name, version } = JSON.parse(fs.readFileSync(path.join(repo, folder, 'package.json'), 'utf8'));
    const file = `${name.replace('@', '').replace('/', '-')}-${version}.tgz`;
    const at = path.join(dir, file);
    if (!fs.existsSync(at)) throw new Error(`pnpm pack wrote no ${at}`);
    return { name, dir: folder, file, path: at };
  });
};

/** The lines a user runs next, in their own project (`dir` absolute, so they work from anywhere). */
const installLines = (tarballs, dir) => [
  `npm:  npm install ${dir}/*.tgz   (global: npm install -g --allow-scripts=@maou/bench-compute …)`,
  'pnpm: these as "dependencies" and as "pnpm": {"overrides": …} in package.json, pnpm install, pnpm approve-builds:',
  JSON.stringify(Object.fromEntries(tarballs.map((t) => [t.name, `file:${dir}/${t.file}`])), null, 2),
];

if (require.main === module) {
  const given = process.argv[2] ?? 'maou-tarballs';
  // `pnpm pack:all` runs in the repository root; a relative DIR is the caller's.
  const dir = path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
  fs.mkdirSync(dir, { recursive: true });
  const tarballs = packTarballs(dir);
  console.log(`pack-tarballs: ${tarballs.length} tarballs in ${dir}`);
  for (const line of installLines(tarballs, dir)) console.log(line);
}

module.exports = { PACKAGES, packTarballs, pnpm };
