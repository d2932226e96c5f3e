'use strict';
/*
 * What the built CLI loads to run its commands against a migrated database (this machine's
 * PostgreSQL, a database of its own): the pg driver and its own files, never TypeORM, Nest,
 * @nestjs/swagger, class-validator or the docintel libraries that load them. Each command runs
 * with a preload that writes require.cache's files when the process exits.
 * apps/api-gateway/src/cli/module-graph.spec.ts checks the same of the sources.
 */
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');
const { PG_ADMIN_URL } = require('../../bench/lib/infra');

const CLI = join(__dirname, '..', '..', 'apps', 'api-gateway', 'dist', 'cli', 'main.js');
const HEAVY = /node_modules\/(typeorm|@nestjs\/[^/]+|class-validator|class-transformer|reflect-metadata)\/|libs\/[^/]+\/dist\//;
const database = `docintel_cli_modules_${randomBytes(4).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'docintel-cli-modules-'));
const preload = join(dir, 'preload.js');
let databaseUrl;

async function admin(sql) {
  const client = new Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Runs the CLI; resolves with its output and the files it had loaded when it exited. */
function cli(args, { record = true } = {}) {
  const list = join(dir, `${randomBytes(4).toString('hex')}.json`);
  const env = { PATH: process.env.PATH, HOME: process.env.HOME || tmpdir(), DATABASE_URL: databaseUrl, MODULES_FILE: list };
  return new Promise((resolve) => {
    execFile(process.execPath, [...(record ? ['-r', preload] : []), CLI, ...args], { env }, (err, stdout, stderr) =>
      resolve({ code: err ? err.code : 0, stdout, stderr, modules: record ? JSON.parse(readFileSync(list, 'utf8')) : [] }),
    );
  });
}

before(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  writeFileSync(
    preload,
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_FILE, JSON.stringify(Object.keys(require.cache))));\n",
  );
  await admin(`CREATE DATABASE "${database}"`);
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${database}`;
  databaseUrl = u.toString();
  // The first command on a new database runs the identity migrations, through TypeORM.
  const first = await cli(['token', 'list'], { record: false });
  assert.equal(first.code, 0, first.stderr);
});

after(async () => {
  await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  rmSync(dir, { recursive: true, force: true });
});

test('token create, list and revoke, member add and dev-token load no TypeORM, Nest, class-validator or docintel library', async () => {
  const created = await cli(['token', 'create', '--namespace', 'modules', '--user', 'modules@example.com']);
  assert.equal(created.code, 0, created.stderr);
  const tokenId = /^Token id: (\S+)$/m.exec(created.stdout)[1];
  const runs = [
    created,
    await cli(['token', 'list', '--namespace', 'modules']),
    await cli(['token', 'revoke', tokenId]),
    await cli(['member', 'add', '--namespace', 'other', '--user', 'modules@example.com']),
    await cli(['dev-token', '--file', join(dir, 'dev-token')]),
    await cli(['token', 'create', '--namespace', 'bad name', '--user', 'modules@example.com']),
  ];
  assert.deepEqual(
    runs.map((r) => r.code),
    [0, 0, 0, 0, 0, 1],
  );
  assert.match(runs[1].stdout, new RegExp(`^${tokenId}\\tmodules\\tmodules@example.com\\t`, 'm'));
  for (const run of runs) {
    assert.ok(
      run.modules.some((f) => f.includes('/node_modules/pg/')),
      'the pg driver is loaded',
    );
    assert.deepEqual(
      run.modules.filter((f) => HEAVY.test(f)),
      [],
    );
  }
});
