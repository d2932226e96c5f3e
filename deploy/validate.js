#!/usr/bin/env node
/*
 * Checks the Kubernetes manifests without a cluster: every YAML file parses, the kustomization
 * lists existing files, and each app has what docs/deployment.md promises (Deployment, Service,
 * autoscaler, probes on /health/ready and /health/live, resources, a grace period longer than
 * the shutdown budget, configuration from the ConfigMap and the Secret). When kubectl is on the
 * PATH it also renders the kustomization, with and without the optional KEDA component.
 *   node deploy/validate.js
 */
'use strict';
const { execFileSync } = require('node:child_process');
const { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join, relative } = require('node:path');
const YAML = require('yaml');

const DEPLOY = __dirname;
const ROOT = dirname(DEPLOY);
const problems = [];
const fail = (msg) => problems.push(msg);

function yamlFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Every document of a file, as plain objects; parse errors are reported. */
function parseFile(file) {
  const docs = YAML.parseAllDocuments(readFileSync(file, 'utf8'));
  const out = [];
  for (const d of docs) {
    for (const e of d.errors) fail(`${relative(ROOT, file)}: ${e.message}`);
    const v = d.toJS();
    if (v) out.push(v);
  }
  return out;
}

const parsed = new Map(yamlFiles(DEPLOY).map((f) => [f, parseFile(f)]));

// The kustomization and what it includes.
const kustomization = parsed.get(join(DEPLOY, 'kustomization.yaml'))[0];
const objects = [];
for (const r of kustomization.resources) {
  const file = join(DEPLOY, r);
  if (!parsed.has(file)) fail(`kustomization.yaml lists ${r}, which does not exist`);
  else objects.push(...parsed.get(file));
}
const byKind = (kind) => objects.filter((o) => o.kind === kind);
const named = (kind, name) => byKind(kind).find((o) => o.metadata?.name === name);

// Shared configuration.
const config = named('ConfigMap', 'docintel-config')?.data ?? fail('ConfigMap docintel-config is missing') ?? {};
for (const key of ['NATS_URL', 'HOST', 'PORT', 'SHUTDOWN_TIMEOUT_MS']) if (!(key in config)) fail(`docintel-config has no ${key}`);
if (config.HOST !== '0.0.0.0') fail('docintel-config HOST must be 0.0.0.0 so that probes and Services reach the pods');
const shutdownMs = Number(config.SHUTDOWN_TIMEOUT_MS);

const providers = named('ConfigMap', 'docintel-providers');
if (!providers) fail('ConfigMap docintel-providers is missing');
else {
  const catalogue = YAML.parse(providers.data?.['providers.yaml'] ?? '');
  if (!Array.isArray(catalogue?.providers) || !catalogue.providers.length) fail('docintel-providers: providers.yaml lists no providers');
}

// One Deployment, Service and HorizontalPodAutoscaler per app in apps/.
const apps = readdirSync(join(ROOT, 'apps')).filter((a) => existsSync(join(ROOT, 'apps', a, 'package.json')));
const probePath = (p) => p?.httpGet?.path;
for (const app of apps) {
  const d = named('Deployment', app);
  if (!d) {
    fail(`no Deployment for apps/${app}`);
    continue;
  }
  const where = `Deployment ${app}`;
  const pod = d.spec.template.spec;
  const c = pod.containers[0];
  const labels = d.spec.template.metadata.labels;
  if (d.spec.replicas !== undefined) fail(`${where}: sets replicas, which fights its autoscaler on every apply`);
  for (const [k, v] of Object.entries(d.spec.selector.matchLabels))
    if (labels[k] !== v) fail(`${where}: selector does not match the pod labels`);
  if (c.args?.[0] !== app) fail(`${where}: container args must start with "${app}" (the image's app argument)`);
  if (probePath(c.readinessProbe) !== '/health/ready') fail(`${where}: readiness probe must GET /health/ready`);
  if (probePath(c.livenessProbe) !== '/health/live') fail(`${where}: liveness probe must GET /health/live`);
  for (const kind of ['requests', 'limits']) {
    for (const r of ['cpu', 'memory']) if (!c.resources?.[kind]?.[r]) fail(`${where}: resources.${kind}.${r} is missing`);
  }
  if (!c.envFrom?.some((e) => e.configMapRef?.name === 'docintel-config')) fail(`${where}: no envFrom docintel-config`);
  const db = c.env?.find((e) => e.name === 'DATABASE_URL');
  if (db?.valueFrom?.secretKeyRef?.name !== 'docintel-secrets') fail(`${where}: DATABASE_URL must come from the Secret docintel-secrets`);
  const preStopS = Number(c.lifecycle?.preStop?.exec?.command?.at(-1) ?? 0) || 0;
  // The process forces its exit SHUTDOWN_TIMEOUT_MS + 5 s after SIGTERM; Kubernetes must not kill it first.
  const neededS = shutdownMs / 1000 + 5 + preStopS;
  if (!(pod.terminationGracePeriodSeconds > neededS)) {
    fail(`${where}: terminationGracePeriodSeconds (${pod.terminationGracePeriodSeconds}) must exceed ${neededS} s`);
  }
  const svc = byKind('Service').find((s) => Object.entries(s.spec.selector ?? {}).every(([k, v]) => labels[k] === v));
  if (!svc) fail(`${where}: no Service selects its pods`);
  const hpa = byKind('HorizontalPodAutoscaler').find(
    (h) => h.spec.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === app,
  );
  if (!hpa) fail(`${where}: no HorizontalPodAutoscaler`);
  else if (!(hpa.spec.minReplicas >= 1 && hpa.spec.maxReplicas >= hpa.spec.minReplicas))
    fail(`HorizontalPodAutoscaler ${app}: bad replica bounds`);
}

// storage-service reads the catalogue from the mounted ConfigMap.
const storage = named('Deployment', 'storage-service');
if (storage) {
  const c = storage.spec.template.spec.containers[0];
  const file = c.env?.find((e) => e.name === 'PROVIDERS_FILE')?.value;
  const volume = storage.spec.template.spec.volumes?.find(
    (v) => v.configMap?.name === 'docintel-providers' || v.secret?.secretName === 'docintel-providers',
  );
  const mount = volume && c.volumeMounts?.find((m) => m.name === volume.name);
  if (!file || !mount || file !== `${mount.mountPath}/providers.yaml`)
    fail('storage-service: PROVIDERS_FILE must point at providers.yaml of the mounted docintel-providers volume');
}

// The Ingress reaches the gateway Service by a port it has.
for (const ing of byKind('Ingress')) {
  for (const rule of ing.spec.rules) {
    for (const p of rule.http.paths) {
      const s = named('Service', p.backend.service.name);
      const port = p.backend.service.port;
      if (!s || !s.spec.ports.some((sp) => sp.name === port.name || sp.port === port.number)) {
        fail(`Ingress ${ing.metadata.name}: backend ${p.backend.service.name}:${port.name ?? port.number} does not exist`);
      }
    }
  }
}

// The optional KEDA component targets an existing Deployment and removes its CPU autoscaler.
const kedaDir = join(DEPLOY, 'optional/keda');
const keda = parsed.get(join(kedaDir, 'kustomization.yaml'))?.[0];
if (keda) {
  for (const r of keda.resources) {
    for (const so of parsed.get(join(kedaDir, r)) ?? fail(`optional/keda lists ${r}, which does not exist`) ?? []) {
      if (so.kind === 'ScaledObject' && !named('Deployment', so.spec.scaleTargetRef.name))
        fail(`ScaledObject ${so.metadata.name}: no such Deployment`);
    }
  }
}

// Render with kubectl's built-in kustomize when available.
function render(dir) {
  return execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
let rendered = 'kubectl not found: rendering skipped';
try {
  execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
  try {
    const base = YAML.parseAllDocuments(render(DEPLOY)).length;
    const overlay = mkdtempSync(join(tmpdir(), 'docintel-deploy-'));
    try {
      // kustomize takes only relative paths: the overlay reaches deploy/ through a symlink.
      symlinkSync(DEPLOY, join(overlay, 'base'));
      writeFileSync(join(overlay, 'kustomization.yaml'), 'resources: [base]\ncomponents: [base/optional/keda]\n');
      const withKeda = YAML.parseAllDocuments(render(overlay)).map((d) => d.toJS());
      if (!withKeda.some((o) => o.kind === 'ScaledObject')) fail('with optional/keda: no ScaledObject rendered');
      if (withKeda.some((o) => o.kind === 'HorizontalPodAutoscaler' && o.metadata.name === 'indexing-service')) {
        fail('with optional/keda: the indexing-service HorizontalPodAutoscaler is still there');
      }
      rendered = `kubectl kustomize: ${base} objects, ${withKeda.length} with optional/keda`;
    } finally {
      rmSync(overlay, { recursive: true, force: true });
    }
  } catch (err) {
    fail(`kubectl kustomize failed: ${err.stderr || err.message}`);
  }
} catch {
  /* no kubectl */
}

if (problems.length) {
  process.stderr.write(`deploy/ has ${problems.length} problem(s):\n  - ${problems.join('\n  - ')}\n`);
  process.exit(1);
}
process.stdout.write(`deploy/: ${parsed.size} YAML files, ${objects.length} objects, ${apps.length} apps checked; ${rendered}\n`);
