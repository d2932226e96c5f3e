import Fastify from 'fastify';
import { DomainError, ErrorCode, MAX_JSON_DEPTH } from '@docintel/contracts';
import { jsonNestingExceeds, parseJsonBody, unsupportedMediaType } from './json-body';

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

  it('leaves malformed JSON and prototype poisoning to fastify (400)', async () => {
    await expect(parsed('{"a": ')).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/not valid JSON/) });
    await expect(parsed('{"__proto__": {"admin": true}}')).rejects.toMatchObject({ statusCode: 400 });
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
