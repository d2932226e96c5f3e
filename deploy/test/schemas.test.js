'use strict';
/*
 * Every object the chart renders, under every values set of render.js, against the Kubernetes
 * schemas: kubernetes-models (the API's OpenAPI schemas, v1.33) and @kubernetes-models/keda for
 * ScaledObject; ServiceMonitor, which has no model installed, structurally. The models' validate()
 * checks types, formats and required fields but lets unknown fields through (the API server drops
 * or refuses them), so the same objects are also type-checked against the models' TypeScript
 * types, whose excess-property check names any field Kubernetes does not have.
 */
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { join } = require('node:path');
const ts = require('typescript');
const { ROOT, VALUE_SETS, byKind, render } = require('./render');

const cache = new Map();
/** The objects of a values set, rendered once (inside the tests, so that a missing helm fails them with the reason). */
function objectsOf(name) {
  if (!cache.has(name)) cache.set(name, render(VALUE_SETS[name]));
  return cache.get(name);
}
const rendered = () => Object.keys(VALUE_SETS).map((name) => ({ name, objects: objectsOf(name) }));

/** The model module of an object's apiVersion and kind, or null when none is installed. */
function modelModule({ apiVersion, kind }) {
  if (apiVersion === 'keda.sh/v1alpha1') return `@kubernetes-models/keda/keda.sh/v1alpha1/${kind}`;
  if (apiVersion.includes('.') && !apiVersion.includes('k8s.io')) return null; // a CRD without a model
  return `kubernetes-models/${apiVersion}/${kind}`;
}

const where = (set, o) => `${set}: ${o.kind} ${o.metadata?.name}`;

for (const name of Object.keys(VALUE_SETS)) {
  test(`${name}: every object is valid against its Kubernetes schema`, () => {
    const objects = objectsOf(name);
    assert.ok(objects.length > 0);
    for (const o of objects) {
      if (o.kind === 'ServiceMonitor') continue; // below
      const module = modelModule(o);
      assert.ok(module, `${where(name, o)}: no schema for ${o.apiVersion}`);
      const Model = require(module)[o.kind];
      assert.ok(Model, `${where(name, o)}: ${module} has no ${o.kind}`);
      try {
        new Model(o).validate();
      } catch (err) {
        assert.fail(`${where(name, o)}: ${err.message}`);
      }
      assert.match(o.metadata.name, /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, `${where(name, o)}: not a DNS label`);
    }
  });
}

test('a ServiceMonitor is well formed and selects the Services of the release on a port they have', () => {
  const { name, objects } = rendered().find((r) => byKind(r.objects, 'ServiceMonitor').length);
  const [sm] = byKind(objects, 'ServiceMonitor');
  assert.equal(sm.apiVersion, 'monitoring.coreos.com/v1', name);
  assert.equal(typeof sm.metadata.name, 'string');
  const selector = sm.spec.selector.matchLabels;
  const services = byKind(objects, 'Service').filter((s) => Object.entries(selector).every(([k, v]) => s.metadata.labels[k] === v));
  assert.equal(services.length, byKind(objects, 'Deployment').length, 'the ServiceMonitor selects every app Service');
  assert.deepEqual(sm.spec.namespaceSelector.matchNames, ['docintel']);
  for (const e of sm.spec.endpoints) {
    assert.ok(
      services.every((s) => s.spec.ports.some((p) => p.name === e.port)),
      `port ${e.port} on every Service`,
    );
    assert.equal(e.path, '/metrics');
    assert.match(e.interval, /^(\d+(ms|s|m|h))+$/);
    assert.match(e.scrapeTimeout, /^(\d+(ms|s|m|h))+$/);
    // The gateway's request-rate trigger queries the metrics' own `service` label.
    assert.equal(e.honorLabels, true);
  }
  assert.equal(sm.metadata.labels.release, 'kube-prometheus-stack', 'serviceMonitor.labels are on the object');
});

test('no rendered object has a field its Kubernetes type does not have', () => {
  // One TypeScript program: each object assigned to its model's interface (I<Kind>), one per line.
  const imports = new Map();
  const lines = [];
  const origin = [];
  for (const { name, objects } of rendered()) {
    for (const o of objects) {
      const module = modelModule(o);
      if (!module) continue;
      imports.set(o.kind, `import type { I${o.kind} as ${o.kind} } from '${module}';`);
      origin.push(where(name, o));
      lines.push(`export const o${origin.length}: ${o.kind} = ${JSON.stringify(o)};`);
    }
  }
  const head = [...imports.values()];
  const source = [...head, ...lines].join('\n');
  const file = join(ROOT, 'deploy', 'test', '__rendered__.ts');
  const options = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists } = host;
  host.getSourceFile = (f, ...rest) =>
    f === file ? ts.createSourceFile(f, source, ts.ScriptTarget.ES2020) : getSourceFile.call(host, f, ...rest);
  host.fileExists = (f) => f === file || fileExists.call(host, f);
  const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram([file], options, host));
  const problems = diagnostics.map((d) => {
    const line = d.file ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    const object = line >= head.length ? origin[line - head.length] : 'imports';
    return `${object}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ').slice(0, 300)}`;
  });
  assert.deepEqual(problems, []);
});
