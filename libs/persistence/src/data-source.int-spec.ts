import 'reflect-metadata';
import { Column, Entity, PrimaryColumn, type DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { startTestInfrastructure, type TestInfrastructure } from '@docintel/testing';
import { createDataSource, initializeDataSource, redactUrl, type PersistenceOptions } from './data-source';

@Entity({ name: 'widgets' })
class Widget {
  @PrimaryColumn('int')
  id: number;

  @Column('text')
  name: string;
}

/** A migration that counts its runs and takes a moment, so that racing replicas overlap. */
function widgetsMigration(counter: { runs: number }) {
  return class CreateWidgets1700000000000 implements MigrationInterface {
    name = 'CreateWidgets1700000000000';
    async up(q: QueryRunner): Promise<void> {
      counter.runs++;
      await q.query('SELECT pg_sleep(0.3)');
      await q.query('CREATE TABLE widgets (id int PRIMARY KEY, name text NOT NULL)');
    }
    async down(q: QueryRunner): Promise<void> {
      await q.query('DROP TABLE widgets');
    }
  };
}

describe('persistence', () => {
  let infra: TestInfrastructure;
  const open: DataSource[] = [];

  const options = (schema: string, counter: { runs: number }, url = infra.databaseUrl): PersistenceOptions => ({
    url,
    schema,
    entities: [Widget],
    migrations: [widgetsMigration(counter)],
    poolSize: 2,
  });
  const start = async (opts: PersistenceOptions) => {
    const ds = createDataSource(opts);
    open.push(ds);
    return initializeDataSource(ds, opts);
  };

  beforeAll(async () => {
    infra = await startTestInfrastructure('persistence');
  });
  afterAll(async () => {
    for (const ds of open) if (ds.isInitialized) await ds.destroy();
    await infra?.teardown();
  });

  it('creates the service schema, runs its migrations there, and runs nothing more next time', async () => {
    const counter = { runs: 0 };
    const ds = await start(options('catalog', counter));
    expect(counter.runs).toBe(1);
    const tables = await ds.query(
      `SELECT table_schema, table_name FROM information_schema.tables WHERE table_name IN ('widgets', 'migrations') ORDER BY table_name`,
    );
    expect(tables).toEqual([
      { table_schema: 'catalog', table_name: 'migrations' },
      { table_schema: 'catalog', table_name: 'widgets' },
    ]);
    await ds.getRepository(Widget).save({ id: 1, name: 'sprocket' });
    expect(await ds.query('SELECT name FROM catalog.widgets')).toEqual([{ name: 'sprocket' }]);

    const again = await start(options('catalog', counter));
    expect(counter.runs).toBe(1);
    expect(await again.getRepository(Widget).findOneBy({ id: 1 })).toMatchObject({ name: 'sprocket' });
    expect(await again.query('SELECT name FROM catalog.migrations')).toEqual([{ name: 'CreateWidgets1700000000000' }]);
  });

  it('migrates once when replicas start together (advisory lock)', async () => {
    const counter = { runs: 0 };
    const results = await Promise.allSettled([
      start(options('race', counter)),
      start(options('race', counter)),
      start(options('race', counter)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(counter.runs).toBe(1);
    const [ds] = open.slice(-3);
    expect(await ds.query('SELECT name FROM race.migrations')).toEqual([{ name: 'CreateWidgets1700000000000' }]);
  });

  it('says how to fix an unreachable PostgreSQL, without the password', async () => {
    const url = 'postgres://docintel:hunter2@127.0.0.1:1/nowhere';
    const err: Error = await start(options('x', { runs: 0 }, url)).then(
      () => {
        throw new Error('expected start-up to fail');
      },
      (e: Error) => e,
    );
    expect(err.message).toContain('Cannot reach PostgreSQL at postgres://docintel:***@127.0.0.1:1/nowhere (');
    expect(err.message).toContain('Start PostgreSQL, create the database, or set DATABASE_URL.');
    expect(err.message).not.toContain('hunter2');
  });

  it('says so when the database does not exist', async () => {
    const url = new URL(infra.databaseUrl);
    url.pathname = '/docintel_no_such_database';
    await expect(start(options('x', { runs: 0 }, url.toString()))).rejects.toThrow(
      /Cannot reach PostgreSQL at .*docintel_no_such_database.*does not exist.*create the database/,
    );
  });

  it('redacts only the password of a URL', () => {
    expect(redactUrl('postgres://u:p@h:5432/d?sslmode=require')).toBe('postgres://u:***@h:5432/d?sslmode=require');
    expect(redactUrl('postgres://u@h/d')).toBe('postgres://u@h/d');
    expect(redactUrl('not a url')).toBe('(unparseable DATABASE_URL)');
  });
});
