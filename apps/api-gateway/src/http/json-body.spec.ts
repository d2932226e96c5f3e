import Fastify from 'fastify';
import { DomainError, ErrorCode, MAX_JSON_DEPTH } from '@docintel/contracts';
import { jsonNestingExceeds, loneSurrogateProblem, parseJsonBody, unsupportedMediaType } from './json-body';

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const parse = Fastify().getDefaultJsonParser('error', 'error') as unknown as Parameters<typeof parseJsonBody>[1];

function parsed(text: string): Promise<unknown> {
  return new Promise((resolve, reject) => parseJsonBody(Buffer.from(text), parse, (err, value) => (err ? reject(err) : resolve(value))));
}

describe('jsonNestingExceeds', () => {
  it(`allows ${MAX_JSON_DEPTH} levels and refuses one more`, () => {
    expect(jsonNestingExceeds(deep(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonNestingExceeds(deep(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonNestingExceeds(`{"a":${deep(MAX_JSON_DEPTH - 1)}}`)).toBe(false);
    expect(jsonNestingExceeds(`{"a":${deep(MAX_JSON_DEPTH)}}`)).toBe(true);
  });

  it('counts levels, not brackets: siblings do not add up', () => {
    expect(jsonNestingExceeds(JSON.stringify(Array.from({ length: 10_000 }, () => [[{ a: [1] }]])))).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(jsonNestingExceeds(JSON.stringify({ s: '['.repeat(1000) }), 4)).toBe(false);
    expect(jsonNestingExceeds(JSON.stringify({ s: '\\"[[[[[[' }), 1)).toBe(false);
    expect(jsonNestingExceeds(JSON.stringify({ s: 'quote " then [[[[' }), 1)).toBe(false);
  });

  it('scans a megabyte of nesting without recursion', () => {
    expect(jsonNestingExceeds(deep(500_000))).toBe(true);
  });
});

describe('parseJsonBody', () => {
  it.each(['', ' ', '\r\n\t '])('reads the empty body %p as no body', async (text) => {
    await expect(parsed(text)).resolves.toBeUndefined();
  });

  it('parses JSON as fastify does', async () => {
    await expect(parsed('{"name":"x","n":[1,2]}')).resolves.toEqual({ name: 'x', n: [1, 2] });
    await expect(parsed('"\\u0000"')).resolves.toBe('\u0000');
  });

  it('refuses a body nested 1,500 deep with 400 naming the body, before parsing it', async () => {
    const err = await parsed(`{"filter":${deep(1500)}}`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      details: [{ field: '(body)', problem: `is nested more than ${MAX_JSON_DEPTH} levels deep` }],
    });
  });

  it('refuses a lone surrogate with 400 naming the field, where PostgreSQL would refuse the text', async () => {
    const err = await parsed('{"messages":[{"role":"user","content":"ok"},{"role":"user","content":"bad \\ud800 text"}]}').catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      details: [
        { field: 'messages[1].content', problem: 'must be valid Unicode text: it holds a lone surrogate (\\ud800) at character 5' },
      ],
    });
    await expect(parsed('"\\udc00"')).rejects.toMatchObject({
      details: [{ field: '(body)', problem: expect.stringContaining('(\\udc00)') }],
    });
  });

  it('accepts surrogate pairs, written as escapes or as UTF-8', async () => {
    await expect(parsed('{"q":"\\ud83d\\ude00 and 😀"}')).resolves.toEqual({ q: '😀 and 😀' });
  });
  it('leaves malformed JSON and prototype poisoning to fastify (400)', async () => {
    await expect(parsed('{"a": ')).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/not valid JSON/) });
    await expect(parsed('{"__proto__": {"admin": true}}')).rejects.toMatchObject({ statusCode: 400 });
  });
});

describe('loneSurrogateProblem', () => {
  it('reports the first field in document order, property names included, with its path', () => {
    expect(loneSurrogateProblem({ a: 'fine', b: ['x', { 'c d': 'y\udfff' }], e: '\ud800' })).toEqual({
      field: 'b[1]["c d"]',
      problem: 'must be valid Unicode text: it holds a lone surrogate (\\udfff) at character 2',
    });
    expect(loneSurrogateProblem({ filter: { ['k\ud800']: 1 } })).toEqual({
      field: 'filter["k\\ud800"]',
      problem: 'property name must be valid Unicode text: it holds a lone surrogate (\\ud800) at character 2',
    });
    expect(loneSurrogateProblem({ text: 'x\ud83d' })).toMatchObject({ field: 'text' });
    expect(loneSurrogateProblem({ text: '\ude00x' })).toMatchObject({ field: 'text' });
    expect(loneSurrogateProblem({ ok: ['😀', 1, null, true, { n: 'é' }] })).toBeUndefined();
  });
});

describe('unsupportedMediaType', () => {
  it('says which type came and what to send', () => {
    const err = unsupportedMediaType('application/x-www-form-urlencoded');
    expect(err.code).toBe(ErrorCode.UNSUPPORTED_MEDIA_TYPE);
    expect(err.message).toContain('application/x-www-form-urlencoded');
    expect(err.message).toContain('application/json');
    expect(unsupportedMediaType(undefined).message).toMatch(/needs a Content-Type/);
    expect(unsupportedMediaType(`text/${'x'.repeat(500)}`).message.length).toBeLessThan(250);
  });
});
