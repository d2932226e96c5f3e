'use strict';
/*
 * A private database and NATS prefix for one benchmark run, on the Postgres and NATS the
 * machine already runs (the same arrangement as libs/testing, in plain JavaScript so that the
 * benchmark needs nothing but the built apps).
 */
const { randomBytes } = require('node:crypto');
const { Client } = require('pg');
const { connect } = require('nats');

const PG_ADMIN_URL = process.env.BENCH_PG_ADMIN_URL || process.env.TEST_PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.BENCH_NATS_URL || process.env.TEST_NATS_URL || 'nats://127.0.0.1:4222';

function withDatabase(url, db) {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

async function admin(sql) {
  const client = new Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Deletes every stream and key-value/object bucket whose name starts with the prefix. */
async function deleteNatsPrefix(prefix) {
  const nc = await connect({ servers: NATS_URL.split(','), timeout: 5000 });
  try {
    const jsm = await nc.jetstreamManager();
    for await (const s of jsm.streams.list()) {
      const name = s.config.name;
      if ([`${prefix}_`, `KV_${prefix}_`, `OBJ_${prefix}_`].some((p) => name.startsWith(p))) {
        await jsm.streams.delete(name);
      }
    }
  } finally {
    await nc.close();
  }
}

async function startInfrastructure(label) {
  const id = `${label
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()
    .slice(0, 20)}_${randomBytes(4).toString('hex')}`;
  const database = `docintel_bench_${id}`;
  const natsPrefix = `bench_${id}`;
  await admin(`CREATE DATABASE "${database}"`);
  let tornDown = false;
  return {
    databaseUrl: withDatabase(PG_ADMIN_URL, database),
    natsUrl: NATS_URL,
    natsPrefix,
    database,
    async teardown() {
      if (tornDown) return;
      tornDown = true;
      const problems = [];
      await deleteNatsPrefix(natsPrefix).catch((e) => problems.push(`NATS prefix ${natsPrefix}: ${e.message}`));
      await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch((e) => problems.push(`database ${database}: ${e.message}`));
      if (problems.length) throw new Error(`cleanup incomplete:\n  ${problems.join('\n  ')}`);
    },
  };
}

module.exports = { startInfrastructure, deleteNatsPrefix, NATS_URL, PG_ADMIN_URL };
