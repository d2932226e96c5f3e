#!/usr/bin/env node
/*
 * Speed of the built-in embedder on one core: `npm run build && taskset -c 0 node libs/ai/bench/embeddings.js`.
 * Prints sentences per second for three text lengths, the first-call latency (model load) and RSS.
 */
'use strict';
require('reflect-metadata');
const { BuiltinEmbedder } = require('../dist');

const WORDS = (
  'the quarterly revenue of the company grew by seven percent compared with the previous year driven by strong demand ' +
  'in european markets while operating costs remained stable and margins improved across every product line'
).split(' ');
const text = (i, n) => Array.from({ length: n }, (_, j) => WORDS[(i * 7 + j) % WORDS.length]).join(' ');

async function main() {
  const embedder = new BuiltinEmbedder({ batchSize: 32, maxChars: 2000 });
  let t = performance.now();
  await embedder.embed(['warm up']);
  console.log(`model load + first call: ${(performance.now() - t).toFixed(0)} ms`);
  for (const [label, words, count] of [
    ['short (8 words)', 8, 512],
    ['sentence (20 words)', 20, 256],
    ['paragraph (60 words)', 60, 128],
  ]) {
    const texts = Array.from({ length: count }, (_, i) => text(i, words));
    t = performance.now();
    await embedder.embed(texts);
    const s = (performance.now() - t) / 1000;
    console.log(`${label}: ${(count / s).toFixed(1)} texts/s`);
  }
  console.log(`RSS: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB (main thread and model worker)`);
  await embedder.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
