// Every installed package must run on the oldest Node the README promises (issue 15 §7):
// a dependency that raises its `engines.node` past that fails here, in CI, instead of
// greeting a newcomer with EBADENGINE warnings (or worse) on `npm install`.
// Reads the lockfile, so it checks exactly what `npm ci` installs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const oldest = semver.minVersion(pkg.engines.node).version;
const bad = [];
for (const [where, entry] of Object.entries(lock.packages)) {
  const range = entry.engines?.node;
  // Optional packages for other platforms (esbuild's, rollup's binaries) are never installed here.
  if (!where || !range || (entry.optional && (entry.os || entry.cpu))) continue;
  if (!semver.satisfies(oldest, range)) bad.push(`${where}@${entry.version} needs node ${range}`);
}
const running = process.versions.node;
if (!semver.satisfies(running, pkg.engines.node)) bad.push(`this Node (${running}) is outside the promise ${pkg.engines.node}`);
if (bad.length) {
  console.error(`Packages that do not run on Node ${oldest}, the oldest that package.json and the README promise:\n  ${bad.join('\n  ')}`);
  console.error('Pin a compatible version under "overrides" in package.json, or raise the promise in package.json, .nvmrc, the README and .ci/run together.');
  process.exit(1);
}
console.log(`engines: every package in the lockfile runs on Node ${oldest} (promise: ${pkg.engines.node}; running ${running}).`);
