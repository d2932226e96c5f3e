'use strict';
/*
 * The floor the gateway is compared with: one Fastify process that reads the provider row by id
 * with pg and answers the same JSON, with no auth, no NATS and no Nest. Run as its own process
 * by the providers scenario (PORT, DATABASE_URL, DATABASE_POOL_SIZE from the environment).
 */
const Fastify = require('fastify');
const { Pool } = require('pg');

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE) || 10,
});
const SELECT = `SELECT id, name, icon, type, settings, namespaces, system, policy_id, created_time
                  FROM storage.providers WHERE id = $1`;

const app = Fastify({ logger: false });

app.get('/health/ready', async () => {
  await pool.query('SELECT 1');
  return { status: 'ok' };
});

app.get('/api/core/providers/:id', async (request, reply) => {
  const { rows } = await pool.query(SELECT, [request.params.id]);
  const p = rows[0];
  if (!p) return reply.code(404).send({ status: 404, code: 'NOT_FOUND' });
  return {
    id: { id: p.id, entityType: 'PROVIDER' },
    createdTime: Number(p.created_time),
    owner: { id: 'system' },
    policy: { id: p.policy_id, entityType: 'POLICY' },
    name: p.name,
    icon: p.icon ?? '',
    config: { type: p.type, name: p.settings.name },
    type: p.type,
    system: p.system,
  };
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
  process.stderr.write(`bare server failed to start: ${err.message}\n`);
  process.exit(1);
});
