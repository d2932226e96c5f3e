'use strict';
/*
 * Vectors of the SciFact corpus and queries by the built-in embedder, cached outside the repository
 * (SciFact is CC BY-NC: neither it nor anything derived from it is committed). Embedding the corpus
 * with USE-lite takes tens of minutes on one core; the cache makes every later run take seconds.
 * The cache is keyed by the model id and the text cut (EMBEDDINGS_MAX_CHARS), one file per set.
 */
const { createHash } = require('node:crypto');
const { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const DEFAULT_DIR = process.env.RETRIEVAL_BENCH_CACHE ?? join(tmpdir(), 'docintel-bench-retrieval');

/**
 * Returns one Float32Array per text, computing (and caching) the missing ones with `embedder`.
 * `name` names the set (corpus, queries); texts are identified by their id and the hash of their text.
 */
async function cachedVectors(embedder, name, items, { maxChars, dir = DEFAULT_DIR, log = () => {}, slice = 64 } = {}) {
  mkdirSync(dir, { recursive: true });
  const tag = createHash('sha256').update(`${embedder.model}|${maxChars}`).digest('hex').slice(0, 12);
  const file = join(dir, `${name}-${tag}.json`);
  const cache = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const key = (it) => `${it.id}:${createHash('sha1').update(it.text).digest('hex').slice(0, 10)}`;
  const missing = items.filter((it) => !cache[key(it)]);
  if (missing.length) log(`embedding ${missing.length} of ${items.length} ${name} texts with ${embedder.model} (cached in ${file})`);
  const started = Date.now();
  for (let i = 0; i < missing.length; i += slice) {
    const part = missing.slice(i, i + slice);
    const vectors = await embedder.embed(part.map((it) => it.text.slice(0, maxChars)));
    part.forEach(
      (it, j) => (cache[key(it)] = Buffer.from(vectors[j].buffer, vectors[j].byteOffset, vectors[j].byteLength).toString('base64')),
    );
    const done = i + part.length;
    if (done % (slice * 8) === 0 || done === missing.length) {
      writeFileSync(`${file}.tmp`, JSON.stringify(cache));
      renameSync(`${file}.tmp`, file);
      const rate = done / ((Date.now() - started) / 1000);
      log(`  ${done}/${missing.length} (${rate.toFixed(1)} texts/s)`);
    }
  }
  return items.map((it) => {
    const buf = Buffer.from(cache[key(it)], 'base64');
    return new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  });
}

module.exports = { cachedVectors, DEFAULT_CACHE_DIR: DEFAULT_DIR };
