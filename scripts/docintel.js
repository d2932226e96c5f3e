#!/usr/bin/env node
/*
 * `npm run docintel -- <command>`: the administration CLI, run from the build as it is. It never
 * builds first: a build takes minutes, fails on a read-only checkout and rewrites the files a
 * running stack serves. `doctor` needs no build (it checks, among other things, that there is one).
 */
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const CLI = join(__dirname, '..', 'apps', 'api-gateway', 'dist', 'cli', 'main.js');

if (process.argv[2] === 'doctor') {
  require('./doctor')
    .main()
    .then((code) => process.exit(code));
} else if (!existsSync(CLI)) {
  process.stderr.write(`docintel's CLI is not built (${CLI} is missing): run \`npm run build\` once, then try again.\n`);
  process.exit(1);
} else {
  require(CLI);
}
