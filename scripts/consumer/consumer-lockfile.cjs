// Writes a consumer's pnpm-lock.yaml for the packed tarballs, from the workspace's own lockfile, so that
// `pnpm install --offline --frozen-lockfile` installs them with no network: pnpm resolves nothing (it would need the
// registry's metadata) and takes every third-party package from the store by the integrity recorded here.
// Text-based on purpose: the lockfile's layout is fixed (lockfileVersion 9.0) and no YAML library is a root dependency.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');

/** The top-level sections of a lockfile, each as its lines (without the header line). */
function sections(text) {
  const out = {};
  let current = null;
  for (const line of text.split('\n')) {
    const top = /^([A-Za-z]+):\s*(.*)$/.exec(line);
    if (top) {
      current = top[1];
      out[current] = top[2] ? [top[2]] : [];
    } else if (current) out[current].push(line);
  }
  return out;
}

/** importer path -> { dependencies, devDependencies, optionalDependencies: name -> { specifier, version } } */
function importers(lines) {
  const out = {};
  let importer;
  let group;
  let dep;
  for (const line of lines) {
    let m;
    if ((m = /^ {2}(\S.*):\s*(\{\})?$/.exec(line))) out[(importer = m[1].replace(/^'|'$/g, ''))] = {};
    else if ((m = /^ {4}(\w+):$/.exec(line))) out[importer][(group = m[1])] = {};
    else if ((m = /^ {6}(\S.*):$/.exec(line))) out[importer][group][(dep = m[1].replace(/^'|'$/g, ''))] = {};
    else if ((m = /^ {8}(specifier|version): (.*)$/.exec(line))) out[importer][group][dep][m[1]] = m[2];
  }
  return out;
}

const quote = (s) => `'${s}'`;

/**
 * @param workspaceLock text of the workspace's pnpm-lock.yaml
 * @param tarballs { name, dir (the workspace package, e.g. packages/infra), file (relative to the consumer), path }[]
 * @param devDependencies names of the root's devDependencies the consumer also needs (typescript, jest, …)
 * @param hostDependencies name -> exact version: the consumer's own copies of packages ours use too (its own tsyringe);
 *   each must be in the workspace's lockfile (so in the store), as a dependency or an npm: alias of one
 * @returns the lockfile's text, and the specifiers of those devDependencies for the consumer's package.json
 */
function consumerLockfile(workspaceLock, tarballs, devDependencies, hostDependencies = {}) {
  const s = sections(workspaceLock);
  const imp = importers(s.importers);
  // The consumer gets the packages as published: without the workspace's patches.
  const unpatch = (line) => line.replace(/\(patch_hash=[0-9a-f]+\)/g, '');
  const byName = new Map(tarballs.map((t) => [t.name, t]));
  const ref = (name, version) => (byName.has(name) ? `file:${byName.get(name).file}` : unpatch(version));
  const lines = [
    "lockfileVersion: '9.0'",
    '',
    'settings:',
    ...s.settings.filter(Boolean),
    '',
    'importers:',
    '',
    '  .:',
  ];
  lines.push('    dependencies:');
  for (const t of tarballs)
    lines.push(`      ${quote(t.name)}:`, `        specifier: file:${t.file}`, `        version: file:${t.file}`);
  for (const [name, version] of Object.entries(hostDependencies)) {
    if (!s.packages.includes(`  ${name}@${version}:`))
      throw new Error(`consumer-lockfile: ${name}@${version} is not in the workspace's lockfile (add it as an alias)`);
    lines.push(`      ${quote(name)}:`, `        specifier: ${version}`, `        version: ${version}`);
  }
  lines.push('    devDependencies:');
  const devSpecifiers = {};
  for (const name of devDependencies) {
    const d = imp['.'].devDependencies[name];
    if (!d) throw new Error(`consumer-lockfile: ${name} is not a devDependency of the workspace root`);
    devSpecifiers[name] = d.specifier;
    lines.push(`      ${quote(name)}:`, `        specifier: ${d.specifier}`, `        version: ${d.version}`);
  }
  lines.push('', 'packages:', '');
  for (const t of tarballs) {
    const integrity = `sha512-${crypto.createHash('sha512').update(fs.readFileSync(t.path)).digest('base64')}`;
    const pkg = JSON.parse(fs.readFileSync(`${t.dir}/package.json`, 'utf8'));
    lines.push(
      `  ${quote(`${t.name}@file:${t.file}`)}:`,
      `    resolution: {integrity: ${integrity}, tarball: file:${t.file}}`,
      `    version: ${pkg.version}`,
      ...(pkg.engines?.node ? [`    engines: {node: ${quote(pkg.engines.node)}}`] : []),
      ...(pkg.bin ? ['    hasBin: true'] : []),
      '',
    );
  }
  lines.push(...s.packages.map(unpatch).filter((l, i) => i > 0 || l), '', 'snapshots:', '');
  for (const t of tarballs) {
    const own = imp[t.dir] ?? {};
    const groups = ['dependencies', 'optionalDependencies'].filter((g) => Object.keys(own[g] ?? {}).length);
    lines.push(`  ${quote(`${t.name}@file:${t.file}`)}:${groups.length ? '' : ' {}'}`);
    for (const group of groups) {
      lines.push(`    ${group}:`);
      for (const [name, d] of Object.entries(own[group])) lines.push(`      ${quote(name)}: ${ref(name, d.version)}`);
    }
    lines.push('');
  }
  // The workspace's snapshots, unpatched; a package the workspace has only patched appears once, unpatched.
  const seen = new Set();
  let skipping = false;
  for (const raw of s.snapshots) {
    const line = unpatch(raw);
    const key = /^ {2}(\S.*):/.exec(line);
    if (key) {
      skipping = seen.has(key[1]);
      seen.add(key[1]);
    }
    if (!skipping) lines.push(line);
  }
  return {
    text: `${lines
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd()}\n`,
    devSpecifiers,
  };
}

module.exports = { consumerLockfile };
