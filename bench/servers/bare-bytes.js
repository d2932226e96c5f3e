'use strict';
/*
 * The floor the byte path through the gateway is compared with: one Fastify process that does a
 * transfer's work once, in the most direct way Node offers, with no auth, no grant, no second hop
 * and no limits. POST /upload takes a multipart body (the same @fastify/multipart parser as the
 * gateway) and writes the file part to ROOT/<name> with an fsync before it answers, as the LOCAL
 * driver does; GET /download/<name> streams that file back with its Content-Length. Run as its own
 * process by bench/storage (PORT, ROOT).
 */
const Fastify = require('fastify');
const multipart = require('@fastify/multipart');
const { createReadStream, createWriteStream } = require('node:fs');
const { stat } = require('node:fs/promises');
const { basename, join } = require('node:path');
const { pipeline } = require('node:stream/promises');

const root = process.env.ROOT;
if (!root) {
  process.stderr.write('bare bytes server: ROOT is required\n');
  process.exit(1);
}

const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
app.register(multipart, { limits: { fileSize: Number.MAX_SAFE_INTEGER, files: 1 } });

app.get('/health/ready', async () => ({ status: 'ok' }));

app.post('/upload', async (req, reply) => {
  const part = await req.file();
  if (!part) return reply.status(400).send({ message: 'no file part' });
  const path = join(root, basename(part.filename));
  const out = createWriteStream(path, { flush: true });
  await pipeline(part.file, out);
  return reply.status(201).send({ key: basename(path), size: out.bytesWritten });
});

app.get('/download/:name', async (req, reply) => {
  const path = join(root, basename(req.params.name));
  const { size } = await stat(path);
  return reply.header('content-type', 'application/octet-stream').header('content-length', String(size)).send(createReadStream(path));
});

app.listen({ port: Number(process.env.PORT) || 0, host: process.env.HOST || '127.0.0.1' }).catch((err) => {
  process.stderr.write(`bare bytes server: ${err.message}\n`);
  process.exit(1);
});
