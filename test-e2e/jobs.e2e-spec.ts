import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import * as XLSX from 'xlsx';
import type { Annotation, ApiResult, DocumentNode, Schemas } from '@docintel/api-client';
import { REPO_ROOT, TestStack } from '@docintel/testing';
import { answerType, jobEnded, ok, statusOf } from './support/client';
import { errorBody } from './support/http';
import { Indexer, type IndexedFile } from './support/indexing';
import { compareWithReference, type OpenApiDocument } from './support/openapi-compat';

/**
 * QA and extraction jobs through the HTTP API, with every service and the built-in engine running
 * for real: documents whose contents we know are uploaded and indexed, questions of each answer
 * type are asked, and each typed value and each citation's position is checked against the
 * document (the text at a LINE position, the cell at a CELL position, the node at a BBOX).
 */

type MetaResult = Schemas['MetaResultDto'];
/** A position in a document: the document types a node's positions, not an annotation's (free-form objects there). */
type Position = DocumentNode['positions'][number];
const positionsOf = (a: Annotation): Position[] => a.data.positions as Position[];

const CONTRACT = [
  'SERVICE AGREEMENT',
  '',
  'This agreement was signed on 14 March 2023 between Acme Industries and Globex Corporation.',
  'The supplier is Globex Corporation, based in Springfield.',
  'The termination notice period is 90 days.',
  'The total fee is EUR 12,500.00 per year.',
  'The contract does not include a non-compete clause.',
  '',
].join('\n');

function inventoryWorkbook(): Buffer {
  const sheet = XLSX.utils.aoa_to_sheet([
    ['Product', 'Unit price', 'Stock'],
    ['Widget', 4.75, 120],
    ['Gadget', 12.5, 30],
    ['Sprocket', 0.95, 4000],
  ]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Inventory');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

const RETURNS_HTML = [
  '<html><head><title>Returns policy</title></head><body>',
  '<h1>Returns policy</h1>',
  '<p>Customers may return any product',
  '  within <b>30 days</b> of delivery for a full refund.</p>',
  '<p>The warranty covers parts &amp; labour.</p>',
  '</body></html>',
].join('\n');

const SUPPLY_TERMS = [
  'SUPPLY TERMS',
  'Deliveries are made every Tuesday by Northwind Logistics.',
  'The late delivery penalty is 250 EUR per day.',
];

/** A Word document whose body is these paragraphs. */
function docxOf(paragraphs: string[]): Buffer {
  const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const body = paragraphs.map((t) => `<w:p><w:r><w:t xml:space="preserve">${t}</w:t></w:r></w:p>`).join('');
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      '_rels/.rels': strToU8(
        '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
      'word/document.xml': strToU8(`<?xml version="1.0"?><w:document ${w}><w:body>${body}</w:body></w:document>`),
    }),
  );
}

describe('QA and extraction jobs (built-in engine)', () => {
  let stack: TestStack;
  let alice: Indexer;
  let bob: Indexer;
  const files: Record<'contract' | 'inventory' | 'paper' | 'shinyama', IndexedFile> = {} as never;
  const treeCache = new Map<string, DocumentNode>();

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'jobs' });
    alice = await Indexer.forNamespace(stack, 'jobs', 'alice@jobs.test');
    bob = await Indexer.forNamespace(stack, 'jobs', 'bob@jobs.test');
    files.contract = await alice.index('deals/contract.txt', { bytes: CONTRACT });
    files.inventory = await alice.index('deals/inventory.xlsx', { bytes: inventoryWorkbook() });
    files.paper = await alice.index('papers/otsl.pdf', { corpus: 'pdf/docling_2305.03393v1-pg9.pdf' });
    files.shinyama = await alice.index('papers/shinyama.pdf', { corpus: 'pdf/pdfminer_naacl06-shinyama.pdf' });
    for (const key of Object.keys(files) as Array<keyof typeof files>) {
      files[key] = await alice.stepsSettled(files[key].id.id, ['node_embedding', 'ontologies', 'passage_indexing'], 180_000);
      expect(files[key].lastIndexationInfos.status).toBe('SUCCESS');
    }
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const finished = (kind: 'qa' | 'extraction', jobId: string, who = alice) => jobEnded(who.api, kind, jobId);
  const job = (jobId: string) => ({ params: { path: { jobId } } });

  async function tree(fileId: string): Promise<DocumentNode> {
    if (!treeCache.has(fileId)) treeCache.set(fileId, await alice.tree(fileId));
    return treeCache.get(fileId) as DocumentNode;
  }

  /** The text a user finds at an annotation's position in the original document. */
  async function textAt(a: Annotation): Promise<string> {
    const p = positionsOf(a)[0];
    if (p.type === 'LINE') {
      const source = a.data.documentId === files.contract.id.id ? CONTRACT : '';
      return source.split('\n')[p.line_number - 1].slice(p.column_index_start, p.column_index_stop);
    }
    const nodes: DocumentNode[] = [];
    const walk = (n: DocumentNode) => {
      if (n.positions.some((q) => JSON.stringify(q) === JSON.stringify(p))) nodes.push(n);
      n.children.forEach(walk);
    };
    walk(await tree(a.data.documentId));
    return nodes.map((n) => n.text).join(' ');
  }

  it('answers questions of each answer type with typed values, and every citation points at the answer in its document', async () => {
    const created = await ok(
      alice.api.POST('/api/core/qa/jobs', {
        body: {
          files: { fileIds: [files.contract.id.id, files.inventory.id.id, files.paper.id.id] },
          questions: [
            { id: 'signed', question: 'When was the agreement signed?', answerType: answerType({ dataType: 'DATE', dateFormat: 'EUR' }) },
            { id: 'notice', question: 'How many days is the termination notice period?', answerType: answerType({ dataType: 'INT' }) },
            {
              id: 'fee',
              question: 'What is the total fee?',
              answerType: answerType({ dataType: 'FLOAT', decimalPrecision: 'TWO_DECIMALS' }),
            },
            { id: 'noncompete', question: 'Does the contract include a non-compete clause?', answerType: answerType({ dataType: 'BOOL' }) },
            {
              id: 'supplier',
              question: 'Who is the supplier?',
              answerType: answerType({ dataType: 'ENUM', enumValues: ['Initech', 'Globex Corporation', 'Umbrella Corp'] }),
            },
            { id: 'gadget', question: 'What is the unit price of the Gadget?', answerType: answerType({ dataType: 'FLOAT' }) },
            {
              id: 'cpu',
              question: 'At what clock speed in GHz does the AMD EPYC 7763 CPU run?',
              answerType: answerType({ dataType: 'FLOAT' }),
            },
          ],
        },
      }),
    );
    expect(created).toMatchObject({ status: 'PENDING', taskType: 'QA', progress: { total: 7 } });
    const done = await finished('qa', created.jobId);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: { total: 7, done: 7, failed: 0 } });

    const { results } = await ok(alice.api.GET('/api/core/qa/jobs/{jobId}/results', job(created.jobId)));
    const by = Object.fromEntries(results.map((r) => [r.questionId, r]));
    expect(by.signed).toMatchObject({ found: true, answer: { dateValue: expect.stringMatching(/^2023-03-14/) }, rawValue: '14/03/2023' });
    expect(by.notice).toMatchObject({ found: true, answer: { longValue: 90 } });
    expect(by.fee).toMatchObject({ found: true, answer: { doubleValue: 12500 } });
    expect(by.noncompete).toMatchObject({ found: true, answer: { boolValue: false } });
    expect(by.supplier).toMatchObject({ found: true, answer: { strValue: 'Globex Corporation' } });
    expect(by.gadget).toMatchObject({ found: true, answer: { doubleValue: 12.5 } });
    expect(by.cpu).toMatchObject({ found: true, answer: { doubleValue: 2.45 } });

    const annotations = await ok(alice.api.GET('/api/core/qa/jobs/{jobId}/annotations', job(created.jobId)));
    const byId = new Map(annotations.map((a) => [a.id.id, a]));
    const expectedText: Record<string, RegExp> = {
      signed: /14 March 2023/,
      notice: /90 days/,
      fee: /12,500/,
      noncompete: /non-compete/,
      supplier: /Globex Corporation/,
      gadget: /12\.5/,
      cpu: /2\.45/,
    };
    const kinds: Record<string, string> = {
      signed: 'LINE',
      notice: 'LINE',
      fee: 'LINE',
      noncompete: 'LINE',
      supplier: 'LINE',
      gadget: 'CELL',
      cpu: 'BBOX',
    };
    for (const r of results) {
      expect({ q: r.questionId, refs: r.referenceIds.length }).toEqual({ q: r.questionId, refs: expect.any(Number) });
      expect(r.referenceIds.length).toBeGreaterThan(0);
      const cited = r.referenceIds.map((ref) => byId.get(ref.id) as Annotation);
      for (const a of cited) {
        expect(a).toMatchObject({ type: 'DOCUMENT_STATEMENT', status: 'VALID', space: { id: created.jobId, entityType: 'JOB' } });
        expect(positionsOf(a)[0].type).toBe(kinds[r.questionId]);
      }
      const texts = await Promise.all(cited.map(textAt));
      expect({ q: r.questionId, texts }).toEqual({
        q: r.questionId,
        texts: expect.arrayContaining([expect.stringMatching(expectedText[r.questionId])]),
      });
      if (kinds[r.questionId] === 'BBOX') {
        const p = positionsOf(cited[0])[0] as Extract<Position, { type: 'BBOX' }>;
        expect(p.page_number).toBe(1);
        expect(p.bbox.x1).toBeGreaterThan(p.bbox.x0);
      }
    }
  }, 240_000);

  it('cites an HTML answer by the lines of its source and a DOCX answer by its paragraph', async () => {
    const docx = docxOf(SUPPLY_TERMS);
    const page = await alice.index('deals/returns.html', { bytes: RETURNS_HTML });
    const terms = await alice.index('deals/supply-terms.docx', { bytes: docx });
    for (const f of [page, terms]) {
      const settled = await alice.stepsSettled(f.id.id, ['node_embedding', 'passage_indexing'], 180_000);
      expect(settled.lastIndexationInfos.status).toBe('SUCCESS');
    }
    const ask = async (fileId: string, question: string, type: Parameters<typeof answerType>[0]) => {
      const created = await ok(
        alice.api.POST('/api/core/qa/jobs', {
          body: { files: { fileIds: [fileId] }, questions: [{ question, answerType: answerType(type) }] },
        }),
      );
      expect(await finished('qa', created.jobId)).toMatchObject({ status: 'SUCCESS' });
      const { results } = await ok(alice.api.GET('/api/core/qa/jobs/{jobId}/results', job(created.jobId)));
      const annotations = await ok(alice.api.GET('/api/core/qa/jobs/{jobId}/annotations', job(created.jobId)));
      expect(results[0].found).toBe(true);
      return { result: results[0], cited: annotations.filter((a) => results[0].referenceIds.some((r) => r.id === a.id.id)) };
    };

    const days = await ask(page.id.id, 'Within how many days may customers return a product?', { dataType: 'INT' });
    expect(days.result.answer).toMatchObject({ longValue: 30 });
    const lines = RETURNS_HTML.split('\n');
    const html = positionsOf(days.cited[0]).map((p) => {
      expect(p.type).toBe('LINE');
      const line = p as Extract<Position, { type: 'LINE' }>;
      return lines[line.line_number - 1].slice(line.column_index_start, line.column_index_stop);
    });
    expect(html.join(' ').replace(/<[^>]*>/g, '')).toMatch(/within 30 days/);

    const penalty = await ask(terms.id.id, 'What is the late delivery penalty per day in EUR?', { dataType: 'FLOAT' });
    expect(penalty.result.answer).toMatchObject({ doubleValue: 250 });
    const xml = Buffer.from(unzipSync(docx)['word/document.xml']).toString('utf8');
    const paragraphs = xml
      .split(/<w:p>/)
      .slice(1)
      .map((p) => p.replace(/<[^>]*>/g, ''));
    const words = positionsOf(penalty.cited[0]).map((p) => {
      expect(p.type).toBe('PARAGRAPH');
      const para = p as Extract<Position, { type: 'PARAGRAPH' }>;
      return paragraphs[para.paragraph_index].slice(para.column_index_start, para.column_index_stop);
    });
    expect(words.join(' ')).toMatch(/penalty is 250 EUR/);
  }, 300_000);

  it('answers title and authors from the document metadata, cited at the title heading and the author lines', async () => {
    const TITLE = 'Preemptive Information Extraction using Unrestricted Relation Discovery';
    const created = await ok(
      alice.api.POST('/api/core/qa/jobs', {
        body: {
          files: { fileIds: [files.shinyama.id.id] },
          questions: [
            { id: 'title', question: 'What is the title of this paper?' },
            { id: 'authors', question: 'Who are the authors?' },
            { id: 'wrote', question: `Who wrote "${TITLE}"?` },
            { id: 'funding', question: 'Who funded this research?' },
          ],
        },
      }),
    );
    expect(await finished('qa', created.jobId)).toMatchObject({ status: 'SUCCESS' });
    const { results } = await ok(alice.api.GET('/api/core/qa/jobs/{jobId}/results', job(created.jobId)));
    const by = Object.fromEntries(results.map((r) => [r.questionId, r]));
    expect(by.title).toMatchObject({ found: true, rawValue: TITLE, answer: { strValue: TITLE } });
    expect(by.title.explanation).toMatch(/document metadata of shinyama\.pdf/);
    const authors = {
      found: true,
      rawValue: 'Yusuke Shinyama; Satoshi Sekine',
      answer: { strListValue: ['Yusuke Shinyama', 'Satoshi Sekine'] },
    };
    expect(by.authors).toMatchObject(authors);
    expect(by.wrote).toMatchObject(authors);
    // Funding is read from the acknowledgements, which say "supported by", not "funded".
    expect(by.funding).toMatchObject({ found: true, rawValue: expect.stringMatching(/National Science Foundation/) });

    const annotations = await ok(alice.api.GET('/api/core/qa/jobs/{jobId}/annotations', job(created.jobId)));
    const byId = new Map(annotations.map((a) => [a.id.id, a]));
    const cited = async (id: string) => {
      const refs = by[id].referenceIds.map((ref) => byId.get(ref.id) as Annotation);
      for (const a of refs) expect(positionsOf(a)[0]).toMatchObject({ type: 'BBOX', page_number: 1 });
      return Promise.all(refs.map(textAt));
    };
    expect(await cited('title')).toEqual([expect.stringContaining(TITLE)]);
    expect(await cited('authors')).toEqual([expect.stringContaining('Yusuke Shinyama'), expect.stringContaining('Satoshi Sekine')]);
    const funding = by.funding.referenceIds.map((ref) => byId.get(ref.id) as Annotation);
    expect(funding.map((a) => a.data.content).join(' ')).toMatch(/National Science Foundation/);
  }, 120_000);

  it('says "not found" with a low confidence instead of guessing', async () => {
    const created = await ok(
      alice.api.POST('/api/core/qa/jobs', {
        body: {
          files: { fileIds: [files.contract.id.id] },
          questions: [
            { question: 'What is the boiling point of liquid nitrogen in Kelvin?', answerType: answerType({ dataType: 'FLOAT' }) },
          ],
        },
      }),
    );
    await finished('qa', created.jobId);
    const { results } = await ok(alice.api.GET('/api/core/qa/jobs/{jobId}/results', job(created.jobId)));
    expect(results[0]).toMatchObject({ found: false, rawValue: '', referenceIds: [] });
    expect(results[0].confidence).toBeLessThan(0.5);
    expect(results[0].explanation.length).toBeGreaterThan(10);
  }, 120_000);

  it('extracts typed metas from each file, using the document metadata where it answers', async () => {
    const created = await ok(
      alice.api.POST('/api/core/extraction/jobs', {
        body: {
          files: { fileIds: [files.contract.id.id, files.paper.id.id] },
          metas: [
            {
              meta: 'notice period',
              description: 'How many days is the termination notice period?',
              answerType: answerType({ dataType: 'INT' }),
            },
            { meta: 'language', answerType: answerType({ dataType: 'STRING' }) },
          ],
        },
      }),
    );
    expect(created.taskType).toBe('EXTRACTION');
    expect(await finished('extraction', created.jobId)).toMatchObject({ status: 'SUCCESS', progress: { total: 2, done: 2 } });
    const { results } = await ok(alice.api.GET('/api/core/extraction/jobs/{jobId}/results', job(created.jobId)));
    expect(results).toHaveLength(4);
    const contract = results.filter((r) => r.fileId === files.contract.id.id);
    expect(contract.find((r) => r.meta === 'notice period')).toMatchObject({ found: true, answer: { longValue: 90 } });
    expect(results.filter((r) => r.meta === 'language').every((r) => r.answer.strValue === 'en')).toBe(true);
    const annotations = await ok(alice.api.GET('/api/core/extraction/jobs/{jobId}/annotations', job(created.jobId)));
    const notice = contract.find((r) => r.meta === 'notice period') as MetaResult;
    const cited = annotations.find((a) => a.id.id === notice.referenceIds[0]?.id) as Annotation;
    expect(await textAt(cited)).toMatch(/90 days/);
  }, 120_000);

  it('refuses bad job requests with 400 naming the field, and unindexed files unless skipped', async () => {
    const bad: Array<[unknown, string]> = [
      [{ files: { fileIds: [files.contract.id.id] } }, 'questions'],
      [{ files: { fileIds: [files.contract.id.id] }, questions: [] }, 'questions'],
      [{ files: { fileIds: ['nope'] }, questions: [{ question: 'x' }] }, 'files.fileIds'],
      [
        { files: { fileIds: [files.contract.id.id] }, questions: [{ question: 'x', answerType: { dataType: 'COLOUR' } }] },
        'questions[0].answerType.dataType',
      ],
      [{ files: { fileIds: [files.contract.id.id] }, questions: [{ question: 'a\u0000b' }] }, 'questions[0].question'],
      [{ files: { fileIds: [files.contract.id.id] }, questions: [{ question: 'x'.repeat(4001) }] }, 'questions[0].question'],
      [{ files: {}, questions: [{ question: 'x' }] }, 'files'],
    ];
    for (const [body, field] of bad) {
      const res = await alice.call('POST', '/api/core/qa/jobs', body);
      const err = await errorBody(res, 400, 'VALIDATION_FAILED');
      expect({ field, fields: err.details.map((d) => d.field) }).toEqual({ field, fields: expect.arrayContaining([field]) });
    }
    const missing = '00000000-0000-4000-8000-000000000000';
    const unknown = await alice.call('POST', '/api/core/extraction/jobs', { files: { fileIds: [missing] }, metas: [{ meta: 'title' }] });
    expect((await errorBody(unknown, 400, 'VALIDATION_FAILED')).details).toEqual([
      { field: 'files.fileIds[0]', problem: expect.stringContaining(missing) },
    ]);

    await alice.upload('later/pending.txt', { bytes: 'Not yet.\n' });
    // The namespace's rule keeps it from being parsed: it ends ABORTED, never indexed.
    expect([200, 201]).toContain(await alice.rule('corpus_parsing', { mime_types: ['application/pdf'] }));
    const unindexed = await alice.settled((await alice.create('later/pending.txt')).id.id);
    expect(unindexed.indexed).toBe(false);
    const refused = await alice.call('POST', '/api/core/qa/jobs', {
      files: { fileIds: [unindexed.id.id] },
      questions: [{ question: 'x' }],
    });
    expect((await errorBody(refused, 400, 'VALIDATION_FAILED')).details[0]).toMatchObject({
      field: 'files.fileIds[0]',
      problem: expect.stringContaining('is not indexed'),
    });
    const skipped = await ok(
      alice.api.POST('/api/core/qa/jobs', {
        body: {
          files: { fileIds: [unindexed.id.id, files.contract.id.id] },
          questions: [{ question: 'How many days is the termination notice period?', answerType: answerType({ dataType: 'INT' }) }],
          config: { skip_unindexed_files: true },
        },
      }),
    );
    expect((await finished('qa', skipped.jobId)).status).toBe('SUCCESS');
    expect(await alice.rule('corpus_parsing', null)).toBe(204);
  }, 120_000);

  it("keeps jobs to their owner: another user's job is 404, malformed ids 400, and lists hold only the caller's jobs", async () => {
    const created = await ok(
      alice.api.POST('/api/core/qa/jobs', {
        body: { files: { fileIds: [files.contract.id.id] }, questions: [{ question: 'Who is the supplier?' }] },
      }),
    );
    const id = job(created.jobId);
    const elsewhere: Array<[string, () => Promise<ApiResult>]> = [
      ['bob: qa job', () => bob.api.GET('/api/core/qa/jobs/{jobId}', id)],
      ['alice: as an extraction job', () => alice.api.GET('/api/core/extraction/jobs/{jobId}', id)],
      ['bob: qa results', () => bob.api.GET('/api/core/qa/jobs/{jobId}/results', id)],
      ['alice: as extraction results', () => alice.api.GET('/api/core/extraction/jobs/{jobId}/results', id)],
      ['bob: qa inputs', () => bob.api.GET('/api/core/qa/jobs/{jobId}/inputs', id)],
      ['alice: as extraction inputs', () => alice.api.GET('/api/core/extraction/jobs/{jobId}/inputs', id)],
      ['bob: qa annotations', () => bob.api.GET('/api/core/qa/jobs/{jobId}/annotations', id)],
      ['alice: as extraction annotations', () => alice.api.GET('/api/core/extraction/jobs/{jobId}/annotations', id)],
    ];
    for (const [what, read] of elsewhere) expect({ what, status: await statusOf(read()) }).toEqual({ what, status: 404 });
    expect(await statusOf(bob.api.POST('/api/core/qa/jobs/{jobId}/cancel', id))).toBe(404);
    const malformed = await alice.call('GET', '/api/core/qa/jobs/not-a-uuid');
    expect((await errorBody(malformed, 400, 'VALIDATION_FAILED')).details).toEqual([{ field: 'jobId', problem: 'must be a UUID' }]);
    const firstHundred = { params: { query: { page: 0, pageSize: 100 } } };
    const page = await ok(alice.api.GET('/api/core/qa/jobs', firstHundred));
    expect(page.data.map((j) => j.jobId)).toContain(created.jobId);
    expect((await ok(bob.api.GET('/api/core/qa/jobs', firstHundred))).totalElements).toBe(0);
    const noPaging = await alice.call('GET', '/api/core/qa/jobs');
    expect((await errorBody(noPaging, 400, 'VALIDATION_FAILED')).details.map((d) => d.field).sort()).toEqual(['page', 'pageSize']);
    const inputs = await ok(alice.api.GET('/api/core/qa/jobs/{jobId}/inputs', id));
    expect(inputs.questions).toEqual([expect.objectContaining({ id: '1', question: 'Who is the supplier?' })]);
    await finished('qa', created.jobId);
  }, 120_000);

  it('documents the job operations as the reference API has them', async () => {
    const ours = (await (await stack.request('/api/docs-json')).json()) as OpenApiDocument;
    const reference = JSON.parse(
      readFileSync(join(REPO_ROOT, '..', 'shared', 'spec', 'reference-openapi.json'), 'utf8'),
    ) as OpenApiDocument;
    const ids = [
      'listQAJobs',
      'createQAJob',
      'getQAJob',
      'getQAJobOutputs',
      'getQAJobInputs',
      'getQAJobAnnotations',
      'listExtractionJobs',
      'createExtractionJob',
      'getExtractionJob',
      'getExtractionJobOutputs',
      'getExtractionJobInputs',
      'getExtractionJobAnnotations',
    ];
    const { matched, problems } = compareWithReference(ours, reference);
    expect(matched.map((m) => m.operationId)).toEqual(expect.arrayContaining(ids));
    expect(problems.filter((p) => ids.some((id) => p.includes(`(${id})`)))).toEqual([]);
  });
});
