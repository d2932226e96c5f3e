'use strict';
/* What npm start gives each process: ports, and the environment it adds per service. */
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { appSpecs, launchEnv } = require('../start');

const byName = (specs) => Object.fromEntries(specs.map((s) => [s.name, s]));

test('indexing-service runs with two malloc arenas unless MALLOC_ARENA_MAX says otherwise; the others keep glibc defaults', () => {
  const specs = byName(appSpecs(launchEnv({ PORT: '9100' })));
  assert.equal(specs['indexing-service'].env.MALLOC_ARENA_MAX, '2');
  for (const name of ['api-gateway', 'storage-service', 'job-orchestrator', 'rules-engine']) {
    assert.equal(specs[name].env.MALLOC_ARENA_MAX, undefined, name);
  }
  assert.equal(byName(appSpecs(launchEnv({ PORT: '9100', MALLOC_ARENA_MAX: '4' })))['indexing-service'].env.MALLOC_ARENA_MAX, '4');
});

test('the gateway takes PORT and the four services the ports after it', () => {
  const specs = appSpecs(launchEnv({ PORT: '9100' }));
  assert.deepEqual(
    specs.map((s) => [s.name, s.port]),
    [
      ['storage-service', 9101],
      ['indexing-service', 9102],
      ['job-orchestrator', 9103],
      ['rules-engine', 9104],
      ['api-gateway', 9100],
    ],
  );
});
