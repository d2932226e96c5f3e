'use strict';
/*
 * The floor the files list through the gateway is compared with: one Fastify process that reads a
 * page of a provider's IndexedFiles with pg and answers the same JSON, with no auth, no NATS, no
 * provider check and no Nest. Like the service it reads the page and the total in one query,
 * ordered as the default listing is (lower(name), id). The
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
// As indexing-service reads it: the page along the sort's index (provider_files_page) and the total
// from the counter the files triggers keep, in one statement.
const PAGE = `SELECT f.id, f.created_time, f.owner_id, f.policy_id, f.provider_id, f.name, f.key, f.size, f.checksum, f.media_type,
                     f.extension, f.indexed, f.match_computed, f.title, f.authors, f.description, f.status, f.error_message,
                     f.owner_first_name, f.owner_last_name, f.owner_email, f.owner_avatar_url, f.provider_name, f.additional_info,
                     c.n AS total
                FROM (SELECT COALESCE((SELECT n FROM indexing.provider_file_counts WHERE namespace_id = $1 AND provider_id = $2), 0) AS n) c
                LEFT JOIN indexing.provider_files_page($1, $2, 'name', false, $3, $4) f ON true`;
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
  const total = Number(rows[0].total);
  // An empty page still has its one row: the counter's, with no file.
  if (rows[0].id === null) rows.length = 0;
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
