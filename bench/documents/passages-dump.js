'use strict';
/*
 * Development aid of the documents bench: the passages the QA engine reads for each question,
 * fetched from the running stack's indexing-service as job-orchestrator fetches them (the same
 * search call, query cues and section preference), so that reader changes can be tried offline
 * in seconds with replay.js instead of a run through the stack. Used when BENCH_DOCUMENTS_DUMP is set.
 */
const { randomUUID } = require('node:crypto');
const { writeFileSync } = require('node:fs');
const { connect, headers, JSONCodec } = require('nats');
const { Client } = require('pg');
const { cuedQuery, cuedQuestion, preferSection, sectionCue } = require('@docintel/answering');

const codec = JSONCodec();
/** As job-orchestrator's JOB_PASSAGES default. */
const LIMIT = 40;

async function dumpPassages(stack, documents, namespace, file) {
  const db = new Client({ connectionString: stack.env.DATABASE_URL });
  db.on('error', () => {}); // a connection dropped at teardown is not this tool's failure
  await db.connect();
  const { rows } = await db.query('SELECT id FROM identity.namespaces WHERE name = $1', [namespace]);
  await db.end();
  const nc = await connect({ servers: stack.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  const prefix = stack.env.NATS_PREFIX;
  const out = [];
  try {
    for (const doc of documents.filter((d) => d.indexing?.ok)) {
      for (const q of doc.questions) {
        const cue = sectionCue(q.question);
        const h = headers();
        h.set('x-request-id', randomUUID());
        h.set('x-namespace-id', rows[0].id);
        const msg = await nc.request(
          `${prefix ? `${prefix}.` : ''}indexing.passages.search`,
          codec.encode({ query: cuedQuery(q.question, cue).slice(0, 8000), fileIds: [doc.fileId], limit: LIMIT }),
          { timeout: 30_000, headers: h },
        );
        const status = msg.headers?.get('x-rpc-status');
        const reply = msg.data.length ? codec.decode(msg.data) : null;
        if (status && status !== 'ok' && status !== '200') throw new Error(`passage search for ${q.id}: ${status} ${JSON.stringify(reply).slice(0, 300)}`);
        if (!reply?.passages) throw new Error(`passage search for ${q.id} failed: ${JSON.stringify(reply).slice(0, 300)}`);
        out.push({ id: q.id, question: cuedQuestion(q.question, cue), passages: preferSection(reply.passages, cue) });
      }
    }
  } finally {
    await nc.close();
  }
  writeFileSync(file, JSON.stringify(out));
  return out.length;
}

module.exports = { dumpPassages };
