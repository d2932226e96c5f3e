/*
 * The two servers docintel needs, PostgreSQL and NATS with JetStream: whether they answer, and
 * what to do when they do not (start a container where an engine answers, else what to install on
 * this platform). Used by `npm start` (scripts/start.js) and `npm run docintel -- doctor`.
 */
'use strict';
const { execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { Client } = require('pg');
const { connect } = require('nats');

const MIN_POSTGRES_VERSION_NUM = 150000;

/** Connects to the server of DATABASE_URL; `missingDatabase` when only the database is absent. */
async function probePostgres(databaseUrl) {
  const attempt = async (url) => {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    await client.connect();
    try {
      const { rows } = await client.query(
        "SELECT current_setting('server_version_num')::int AS num, current_setting('server_version') AS version, " +
          "EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS vector",
      );
      return rows[0];
    } finally {
      await client.end();
    }
  };
  try {
    return { ok: true, missingDatabase: false, ...(await attempt(databaseUrl)) };
  } catch (err) {
    if (err.code !== '3D000') return { ok: false, error: err.message };
    const admin = new URL(databaseUrl);
    admin.pathname = '/postgres';
    try {
      return { ok: true, missingDatabase: true, ...(await attempt(admin.toString())) };
    } catch (e) {
      return { ok: false, error: e.message };
    }
  }
}

/** Connects to NATS and asks JetStream for the account's information. */
async function probeNats(natsUrl) {
  let nc;
  try {
    nc = await connect({ servers: natsUrl.split(','), timeout: 3000, maxReconnectAttempts: 0 });
  } catch (err) {
    return { ok: false, error: err.message };
  }
  try {
    await (await nc.jetstreamManager()).getAccountInfo();
    return { ok: true, jetstream: true, version: nc.info?.version };
  } catch (err) {
    return { ok: false, jetstream: false, version: nc.info?.version, error: `no JetStream (${err.message})` };
  } finally {
    await nc.close();
  }
}

/** Whether a container engine answers (`docker info`), and which one. */
function containerEngine(run = execFileSync) {
  try {
    run('docker', ['info'], { stdio: 'ignore', timeout: 10_000 });
    return 'docker';
  } catch {
    return null;
  }
}

/** The newest locally built image of scripts/test-containers.sh (docintel-local/<name>), if any. */
function localImage(name, run = execFileSync) {
  try {
    const out = run('docker', ['images', `docintel-local/${name}`, '--format', '{{.Repository}}:{{.Tag}}'], { timeout: 10_000 });
    return (
      out
        .toString()
        .split('\n')
        .find((l) => l && !l.endsWith(':<none>')) ?? null
    );
  } catch {
    return null;
  }
}

/** The port a server URL names (the first of a comma-separated list), else the server's own default. */
function urlPort(url, fallback) {
  try {
    return new URL(url.split(',')[0].trim()).port || String(fallback);
  } catch {
    return String(fallback);
  }
}

/** The user of DATABASE_URL, when it names one other than the image's own superuser. */
function urlUser(url) {
  try {
    return decodeURIComponent(new URL(url).username) || 'postgres';
  } catch {
    return 'postgres';
  }
}

// Each container publishes the port the URL names, on 127.0.0.1 only, so that the server it starts
// is the one the URL reaches (a DATABASE_URL on 5433, beside a PostgreSQL on 5432, gets its own).
const CONTAINERS = {
  postgres: (image, url = '') => [
    'run',
    '-d',
    '--name',
    'docintel-postgres',
    '-p',
    `127.0.0.1:${urlPort(url, 5432)}:5432`,
    '-e',
    'POSTGRES_HOST_AUTH_METHOD=trust',
    // The image creates this superuser (trust: any password the URL carries is accepted).
    ...(urlUser(url) === 'postgres' ? [] : ['-e', `POSTGRES_USER=${urlUser(url)}`]),
    image,
  ],
  // The official image's entrypoint is nats-server, so the arguments replace its configuration.
  nats: (image, url = '') => [
    'run',
    '-d',
    '--name',
    'docintel-nats',
    '-p',
    `127.0.0.1:${urlPort(url, 4222)}:4222`,
    image,
    ...(image.startsWith('docintel-local/') ? [] : ['-js']),
  ],
};
const OFFICIAL_IMAGES = { postgres: 'postgres:16', nats: 'nats:2' };

/**
 * `docker run` arguments for the server the URL names: the local build when there is one, else
 * the official image, published on the URL's port.
 */
function containerArgs(kind, url, run = execFileSync) {
  return CONTAINERS[kind](localImage(kind, run) ?? OFFICIAL_IMAGES[kind], url);
}

/** Debian, Ubuntu (and their kin) or macOS, from /etc/os-release and process.platform. */
function platformOf(platform = process.platform, osRelease = readOsRelease()) {
  if (platform === 'darwin') return 'macos';
  if (platform === 'linux' && /^(ID|ID_LIKE)=.*\b(debian|ubuntu)\b/m.test(osRelease)) return 'debian';
  return 'other';
}

function readOsRelease() {
  try {
    return readFileSync('/etc/os-release', 'utf8');
  } catch {
    return '';
  }
}

const INSTALL = {
  debian: {
    postgres: [
      'sudo apt-get install -y postgresql postgresql-contrib   # 15 on Debian 12, 16 on Ubuntu 24.04; older releases: apt.postgresql.org',
      'sudo apt-get install -y postgresql-15-pgvector          # optional: vector search (name the installed version)',
      'sudo pg_ctlcluster $(ls /etc/postgresql) main start',
      'sudo -u postgres psql -c "ALTER USER postgres PASSWORD \'postgres\'"   # then DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/docintel',
    ],
    nats: ['sudo apt-get install -y nats-server', 'nats-server -a 127.0.0.1 -p {port} -js &'],
  },
  macos: {
    postgres: ['brew install postgresql@16 pgvector', 'brew services start postgresql@16'],
    nats: ['brew install nats-server', 'nats-server -a 127.0.0.1 -p {port} -js &'],
  },
  other: {
    postgres: ['install PostgreSQL 15 or newer: https://www.postgresql.org/download/'],
    nats: ['install nats-server 2.9 or newer and run it with -js: https://docs.nats.io/running-a-nats-service/introduction/installation'],
  },
};

/** The URL with its password masked, for messages. */
function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

/** What to do about a server that does not answer: the exact commands, for an engine or for this platform. */
function remedy(kind, { engine, platform, dockerArgs, url }) {
  const lines = engine
    ? [`start it in a container:`, `  docker ${(dockerArgs ?? CONTAINERS[kind](OFFICIAL_IMAGES[kind], url)).join(' ')}`]
    : [
        `install and start it (${platform === 'other' ? 'see' : platform === 'macos' ? 'macOS, Homebrew' : 'Debian/Ubuntu'}):`,
        ...INSTALL[platform][kind].map((l) => `  ${l.replace('{port}', urlPort(url ?? '', 4222))}`),
      ];
  const setting = kind === 'postgres' ? 'DATABASE_URL' : 'NATS_URL';
  return `${lines.join('\n')}\nor point ${setting} at a server that runs.`;
}

module.exports = {
  MIN_POSTGRES_VERSION_NUM,
  probePostgres,
  probeNats,
  containerEngine,
  containerArgs,
  platformOf,
  redact,
  remedy,
};
