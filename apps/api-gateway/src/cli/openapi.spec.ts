import { canonicalOpenApiJson } from './openapi';

// That the exported document is the served one (and the committed one) is checked end to end, in
// test-e2e/api-client.e2e-spec.ts: loading the gateway's definition here would load everything it serves.
describe('canonicalOpenApiJson', () => {
  it('writes keys sorted (the usual top-level sections first), keeps the order of arrays, ends with a newline', () => {
    const text = canonicalOpenApiJson({
      paths: { '/b': { post: {}, get: { parameters: [{ name: 'z' }, { name: 'a' }] } }, '/a': {} },
      components: { schemas: { B: { required: ['y', 'x'] }, A: {} } },
      info: { version: '1', title: 't' },
      openapi: '3.0.0',
      'x-extra': true,
    });
    expect(text).toBe(
      `${JSON.stringify(
        {
          openapi: '3.0.0',
          info: { title: 't', version: '1' },
          paths: { '/a': {}, '/b': { get: { parameters: [{ name: 'z' }, { name: 'a' }] }, post: {} } },
          components: { schemas: { A: {}, B: { required: ['y', 'x'] } } },
          'x-extra': true,
        },
        null,
        2,
      )}\n`,
    );
  });
});
