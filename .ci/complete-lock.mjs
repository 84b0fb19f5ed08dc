/* global process */
// Adds to package-lock.json the entries of rollup's and DuckDB's platform binaries that the registry mirror here does
// not serve
// (npm install leaves them out, and npm ci then refuses the lock). Each entry carries its os/cpu/libc, so npm ci
// skips it on other platforms and installs the real one where it matches. Run after every npm install:
//   node .ci/complete-lock.mjs package-lock.json
import fs from 'node:fs';
const f = process.argv[2];
const lock = JSON.parse(fs.readFileSync(f, 'utf8'));
const pk = lock.packages;
const rollup = pk['node_modules/rollup'];
const cpuMap = { 'arm-eabi': 'arm', arm64: 'arm64', x64: 'x64', ia32: 'ia32', arm: 'arm', loong64: 'loong64', ppc64: 'ppc64', riscv64: 'riscv64', s390x: 's390x' };
for (const [name, version] of Object.entries(rollup.optionalDependencies)) {
  const key = 'node_modules/' + name;
  if (pk[key]) continue;
  const m = name.match(/^@rollup\/rollup-([a-z0-9]+)-([a-z0-9]+)(?:-(eabi|gnueabihf|musleabihf|gnu|musl|msvc))?$/);
  if (!m) throw new Error('unexpected ' + name);
  let [, os, cpu, abi] = m;
  if (abi === 'eabi') cpu = 'arm';
  if (abi === 'gnueabihf' || abi === 'musleabihf') cpu = 'arm';
  const e = { version, cpu: [cpuMap[cpu] ?? cpu], dev: true, license: 'MIT', optional: true, os: [os] };
  if (os === 'linux' && abi) e.libc = [abi.startsWith('musl') ? 'musl' : 'glibc'];
  pk[key] = e;
}
// DuckDB's bindings: @duckdb/node-bindings-<os>-<cpu>[-musl].
const duckdb = pk['node_modules/@duckdb/node-bindings'];
for (const [name, version] of Object.entries(duckdb?.optionalDependencies ?? {})) {
  const key = 'node_modules/' + name;
  if (pk[key]) continue;
  const m = name.match(/^@duckdb\/node-bindings-([a-z0-9]+)-([a-z0-9]+)(-musl)?$/);
  if (!m) throw new Error('unexpected ' + name);
  const [, os, cpu, musl] = m;
  const e = { version, cpu: [cpu], dev: duckdb.dev === true, license: 'MIT', optional: true, os: [os] };
  if (os === 'linux') e.libc = [musl ? 'musl' : 'glibc'];
  pk[key] = e;
}
lock.packages = Object.fromEntries(Object.entries(pk).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
fs.writeFileSync(f, JSON.stringify(lock, null, 2) + '\n');
