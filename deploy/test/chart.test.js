'use strict';
/*
 * What a user of the chart would notice, under the values sets of render.js: every app has its
 * Deployment, Service, PodDisruptionBudget and autoscaler; probes, grace periods, security and
 * drain behave as docs/deployment.md says; the KEDA triggers name streams and durable consumers
 * that exist in the code, prefixed as libs/messaging prefixes them; secrets stay in Secrets;
 * values.schema.json and the templates refuse bad values with a message naming them; NOTES.txt
 * tells how to get a first token and where docintel answers.
 */
const { test } = require('node:test');
const assert = require('node:assert/strict');
const YAML = require('yaml');
const {
  APPS,
  DATABASE_URL,
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
} = require('./render');

const cache = new Map();
/** The objects of a values set of render.js, rendered once. */
function objectsOf(set) {
  if (!cache.has(set)) cache.set(set, render(VALUE_SETS[set]));
  return cache.get(set);
}
const SETS = Object.keys(VALUE_SETS);

/** Deep-merged values over the defaults set. */
function withDefaults(values) {
  const merge = (a, b) => {
    if (!b || typeof b !== 'object' || Array.isArray(b)) return b;
    const out = { ...(a ?? {}) };
    for (const [k, v] of Object.entries(b)) out[k] = merge(out[k], v);
    return out;
  };
  return merge(VALUE_SETS.defaults, values);
}

const container = (d) => d.spec.template.spec.containers[0];
const envOf = (d) => Object.fromEntries((container(d).env ?? []).map((e) => [e.name, e]));
const plainEnv = (d, name) => envOf(d)[name]?.value;
const configOf = (objects) => byKind(objects, 'ConfigMap')[0].data;
const selects = (selector, labels) => Object.entries(selector).every(([k, v]) => labels?.[k] === v);
/** The apps a values set deploys (job-agent may be off). */
const appsOf = (objects) => byKind(objects, 'Deployment').map(componentOf);

test('the chart deploys every service the code names, and job-agent', () => {
  const services = serviceNames();
  assert.equal(services.length, 5, `ServiceNames: ${services}`);
  assert.deepEqual(appsOf(objectsOf('defaults')).sort(), [...services, 'job-agent'].sort());
  assert.deepEqual([...APPS].sort(), [...services, 'job-agent'].sort());
});

for (const set of SETS) {
  test(`${set}: every app has a Deployment, a Service, a PodDisruptionBudget and (when it scales) one autoscaler`, () => {
    const objects = objectsOf(set);
    const values = withDefaults(VALUE_SETS[set]);
    for (const d of byKind(objects, 'Deployment')) {
      const app = componentOf(d);
      const v = values.apps?.[app] ?? {};
      const where = `${set}: ${app}`;
      const labels = d.spec.template.metadata.labels;
      assert.ok(selects(d.spec.selector.matchLabels, labels), `${where}: selector matches the pod labels`);
      for (const other of byKind(objects, 'Deployment').filter((o) => o !== d)) {
        assert.ok(
          !selects(d.spec.selector.matchLabels, other.spec.template.metadata.labels),
          `${where}: selector also selects ${componentOf(other)}`,
        );
      }
      const services = byKind(objects, 'Service').filter((s) => selects(s.spec.selector, labels));
      assert.equal(services.length, 1, `${where}: one Service selects its pods`);
      assert.deepEqual(
        services[0].spec.ports.map((p) => [p.name, p.port, p.targetPort]),
        [['http', 8080, 'http']],
      );
      const pdbs = byKind(objects, 'PodDisruptionBudget').filter((p) => selects(p.spec.selector.matchLabels, labels));
      assert.equal(pdbs.length, 1, `${where}: one PodDisruptionBudget`);

      const hpas = byKind(objects, 'HorizontalPodAutoscaler').filter((h) => h.spec.scaleTargetRef.name === d.metadata.name);
      const scaledObjects = byKind(objects, 'ScaledObject').filter((s) => s.spec.scaleTargetRef.name === d.metadata.name);
      for (const h of hpas) assert.deepEqual([h.spec.scaleTargetRef.kind, h.spec.scaleTargetRef.apiVersion], ['Deployment', 'apps/v1']);
      const autoscaled = v.autoscaling?.enabled !== false;
      if (autoscaled) {
        assert.equal(hpas.length + scaledObjects.length, 1, `${where}: exactly one autoscaler (two would fight)`);
        assert.equal(d.spec.replicas, undefined, `${where}: replicas is the autoscaler's`);
        const [min, max] = hpas.length
          ? [hpas[0].spec.minReplicas, hpas[0].spec.maxReplicas]
          : [scaledObjects[0].spec.minReplicaCount, scaledObjects[0].spec.maxReplicaCount];
        assert.ok(min >= 1 && max >= min, `${where}: bounds ${min}-${max}`);
      } else {
        assert.equal(hpas.length + scaledObjects.length, 0, `${where}: no autoscaler when autoscaling is off`);
        assert.equal(d.spec.replicas, v.replicas, `${where}: replicas from values`);
      }
    }
  });

  test(`${set}: probes, grace period, drain and security as docs/deployment.md says`, () => {
    const objects = objectsOf(set);
    const config = configOf(objects);
    assert.equal(config.HOST, '0.0.0.0', 'probes and Services reach the pods');
    assert.equal(config.PORT, '8080');
    const shutdownMs = Number(config.SHUTDOWN_TIMEOUT_MS);
    for (const d of byKind(objects, 'Deployment')) {
      const app = componentOf(d);
      const where = `${set}: ${app}`;
      const pod = d.spec.template.spec;
      const c = container(d);
      assert.deepEqual(c.args, [app === 'job-agent' ? 'job-orchestrator' : app], `${where}: the image's app argument`);
      assert.ok(
        c.ports.some((p) => p.name === 'http' && p.containerPort === Number(config.PORT)),
        `${where}: port http is PORT`,
      );
      for (const [probe, path] of [
        ['startupProbe', '/health/live'],
        ['readinessProbe', '/health/ready'],
        ['livenessProbe', '/health/live'],
      ]) {
        assert.equal(c[probe]?.httpGet?.path, path, `${where}: ${probe} GETs ${path}`);
        assert.equal(c[probe].httpGet.port, 'http', `${where}: ${probe} on port http`);
      }
      // Start-up may take a while (migrations); liveness must not restart a pod that waits for it.
      assert.ok(c.startupProbe.periodSeconds * c.startupProbe.failureThreshold >= 120, `${where}: start-up allowed 2 min or more`);
      assert.ok(c.livenessProbe.failureThreshold >= 3, `${where}: liveness tolerates a slow answer or two`);

      // The process forces its exit SHUTDOWN_TIMEOUT_MS + 5 s after SIGTERM, which follows preStop.
      const preStop = Number(c.lifecycle?.preStop?.exec?.command?.at(-1) ?? 0);
      if (app === 'api-gateway') assert.ok(preStop >= 5, `${where}: a preStop pause lets the endpoints drop the pod first`);
      else assert.equal(c.lifecycle, undefined, `${where}: no preStop pause`);
      const needed = shutdownMs / 1000 + 5 + preStop;
      assert.ok(
        pod.terminationGracePeriodSeconds > needed,
        `${where}: grace period ${pod.terminationGracePeriodSeconds} s must exceed ${needed} s`,
      );

      assert.deepEqual(
        d.spec.strategy,
        { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
        `${where}: rolling update`,
      );
      assert.equal(pod.automountServiceAccountToken, false, `${where}: no service account token`);
      assert.equal(pod.securityContext.runAsNonRoot, true, `${where}: non-root`);
      assert.equal(pod.securityContext.seccompProfile?.type, 'RuntimeDefault', `${where}: seccomp`);
      assert.equal(c.securityContext.readOnlyRootFilesystem, true, `${where}: read-only root filesystem`);
      assert.equal(c.securityContext.allowPrivilegeEscalation, false, `${where}: no privilege escalation`);
      assert.deepEqual(c.securityContext.capabilities.drop, ['ALL'], `${where}: no capabilities`);
      const volumes = Object.fromEntries(pod.volumes.map((v) => [v.name, v]));
      for (const path of ['/tmp', '/app/data']) {
        const mount = c.volumeMounts.find((m) => m.mountPath === path);
        assert.ok(mount && volumes[mount.name] && !mount.readOnly, `${where}: writable ${path}`);
      }
      for (const kind of ['requests', 'limits']) {
        for (const r of ['cpu', 'memory']) assert.ok(c.resources[kind]?.[r], `${where}: resources.${kind}.${r}`);
      }
      if (d.spec.template.metadata.annotations['prometheus.io/scrape']) {
        assert.equal(d.spec.template.metadata.annotations['prometheus.io/path'], '/metrics');
        assert.equal(d.spec.template.metadata.annotations['prometheus.io/port'], config.PORT);
      }
    }
  });

  test(`${set}: configuration, secrets and the instance id reach every app`, () => {
    const objects = objectsOf(set);
    const values = withDefaults(VALUE_SETS[set]);
    const [configMap] = byKind(objects, 'ConfigMap');
    const existing = values.secrets.existingSecret;
    const secret = existing || appName('').replace(/-$/, '');
    if (existing) assert.equal(named(objects, 'Secret', existing), undefined, 'an existing Secret is not rendered');
    else assert.ok(named(objects, 'Secret', secret), 'the Secret is rendered');
    for (const d of byKind(objects, 'Deployment')) {
      const app = componentOf(d);
      const where = `${set}: ${app}`;
      const env = envOf(d);
      assert.ok(
        container(d).envFrom.some((e) => e.configMapRef?.name === configMap.metadata.name),
        `${where}: envFrom the ConfigMap`,
      );
      assert.equal(env.INSTANCE_ID?.valueFrom?.fieldRef?.fieldPath, 'metadata.name', `${where}: INSTANCE_ID is the pod name`);
      assert.deepEqual(
        env.DATABASE_URL?.valueFrom?.secretKeyRef,
        { name: secret, key: 'DATABASE_URL' },
        `${where}: DATABASE_URL from the Secret, not optional`,
      );
      for (const e of Object.values(env)) {
        const ref = e.valueFrom?.secretKeyRef;
        if (!ref) continue;
        assert.equal(ref.name, secret, `${where}: ${e.name} from the release's Secret`);
        if (!existing) assert.ok(named(objects, 'Secret', secret).data[ref.key], `${where}: ${e.name} refers to a key the Secret has`);
        else assert.equal(ref.optional ?? false, e.name !== 'DATABASE_URL', `${where}: ${e.name} optional in a Secret of yours`);
      }
      assert.ok(!('LLM_API_KEY' in env) || ['job-orchestrator', 'job-agent'].includes(app), `${where}: LLM_API_KEY only where jobs run`);
    }
    const storageUrl = new URL(configMap.data.STORAGE_SERVICE_URL);
    const storage = named(objects, 'Service', storageUrl.hostname);
    assert.ok(
      storage?.spec.ports.some((p) => p.port === Number(storageUrl.port)),
      'STORAGE_SERVICE_URL is the storage-service Service',
    );
    assert.equal(componentOf(storage), 'storage-service');
    assert.doesNotThrow(() => new URL(configMap.data.PUBLIC_URL), 'PUBLIC_URL is a URL');
  });

  test(`${set}: no secret value is outside a Secret`, () => {
    const objects = objectsOf(set);
    const values = withDefaults(VALUE_SETS[set]);
    const secretValues = [
      ...Object.entries(values.secrets)
        .filter(([k, v]) => k !== 'existingSecret' && v)
        .map(([, v]) => v),
      ...(values.providers?.list ?? []).flatMap((p) => [p.accessKey, p.secretKey, p.sessionToken].filter(Boolean)),
    ];
    for (const o of objects.filter((x) => x.kind !== 'Secret')) {
      const text = JSON.stringify(o);
      for (const s of secretValues) assert.ok(!text.includes(s), `${set}: ${o.kind} ${o.metadata.name} holds a secret value`);
    }
    for (const [key, value] of Object.entries(configOf(objects))) {
      assert.ok(!/SECRET|PASSWORD|_API_KEY$|DATABASE_URL/.test(key), `${set}: ConfigMap has ${key}=${value}`);
    }
  });
}

test('indexing-service parses with the threads and heap the limits allow, in two malloc arenas; the byte streamers get a small young generation', () => {
  const objects = objectsOf('defaults');
  const indexing = named(objects, 'Deployment', appName('indexing-service'));
  assert.equal(plainEnv(indexing, 'PARSE_POOL_SIZE'), '2');
  assert.equal(plainEnv(indexing, 'PARSE_MAX_MEMORY_MB'), '1024');
  assert.equal(plainEnv(indexing, 'MALLOC_ARENA_MAX'), '2');
  const limit = container(indexing).resources.limits.memory;
  assert.ok(/Gi$/.test(limit) && 2 * 1024 < parseInt(limit, 10) * 1024, `two 1024 MiB parser heaps fit in ${limit}`);
  for (const app of ['api-gateway', 'storage-service']) {
    assert.equal(plainEnv(named(objects, 'Deployment', appName(app)), 'NODE_OPTIONS'), '--max-semi-space-size=8', app);
  }
});

test('job-orchestrator and job-agent consume every job queue once; without job-agent job-orchestrator takes both', () => {
  const consumers = durableConsumers();
  const queues = jobQueueNames();
  assert.deepEqual(
    queues.slice().sort(),
    Object.values(consumers)
      .filter((c) => c.queue)
      .map((c) => c.queue)
      .sort(),
  );
  for (const [set, expected] of [
    ['defaults', { 'job-orchestrator': ['units'], 'job-agent': ['agent'] }],
    ['prefix, no job-agent, fixed replicas', { 'job-orchestrator': ['units', 'agent'] }],
  ]) {
    const objects = objectsOf(set);
    const got = {};
    for (const d of byKind(objects, 'Deployment').filter((x) => container(x).args[0] === 'job-orchestrator')) {
      got[componentOf(d)] = plainEnv(d, 'JOB_QUEUES').split(',');
    }
    assert.deepEqual(got, expected, set);
    assert.deepEqual(Object.values(got).flat().sort(), queues.slice().sort(), `${set}: every queue consumed once`);
  }
  const agent = named(objectsOf('defaults'), 'Deployment', appName('job-agent'));
  assert.equal(plainEnv(agent, 'ANSWERING_ENGINE'), 'builtin', "job-agent runs with job-orchestrator's env");
  assert.equal(plainEnv(agent, 'AGENT_CONCURRENCY'), '2');
});

test("the chart's table of consumers matches the code: streams, consumers per replica, messages fetched ahead", () => {
  const code = durableConsumers();
  const { messageStream } = messaging();
  const chart = chartConsumers();
  assert.deepEqual(Object.keys(chart).sort(), Object.keys(code).sort(), 'the same durable consumers');
  for (const [name, c] of Object.entries(code)) {
    assert.equal(chart[name].stream, messageStream(c.message), `${name}: stream of ${c.message}`);
    assert.equal(chart[name].fetch, c.fetch, `${name}: maxMessages`);
    if (typeof c.concurrency === 'number') assert.equal(chart[name].concurrency, c.concurrency, `${name}: consumers per replica`);
    else {
      assert.equal(chart[name].concurrencyVar, c.concurrency, `${name}: consumers per replica from ${c.concurrency}`);
      assert.equal(chart[name].extra ?? 0, c.extra ?? 0, `${name}: consumers beyond ${c.concurrency}`);
      const envFile = c.app === 'indexing-service' ? 'apps/indexing-service/src/indexing.env.ts' : 'apps/job-orchestrator/src/jobs.env.ts';
      const fallback = envDefault(envFile, c.concurrency);
      // PARSE_POOL_SIZE defaults to one per core, which the chart refuses: it must be set.
      if (fallback) assert.equal(chart[name].concurrency, fallback, `${name}: ${c.concurrency}'s default`);
    }
  }
});

for (const set of ['defaults', 'prefix, no job-agent, fixed replicas', 'gateway request trigger']) {
  test(`${set}: the KEDA triggers name streams and consumers of the code, prefixed as the code prefixes them`, () => {
    const objects = objectsOf(set);
    const code = durableConsumers();
    const { prefixedName, messageStream } = messaging();
    const config = configOf(objects);
    const prefix = config.NATS_PREFIX;
    const expected = {
      defaults: {
        'indexing-service': ['corpus_parsing', 'corpus_parsing_large', 'node_embedding', 'node_embedding_large'],
        'job-orchestrator': ['job_units'],
        'job-agent': ['agent_runs'],
      },
      'prefix, no job-agent, fixed replicas': {
        'indexing-service': ['corpus_parsing', 'corpus_parsing_large', 'node_embedding', 'node_embedding_large'],
        'job-orchestrator': ['agent_runs', 'job_units'],
      },
    }[set];
    const seen = {};
    for (const so of byKind(objects, 'ScaledObject')) {
      const d = named(objects, 'Deployment', so.spec.scaleTargetRef.name);
      const app = componentOf(d);
      assert.ok(d, `ScaledObject ${so.metadata.name} targets a Deployment`);
      assert.ok(
        so.spec.triggers.some((t) => t.type === 'cpu' && t.metricType === 'Utilization'),
        `${app}: CPU is a trigger too`,
      );
      const queues = plainEnv(d, 'JOB_QUEUES')?.split(',');
      for (const t of so.spec.triggers.filter((x) => x.type === 'nats-jetstream')) {
        const durable = Object.keys(code).find((name) => prefixedName(prefix, name) === t.metadata.consumer);
        assert.ok(durable, `${app}: consumer ${t.metadata.consumer} is a durable of the code (with NATS_PREFIX "${prefix}")`);
        const c = code[durable];
        assert.equal(
          t.metadata.stream,
          prefixedName(prefix, messageStream(c.message)),
          `${app}: ${durable} is on ${messageStream(c.message)}`,
        );
        assert.equal(c.app, container(d).args[0], `${app}: ${durable} is consumed by this app`);
        if (c.queue) assert.ok(queues.includes(c.queue), `${app}: ${durable}'s queue ${c.queue} is in JOB_QUEUES`);
        const perReplica =
          (c.extra ?? 0) +
          (typeof c.concurrency === 'number'
            ? c.concurrency
            : Number(
                plainEnv(d, c.concurrency) ??
                  envDefault(
                    c.app === 'indexing-service' ? 'apps/indexing-service/src/indexing.env.ts' : 'apps/job-orchestrator/src/jobs.env.ts',
                    c.concurrency,
                  ),
              ));
        assert.ok(
          Number(t.metadata.lagThreshold) >= perReplica * c.fetch,
          `${app}: ${durable} lagThreshold ${t.metadata.lagThreshold} >= ${perReplica * c.fetch} held by a busy replica`,
        );
        assert.match(t.metadata.natsServerMonitoringEndpoint, /:8222$/);
        assert.equal(t.metadata.account, '$G');
        (seen[app] ??= []).push(durable);
      }
    }
    for (const list of Object.values(seen)) list.sort();
    if (expected) assert.deepEqual(seen, expected);
  });
}

test('KEDA disabled: a CPU HorizontalPodAutoscaler for every app, no ScaledObject', () => {
  const objects = objectsOf('keda disabled');
  assert.equal(byKind(objects, 'ScaledObject').length, 0);
  for (const d of byKind(objects, 'Deployment')) {
    const [hpa] = byKind(objects, 'HorizontalPodAutoscaler').filter((h) => h.spec.scaleTargetRef.name === d.metadata.name);
    assert.ok(hpa, componentOf(d));
    assert.deepEqual(
      hpa.spec.metrics.map((m) => [m.type, m.resource.name, m.resource.target.type]),
      [['Resource', 'cpu', 'Utilization']],
    );
  }
});

test('defaults: api-gateway, storage-service and rules-engine scale on CPU; the gateway on its request rate when a Prometheus is given', () => {
  const defaults = objectsOf('defaults');
  for (const app of ['api-gateway', 'storage-service', 'rules-engine']) {
    assert.ok(named(defaults, 'HorizontalPodAutoscaler', appName(app)), app);
  }
  const objects = objectsOf('gateway request trigger');
  assert.equal(named(objects, 'HorizontalPodAutoscaler', appName('api-gateway')), undefined);
  const so = named(objects, 'ScaledObject', appName('api-gateway'));
  const prometheus = so.spec.triggers.find((t) => t.type === 'prometheus');
  assert.equal(prometheus.metadata.serverAddress, 'http://prometheus-operated.monitoring:9090');
  assert.equal(prometheus.metadata.threshold, '150');
  assert.equal(prometheus.metricType, 'AverageValue', 'a per-replica threshold');
  // The histogram and its `service` default label, as libs/observability registers them.
  const metrics = require('node:fs').readFileSync(require('node:path').join(__dirname, '../../libs/observability/src/metrics.ts'), 'utf8');
  const histogram = /this\.httpDuration = new Histogram\(\{\s*name: '(\w+)'/.exec(metrics)[1];
  assert.match(metrics, /setDefaultLabels\(\{ service \}\)/);
  assert.equal(prometheus.metadata.query, `sum(rate(${histogram}_count{service="api-gateway"}[1m]))`);
  assert.ok(so.spec.triggers.some((t) => t.type === 'cpu'));
});

test('PodDisruptionBudgets: minAvailable 1 where at least two replicas run, else maxUnavailable 1 so that a drain never waits for ever', () => {
  for (const set of SETS) {
    const objects = objectsOf(set);
    for (const d of byKind(objects, 'Deployment')) {
      const labels = d.spec.template.metadata.labels;
      const pdb = byKind(objects, 'PodDisruptionBudget').find((p) => selects(p.spec.selector.matchLabels, labels));
      const hpa = byKind(objects, 'HorizontalPodAutoscaler').find((h) => h.spec.scaleTargetRef.name === d.metadata.name);
      const so = byKind(objects, 'ScaledObject').find((s) => s.spec.scaleTargetRef.name === d.metadata.name);
      const least = hpa?.spec.minReplicas ?? so?.spec.minReplicaCount ?? d.spec.replicas;
      const where = `${set}: ${componentOf(d)} (at least ${least})`;
      if (least >= 2) assert.deepEqual([pdb.spec.minAvailable, pdb.spec.maxUnavailable], [1, undefined], where);
      else assert.deepEqual([pdb.spec.minAvailable, pdb.spec.maxUnavailable], [undefined, 1], where);
      assert.equal(pdb.spec.unhealthyPodEvictionPolicy, 'AlwaysAllow', `${where}: an unready pod never blocks a drain`);
    }
  }
});

test('providers: rendered into a Secret and mounted as PROVIDERS_FILE, or read from a Secret of yours', () => {
  const objects = objectsOf('providers with credentials');
  const storage = named(objects, 'Deployment', appName('storage-service'));
  const file = plainEnv(storage, 'PROVIDERS_FILE');
  const pod = storage.spec.template.spec;
  const mount = container(storage).volumeMounts.find((m) => file?.startsWith(`${m.mountPath}/`));
  assert.ok(mount?.readOnly, 'PROVIDERS_FILE is on a read-only mount');
  const volume = pod.volumes.find((v) => v.name === mount.name);
  const path = file.slice(mount.mountPath.length + 1);
  const item = volume.secret.items.find((i) => i.path === path);
  const secret = named(objects, 'Secret', volume.secret.secretName);
  const catalogue = YAML.parse(Buffer.from(secret.data[item.key], 'base64').toString('utf8'));
  assert.deepEqual(catalogue, { providers: VALUE_SETS['providers with credentials'].providers.list });
  assert.equal(volume.secret.defaultMode, 0o440);
  assert.deepEqual(pod.volumes.find((v) => v.name === 'data').persistentVolumeClaim, { claimName: 'docintel-files' });

  const theirs = objectsOf('existing secrets');
  const s = named(theirs, 'Deployment', appName('storage-service'));
  const v = s.spec.template.spec.volumes.find((x) => x.secret);
  assert.equal(v.secret.secretName, 'docintel-catalogue');
  assert.deepEqual(v.secret.items, [{ key: 'catalogue.yaml', path: 'providers.yaml' }]);
  assert.equal(plainEnv(s, 'PROVIDERS_FILE'), '/etc/docintel/providers.yaml');
  assert.equal(named(theirs, 'Secret', 'docintel-providers'), undefined);
  assert.equal(byKind(theirs, 'Secret').length, 0, 'no Secret rendered when both are yours');
});

test('ingress, PUBLIC_URL and tracing', () => {
  const objects = objectsOf('ingress and ServiceMonitor');
  const [ingress] = byKind(objects, 'Ingress');
  const rule = ingress.spec.rules[0];
  assert.equal(rule.host, 'docintel.example.com');
  assert.deepEqual(ingress.spec.tls, [{ hosts: ['docintel.example.com'], secretName: 'docintel-tls' }]);
  const backend = rule.http.paths[0].backend.service;
  const service = named(objects, 'Service', backend.name);
  assert.equal(componentOf(service), 'api-gateway', 'the Ingress reaches the gateway only');
  assert.ok(service.spec.ports.some((p) => p.name === backend.port.name));
  assert.equal(ingress.metadata.annotations['nginx.ingress.kubernetes.io/proxy-body-size'], '0', 'uploads are not capped by the proxy');
  assert.equal(configOf(objects).PUBLIC_URL, 'https://docintel.example.com');
  assert.equal(configOf(objects).OTEL_EXPORTER_OTLP_ENDPOINT, 'http://otel-collector.observability:4318');
  assert.equal(byKind(objectsOf('defaults'), 'Ingress').length, 0);
  assert.equal(configOf(objectsOf('defaults')).OTEL_EXPORTER_OTLP_ENDPOINT, undefined, 'no tracing unless asked');
  assert.equal(configOf(objectsOf('defaults')).PUBLIC_URL, 'http://127.0.0.1:8080');
});

test('values.schema.json and the templates refuse bad values with a message naming them', () => {
  // Helm 3.18+ names a value by its JSON pointer (/config/LOG_LEVEL), older ones by a dotted path.
  const at = (...path) => `(/${path.join('/')}|${path.join('\\.')})`;
  const cases = [
    [{ config: { LOG_LEVEL: 'loud' } }, at('config', 'LOG_LEVEL')],
    [{ config: { NATS_PREFIX: 'a.b' } }, at('config', 'NATS_PREFIX')],
    [{ config: { SHUTDOWN_TIMEOUT_MS: '20s' } }, at('config', 'SHUTDOWN_TIMEOUT_MS')],
    [{ config: { DATABASE_URL } }, `${at('config', 'DATABASE_URL')}.*a secret`],
    [{ config: { S3_SECRET_KEY: 'x' } }, `${at('config', 'S3_SECRET_KEY')}.*a secret`],
    [{ config: { PORT: 9000 } }, `${at('config', 'PORT')}.*set by the chart`],
    [{ apps: { 'job-agent': { env: { JOB_QUEUES: 'units' } } } }, at('apps', 'job-agent', 'env', 'JOB_QUEUES')],
    [{ apps: { 'indexing-service': { env: { PARSE_POOL_SIZE: 0 } } } }, at('apps', 'indexing-service', 'env', 'PARSE_POOL_SIZE')],
    [{ apps: { 'rules-engine': { autoscaling: { maxReplicas: 0 } } } }, at('apps', 'rules-engine', 'autoscaling', 'maxReplicas')],
    [{ apps: { 'indexing-service': { autoscaling: { lagThreshold: { corpus_parse: 4 } } } } }, 'corpus_parse'],
    [{ secrets: { STORAGE_SIGNING_SECRET: 'short' } }, at('secrets', 'STORAGE_SIGNING_SECRET')],
    [{ secrets: { DATABASE_URL: 'mysql://x' } }, at('secrets', 'DATABASE_URL')],
    [{ providers: { list: [{ name: 'Docs', type: 'S3', bucketName: 'b', secretkey: 'typo' }] } }, 'secretkey'],
    [{ providers: { list: [{ name: 'Disk', type: 'LOCAL' }] } }, `${at('providers', 'list', '0')}.*root`],
    [{ image: { pullPolicy: 'Sometimes' } }, at('image', 'pullPolicy')],
    [{ ingres: { enabled: true } }, 'ingres'],
    [{ secrets: { DATABASE_URL: '' } }, 'secrets\\.DATABASE_URL is required'],
    [{ ingress: { enabled: true } }, 'ingress\\.host is required'],
    [
      { apps: { 'job-orchestrator': { autoscaling: { lagThreshold: { job_units: 1 } } } } },
      'lagThreshold\\.job_units \\(1\\) is below the 2 messages',
    ],
    [{ apps: { 'job-orchestrator': { env: { JOB_CONCURRENCY: 16 } } } }, 'lagThreshold\\.job_units \\(8\\) is below the 16 messages'],
    [{ apps: { 'api-gateway': { terminationGracePeriodSeconds: 30 } } }, 'terminationGracePeriodSeconds \\(30\\) must be above 30 s'],
    [{ apps: { 'storage-service': { autoscaling: { minReplicas: 9 } } } }, 'maxReplicas \\(8\\) is below minReplicas \\(9\\)'],
    [
      { autoscaling: { keda: { enabled: false }, gateway: { requests: { prometheusServerAddress: 'http://prometheus:9090' } } } },
      'prometheusServerAddress needs KEDA',
    ],
  ];
  for (const [values, message] of cases) {
    const stderr = renderError(withDefaults(values));
    assert.match(stderr.replace(/\n\s*/g, ' '), new RegExp(message), `${JSON.stringify(values)}:\n${stderr}`);
  }
});

test('the schema knows exactly the fields of a provider entry (ProviderConfigEntry)', () => {
  const { readFileSync } = require('node:fs');
  const { join } = require('node:path');
  const source = readFileSync(join(__dirname, '../../apps/storage-service/src/providers/provider-config.ts'), 'utf8');
  const body = /export class ProviderConfigEntry \{([\s\S]*?)\n\}/.exec(source)[1];
  const fields = [...body.matchAll(/^ {2}(\w+)\??: /gm)].map((m) => m[1]).sort();
  const schema = JSON.parse(readFileSync(join(__dirname, '../helm/docintel/values.schema.json'), 'utf8'));
  assert.deepEqual(Object.keys(schema.definitions.provider.properties).sort(), fields);
});

test('NOTES.txt tells how to get a first token and where docintel answers', () => {
  const local = notes(VALUE_SETS.defaults);
  assert.match(local, /kubectl -n docintel exec deploy\/docintel-api-gateway -- docintel cli token create --namespace default --user /);
  assert.match(local, /kubectl -n docintel port-forward svc\/docintel-api-gateway 8080:8080/);
  assert.match(local, /http:\/\/127\.0\.0\.1:8080\//);
  assert.match(local, /KEDA ScaledObjects for indexing-service, job-orchestrator, job-agent/);
  assert.match(local, /44 pods x DATABASE_POOL_SIZE 10 = 440 connections/);
  const published = notes(VALUE_SETS['ingress and ServiceMonitor']);
  assert.match(published, /https:\/\/docintel\.example\.com\//);
  assert.doesNotMatch(published, /port-forward/);
  assert.match(notes(withDefaults({ providers: { list: [] } })), /WARNING: no storage providers/);
});
