import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, TestStack } from '@docintel/testing';
import { errorStatuses, runGuide, shellExamples, type GuideRun, type ShellExample } from './support/guides';

/**
 * Every shell example of README.md and docs/*.md, run with bash against the started services in
 * the order written, one shell per document, from the repository's root (so `samples/` and
 * `npm run docintel` are there) and with the stack's database in the environment, as a reader
 * with `npm start` running would. Only the URL is changed, to the stack's. Examples the docs mark
 * `<!-- not run: reason -->` are skipped and listed. The walkthrough's results are then checked
 * through the API: a cited answer, an extraction, a table and an agent's reply.
 */

const DOCS = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const EXAMPLES = new Map(DOCS.map((doc) => [doc, shellExamples(doc, readFileSync(join(REPO_ROOT, doc), 'utf8'))]));
const where = (e: ShellExample) => `${e.doc}:${e.line}`;

describe('the shell examples of the README and the guides', () => {
  let stack: TestStack;
  const runs = new Map<string, GuideRun>();

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'guides' });
  });
  afterAll(async () => {
    await stack?.stop();
    const skipped = [...EXAMPLES.values()].flat().filter((e) => e.notRun);
    process.stdout.write(`not run (${skipped.length}):\n${skipped.map((e) => `  ${where(e)}: ${e.notRun}`).join('\n')}\n`);
  });

  const run = async (doc: string): Promise<GuideRun> => {
    const examples = EXAMPLES.get(doc)!.filter((e) => !e.notRun);
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      DATABASE_URL: stack.env.DATABASE_URL,
    };
    const result = await runGuide(examples, {
      cwd: REPO_ROOT,
      env,
      rewrite: (code) => code.replaceAll('http://127.0.0.1:8080', stack.baseUrl),
      timeoutMs: 600_000,
    });
    runs.set(doc, result);
    return result;
  };

  it.each(DOCS)(
    '%s: every example runs and answers no error it does not announce',
    async (doc) => {
      const result = await run(doc);
      if (result.failed) {
        throw new Error(
          `${where(result.failed.example)} exited with ${result.failed.status}:\n${result.failed.example.code}\n--- output ---\n${result.failed.output.slice(-6000)}`,
        );
      }
      for (const { example, output } of result.outputs) {
        // An error body is fine where the example says it comes (a 401 it shows, a 404 it explains).
        const unannounced = errorStatuses(output).filter((s) => !example.code.includes(String(s)));
        expect({ example: where(example), unannounced, output: unannounced.length ? output.slice(-3000) : '' }).toEqual({
          example: where(example),
          unannounced: [],
          output: '',
        });
      }
    },
    900_000,
  );

  const json = async (path: string, token: string) => {
    const res = await stack.request(path, { token });
    expect(res.status).toBe(200);
    return res.json();
  };

  it('the README walkthrough ends in a cited answer, an extraction, a table and an agent reply', async () => {
    const v = runs.get('README.md')?.vars;
    expect(v).toMatchObject({ TOKEN: expect.any(String), QA: expect.any(String), EXT: expect.any(String), ROWS: expect.any(String) });
    const token = v!.TOKEN;

    const qa = await json(`/api/core/qa/jobs/${v!.QA}/results`, token);
    const byId = Object.fromEntries(qa.results.map((r: { questionId: string }) => [r.questionId, r]));
    expect(byId.signed).toMatchObject({ found: true, answer: { dateValue: '2023-03-14T00:00:00.000Z' } });
    expect(byId.fee).toMatchObject({ found: true, answer: { doubleValue: 12500 } });
    expect(byId.noncompete).toMatchObject({ found: true, answer: { boolValue: true } });
    expect(byId.city).toMatchObject({ found: true, answer: { strValue: 'Rotterdam' } });
    expect(byId.city.referenceIds.length).toBeGreaterThan(0);
    const annotations = await json(`/api/core/qa/jobs/${v!.QA}/annotations`, token);
    const cited = annotations.find((a: { id: { id: string } }) => a.id.id === byId.city.referenceIds[0].id);
    expect(cited.data).toMatchObject({ documentName: 'contract.txt', positions: [{ type: 'LINE', line_number: 5 }] });

    const extraction = await json(`/api/core/extraction/jobs/${v!.EXT}/results`, token);
    expect(extraction.results).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ meta: 'notice period', found: true, answer: { longValue: 90 } }),
        expect.objectContaining({ meta: 'authors', found: true, answer: { strListValue: ['Ada Marsh', 'Ben Okafor'] } }),
      ]),
    );

    const table = await json(`/api/core/multi-dim-extraction/jobs/${v!.ROWS}/results`, token);
    const rows = table.entityExtraction.rows.map((r: { cells: { columnKey: string; value: unknown }[] }) =>
      Object.fromEntries(r.cells.map((c) => [c.columnKey, c.value])),
    );
    expect(rows).toEqual([
      { product: 'Widget', price: 4.75, currency: 'EUR' },
      { product: 'Gadget', price: 12.5, currency: 'EUR' },
      { product: 'Sprocket', price: 0.95, currency: 'EUR' },
    ]);

    const born = await json(`/api/core/agent/jobs/${v!.JOB}/results`, token);
    expect(born).toMatchObject({ answer: '3 September 1971' });
    expect(born.referenceIds.length).toBeGreaterThan(0);
    const where2 = await json(`/api/core/agent/jobs/${v!.JOB2}/results`, token);
    expect(where2.answer).toMatch(/Aberystwyth/);
    const summary = await json(`/api/core/agent/jobs/${v!.STRUCT}/results`, token);
    expect(summary.answer).toEqual({ full_name: 'Dylan Rhys Hafod', place_of_birth: 'Aberystwyth, Ceredigion', caps: 22 });
  });

  it("rules.md's PDF-only rule aborts the text file, which is parsed once the rules are undone", () => {
    const outputs = runs.get('docs/rules.md')!.outputs.map((o) => o.output);
    expect(outputs.find((o) => o.includes('"mime_types":["application/pdf"]'))).toMatch(/(^|\})ABORTED$/m);
    expect(outputs.at(-1)).toMatch(/^202\nSUCCESS$/m);
  });

  it("storage.md's presigned URLs carry the sample's bytes up and down", () => {
    const size = statSync(join(REPO_ROOT, 'samples/inventory.xlsx')).size;
    expect(runs.get('docs/storage.md')!.outputs[0].output).toContain(`200 ${size} bytes`);
  });

  it("jobs.md's chained question answers the supplier's city", async () => {
    const v = runs.get('docs/jobs.md')?.vars;
    expect(v).toMatchObject({ TOKEN: expect.any(String), CHAINED: expect.any(String) });
    const { results } = await json(`/api/core/qa/jobs/${v!.CHAINED}/results`, v!.TOKEN);
    expect(results.map((r: { questionId: string; rawValue: string }) => [r.questionId, r.rawValue])).toEqual([
      ['supplier', 'Globex Corporation'],
      ['city', 'Rotterdam'],
    ]);
  });
});
