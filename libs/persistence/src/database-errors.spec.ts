import { isDatabaseUnavailable } from './database-errors';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['the pool waiting too long for a connection', new Error('timeout exceeded when trying to connect')],
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a server that is starting up (57P03)', withCode('57P03', 'the database system is starting up')],
    ['a server shutting down (57P01)', withCode('57P01', 'terminating connection due to administrator command')],
    ['no connection slot left (53300)', withCode('53300', 'sorry, too many clients already')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    [
      "TypeORM's QueryFailedError around a lost connection",
      Object.assign(new Error('Connection terminated'), { driverError: withCode('57P01') }),
    ],
    ['an AggregateError of refused addresses', new AggregateError([withCode('ECONNREFUSED')], 'connect failed')],
  ])('is true for %s', (_what, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', withCode('42601', 'syntax error at or near "SELEC"')],
    ['an invalid jsonb value', withCode('22P02', 'invalid input syntax for type json')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['no error at all', undefined],
  ])('is false for %s', (_what, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
