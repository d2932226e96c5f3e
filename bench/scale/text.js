'use strict';
/*
 * The passages of a scale namespace, generated deterministically from a seed so that every run (and
 * the baselines beside the product) sees the same text without holding a million passages in memory:
 * passage i is a function of (seed, i). The first passages are the real ones as they are; beyond
 * them a passage is real sentences drawn at random until it reaches the word count of a real passage
 * drawn at random, so lengths and the vocabulary's distribution stay those of real text.
 */
const { createHash } = require('node:crypto');

/** A small seeded PRNG (mulberry32): uniform numbers in [0, 1). */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed from any list of parts. */
function seedOf(...parts) {
  return createHash('sha1').update(parts.join('\u0000')).digest().readUInt32LE(0);
}

/** A stable UUID for a name (ids of files, nodes and namespaces must be UUIDs). */
function uuidOf(kind, id) {
  const h = createHash('sha1').update(`${kind}:${id}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const wordCount = (text) => text.split(/\s+/).filter(Boolean).length;

/** The sentences of a text: split after . ! ? (and a closing bracket or quote) before a capital, digit or opening bracket/quote. */
function splitSentences(text) {
  return text
    .split(/(?<=[.!?]["')\]]?)\s+(?=["'(\[A-Z0-9])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The passage generator over these real passages. `passage(i)` is real passage i while there are
 * some, then a recombination; sentences of 4 to 80 words form the pool (headings and run-on
 * fragments would skew the lengths).
 */
function passageSource(real, seed) {
  if (!real.length) throw new Error('no real passages to generate from');
  const lengths = real.map(wordCount);
  const pool = real.flatMap(splitSentences).filter((s) => {
    const n = wordCount(s);
    return n >= 4 && n <= 80;
  });
  if (!pool.length) throw new Error('no sentences of 4 to 80 words in the real passages');
  return {
    realCount: real.length,
    passage(i) {
      if (i < real.length) return real[i];
      const random = prng(seedOf(seed, 'passage', i));
      const target = lengths[Math.floor(random() * lengths.length)];
      const parts = [];
      let words = 0;
      while (words < target) {
        const s = pool[Math.floor(random() * pool.length)];
        parts.push(s);
        words += wordCount(s);
      }
      return parts.join(' ');
    },
  };
}

/** How many passages each file holds: min..max each (the last file takes the rest), summing to `size`. */
function fileSizes(size, seed, { min = 50, max = 200 } = {}) {
  const random = prng(seedOf(seed, 'files', size));
  const out = [];
  let left = size;
  while (left > 0) {
    const n = Math.min(left, min + Math.floor(random() * (max - min + 1)));
    out.push(n);
    left -= n;
  }
  return out;
}

/**
 * The namespace's files in order, each { index, fileId, passages: [{ nodeId, text }] }, generated
 * one at a time.
 */
function* corpusFiles(source, size, seed) {
  let next = 0;
  const sizes = fileSizes(size, seed);
  for (let f = 0; f < sizes.length; f++) {
    const passages = [];
    for (let k = 0; k < sizes[f]; k++, next++) passages.push({ nodeId: uuidOf('node', `${seed}:${next}`), text: source.passage(next) });
    yield { index: f, fileId: uuidOf('file', `${seed}:${f}`), passages };
  }
}

/** A random unit vector of `dims` dimensions (normal components, normalised), from its own seed. */
function unitVector(dims, seed) {
  const random = prng(seed);
  const v = new Float32Array(dims);
  let norm = 0;
  for (let i = 0; i < dims; i += 2) {
    // Box-Muller: two independent normals per pair of uniforms.
    const r = Math.sqrt(-2 * Math.log(1 - random()));
    const t = 2 * Math.PI * random();
    v[i] = r * Math.cos(t);
    if (i + 1 < dims) v[i + 1] = r * Math.sin(t);
  }
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  for (let i = 0; i < dims; i++) v[i] /= norm;
  return v;
}

/** `n` items of `list` chosen without repetition, the same ones for the same seed. */
function sample(list, n, seed) {
  const random = prng(seedOf(seed, 'sample'));
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}

module.exports = { prng, seedOf, uuidOf, wordCount, splitSentences, passageSource, fileSizes, corpusFiles, unitVector, sample };
