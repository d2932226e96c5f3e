'use strict';
/*
 * The floor the files list through the gateway is compared with: one Fastify process that reads a
 * page of a provider's IndexedFiles with pg and answers the same JSON, with no auth, no NATS, no
 * provider check and no Nest. Like the service it reads the page and the total in one query (a
 * window count), ordered as the default listing is (lower(name), id). The
 * namespace is fixed by NAMESPACE_ID, since there is no token to take it from. Run as its own
 * process by the providers scenario (PORT, DATABASE_URL, DATABASE_POOL_SIZE, NAMESPACE_ID).
 */
const Fastify = require('fastify');
const { Pool } = require('pg');

const namespaceId = process.env.NAMESPACE_ID;
if (!namespaceId) {
  process.stderr.write('bare files server: NAMESPACE_ID is required\n');
  process.exit(1);
}
const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE) || 10,
});
// The columns the API shows (indexing-service's toIndexedFileDto), not the pipeline's bookkeeping.
const PAGE = `SELECT id, created_time, owner_id, policy_id, provider_id, name, key, size, checksum, media_type,
                     extension, indexed, match_computed, title, authors, description, status, error_message,
                     owner_first_name, owner_last_name, owner_email, owner_avatar_url, provider_name, additional_info,
                     count(*) OVER () AS total
                FROM indexing.files
               WHERE namespace_id = $1 AND provider_id = $2
               ORDER BY lower(name) ASC, id ASC
              OFFSET $3 LIMIT $4`;
const COUNT = `SELECT count(*) AS n FROM indexing.files WHERE namespace_id = $1 AND provider_id = $2`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const bigint = (v) => (v === null ? null : Number(v));

function toDto(f) {
  return {
    id: { id: f.id, entityType: 'FILE' },
    createdTime: Number(f.created_time),
    owner: { id: f.owner_id },
    policy: { id: f.policy_id, entityType: 'POLICY' },
    providerId: { id: f.provider_id, entityType: 'PROVIDER' },
    name: f.name,
    path: f.key,
    key: f.key,
    size: bigint(f.size),
    checksum: f.checksum,
    mediaType: f.media_type,
    extension: f.extension,
    indexed: f.indexed,
    matchComputed: f.match_computed,
    displayName: f.title || f.name,
    dbName: f.name,
    lastIndexationInfos: { status: f.status, errorMessage: f.error_message, errorTraceback: null },
    ownerFirstName: f.owner_first_name,
    ownerLastName: f.owner_last_name,
    ownerEmail: f.owner_email,
    ownerAvatarUrl: f.owner_avatar_url,
    providerName: f.provider_name,
    additionalInfo: f.additional_info,
    additionalInfos: f.additional_info,
    description: f.description,
    authors: f.authors,
    title: f.title,
    lastMergeJob: null,
    type: 'FILE',
  };
}

const app = Fastify({ logger: false });

app.get('/health/ready', async () => {
  await pool.query('SELECT 1');
  return { status: 'ok' };
});

app.get('/api/core/files', async (request, reply) => {
  const { providerId } = request.query;
  const page = Number(request.query.page);
  const pageSize = Number(request.query.pageSize);
  if (!Number.isInteger(page) || page < 0 || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
    return reply.code(400).send({ status: 400, code: 'BAD_REQUEST' });
  }
  if (typeof providerId !== 'string' || !UUID.test(providerId)) {
    return { data: [], totalPages: 0, totalElements: 0, hasNext: false };
  }
  const { rows } = await pool.query(PAGE, [namespaceId, providerId, page * pageSize, pageSize]);
  // Past the last page there is no row to carry the total: then it takes a count, as the service does.
  const total = rows.length ? Number(rows[0].total) : Number((await pool.query(COUNT, [namespaceId, providerId])).rows[0].n);
  const totalPages = Math.ceil(total / pageSize);
  return { data: rows.map(toDto), totalPages, totalElements: total, hasNext: page + 1 < totalPages };
});

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    app
      .close()
      .then(() => pool.end())
      .finally(() => process.exit(0));
  });
}

app.listen({ port: Number(process.env.PORT) || 0, host: process.env.HOST || '127.0.0.1' }).catch((err) => {
  process.stderr.write(`bare files server failed to start: ${err.message}\n`);
  process.exit(1);
});
