import { AgentTools, type ToolJobAnswer, type ToolPassage } from './agent-tools';
import { SourceLedger } from './source-ledger';
import { aPassage, aStatement, fakeToolbox, recordingTrace } from './testing/fake-toolbox';

const LEASE = aPassage('The lease ends on 31 March 2027 and may be renewed once.', {
  id: 'n-1',
  fileId: 'f-1',
  fileName: 'lease.pdf',
  headings: ['Term'],
});
const RENT = aPassage('Monthly rent is EUR 1,250 payable in advance.', {
  id: 'n-2',
  fileId: 'f-1',
  fileName: 'lease.pdf',
  headings: ['Payments'],
});
const DEPOSIT = aPassage('The deposit is three months of rent.', { id: 'n-3', fileId: 'f-1', fileName: 'lease.pdf' });
const OTHER = aPassage('The rent of the garage is EUR 90.', { id: 'n-9', fileId: 'f-2', fileName: 'garage.pdf' });

function setup(options: Parameters<typeof fakeToolbox>[1] = {}) {
  const toolbox = fakeToolbox([LEASE, RENT, DEPOSIT, OTHER], options);
  const { steps, trace } = recordingTrace();
  return { toolbox, steps, tools: new AgentTools(toolbox, trace) };
}

describe('AgentTools', () => {
  it('searches with the default limit and gives each passage a handle to cite', async () => {
    const { tools, toolbox } = setup();
    const outcome = await tools.call('search_passages', { query: 'rent' }, 1);
    expect(toolbox.searches).toEqual([{ query: 'rent', fileIds: undefined, limit: 8 }]);
    expect(outcome.ok).toBe(true);
    const { passages } = (outcome as { result: { passages: ToolPassage[] } }).result;
    expect(passages.map((p) => p.handle)).toEqual(['S1', 'S2', 'S3']);
    expect(passages[0]).toEqual({
      handle: 'S1',
      fileId: 'f-1',
      fileName: 'lease.pdf',
      nodeId: 'n-2',
      headings: ['Payments'],
      text: RENT.text,
    });
  });

  it('keeps a handle for the same passage across calls', async () => {
    const { tools } = setup();
    await tools.call('search_passages', { query: 'rent' }, 1);
    const around = await tools.call('read_node', { fileId: 'f-1', nodeId: 'n-2' }, 2);
    const passages = (around as { result: { passages: ToolPassage[] } }).result.passages;
    // n-1 is new; n-2 and n-3 were found by the search as S1 and S2.
    expect(passages.map((p) => [p.nodeId, p.handle])).toEqual([
      ['n-1', 'S4'],
      ['n-2', 'S1'],
      ['n-3', 'S2'],
    ]);
  });

  it.each([
    [{ query: 42 }, /Invalid arguments for search_passages: \/query must be string/],
    [{}, /\/query is required/],
    [{ query: 'rent', limit: 51 }, /\/limit must be <= 50/],
    [{ query: 'rent', limit: 0 }, /\/limit must be >= 1/],
    [{ query: 'rent', page: 2 }, /must not have the property 'page'/],
  ])('refuses invalid search arguments %j with a clear error', async (args, message) => {
    const { tools, toolbox, steps } = setup();
    const outcome = await tools.call('search_passages', args, 1);
    expect(outcome).toEqual({ ok: false, error: expect.stringMatching(message) });
    expect(toolbox.searches).toHaveLength(0);
    expect(steps[0].error).toMatch(message);
  });

  it('refuses a file the toolbox does not offer, before asking it', async () => {
    const { tools, toolbox } = setup({ files: [{ fileId: 'f-1', name: 'lease.pdf' }] });
    const search = await tools.call('search_passages', { query: 'rent', fileIds: ['f-1', 'f-2'] }, 1);
    expect(search).toEqual({ ok: false, error: expect.stringContaining('"f-2" is not one of the files this agent may read') });
    expect(toolbox.searches).toHaveLength(0);
    const read = await tools.call('read_node', { fileId: 'someone-elses', nodeId: 'n-1' }, 1);
    expect(read).toEqual({ ok: false, error: expect.stringContaining('read_node refused: "someone-elses"') });
  });

  it('bounds read_node to five passages each side and names an unknown tool', async () => {
    const { tools } = setup();
    expect(await tools.call('read_node', { fileId: 'f-1', nodeId: 'n-1', after: 6 }, 1)).toEqual({
      ok: false,
      error: expect.stringContaining('/after must be <= 5'),
    });
    expect(await tools.call('delete_files', {}, 1)).toEqual({
      ok: false,
      error: expect.stringContaining('There is no tool "delete_files"'),
    });
  });

  it('records every call in the trace: arguments as asked, result with long texts cut, or the error', async () => {
    const long = aPassage(`Rent review. ${'The rent is indexed yearly. '.repeat(40)}`, { fileId: 'f-1' });
    const toolbox = fakeToolbox([long], { searchError: undefined });
    const { steps, trace } = recordingTrace();
    const tools = new AgentTools(toolbox, trace);
    await tools.call('search_passages', { query: 'rent' }, 3);
    expect(steps).toHaveLength(1);
    const [step] = steps;
    expect(step).toMatchObject({ iteration: 3, tool: 'search_passages', arguments: { query: 'rent' } });
    expect(step.error).toBeUndefined();
    expect(Number.isNaN(Date.parse(step.startedAt))).toBe(false);
    expect(step.durationMs).toBeGreaterThanOrEqual(0);
    const traced = (step.result as { passages: ToolPassage[] }).passages[0].text;
    expect(traced.length).toBeLessThan(long.text.length);
    expect(traced.endsWith('…')).toBe(true);

    const failing = new AgentTools(fakeToolbox([], { searchError: new Error('retrieval is unavailable') }), trace);
    expect(await failing.call('search_passages', { query: 'rent' }, 4)).toEqual({ ok: false, error: 'retrieval is unavailable' });
    expect(steps[1]).toMatchObject({ iteration: 4, error: 'retrieval is unavailable' });
    expect(steps[1].result).toBeUndefined();
  });

  it('lists the files with their ontologies', async () => {
    const { tools } = setup({
      ontologies: {
        'f-1': [
          { conceptId: { id: 'c1', entityType: 'CONCEPT' }, name: 'Lease', metas: { party: { metaName: 'party', metaValue: 'ACME' } } },
        ],
      },
    } as never);
    const outcome = await tools.call('list_files', {}, 1);
    expect(outcome).toEqual({
      ok: true,
      result: {
        files: [
          { fileId: 'f-1', name: 'lease.pdf', ontologies: [{ name: 'Lease', metas: { party: '"ACME"' } }] },
          { fileId: 'f-2', name: 'garage.pdf', ontologies: [] },
        ],
      },
    });
  });

  it('asks questions with typed answers and turns the cited statements into handles, then evidence', async () => {
    const statement = aStatement('EUR 1,250', { documentId: 'f-1', documentName: 'lease.pdf', nodeId: 'n-2' });
    const asked: unknown[] = [];
    const { tools } = setup({
      askQuestions: (questions, fileIds) => {
        asked.push({ questions, fileIds });
        return [
          {
            question: questions[0].question,
            found: true,
            rawValue: 'EUR 1,250',
            explanation: 'Read from lease.pdf',
            statements: [statement],
          },
        ];
      },
    });
    const outcome = await tools.call(
      'ask_questions',
      { questions: [{ question: 'What is the rent?', dataType: 'FLOAT' }], fileIds: ['f-1'] },
      1,
    );
    expect(asked).toEqual([
      { questions: [{ question: 'What is the rent?', answerType: { dataType: 'FLOAT', multiValued: false } }], fileIds: ['f-1'] },
    ]);
    const answers = (outcome as { result: { answers: ToolJobAnswer[] } }).result.answers;
    expect(answers).toEqual([
      { question: 'What is the rent?', found: true, answer: 'EUR 1,250', explanation: 'Read from lease.pdf', sources: ['S1'] },
    ]);
    expect(tools.ledger.evidence(['S1'])).toEqual([{ kind: 'statement', statement }]);

    const bad = await tools.call('ask_questions', { questions: [{ question: 'Rent?', dataType: 'MONEY' }] }, 2);
    expect(bad).toEqual({
      ok: false,
      error: expect.stringContaining('/questions/0/dataType must be one of "STRING", "INT", "FLOAT", "BOOL", "DATE"'),
    });
  });

  it('extracts metadata per file with the answer types asked', async () => {
    const { tools } = setup({
      extractMetadata: (metas) =>
        metas.map((m) => ({ question: m.meta, fileId: 'f-1', found: false, rawValue: '', explanation: 'Not stated', statements: [] })),
    });
    const outcome = await tools.call('extract_metadata', { metas: [{ meta: 'landlord', description: 'Who lets the flat' }] }, 1);
    expect(outcome).toEqual({
      ok: true,
      result: { answers: [{ question: 'landlord', fileId: 'f-1', found: false, answer: '', explanation: 'Not stated', sources: [] }] },
    });
  });
});

describe('SourceLedger', () => {
  it('turns cited handles into evidence, narrowing a passage to the quoted answer, skipping unknown handles', () => {
    const ledger = new SourceLedger();
    expect(ledger.addPassage(LEASE)).toBe('S1');
    expect(ledger.addPassage(RENT)).toBe('S2');
    expect(ledger.addPassage(LEASE)).toBe('S1');
    const evidence = ledger.evidence(['[S1]', 's2', 'S7', 'S1'], ['31 march 2027']);
    expect(evidence).toEqual([
      { kind: 'passage', passage: LEASE, start: 18, end: 31 },
      { kind: 'passage', passage: RENT, start: 0, end: RENT.text.length },
    ]);
    expect(LEASE.text.slice(18, 31)).toBe('31 March 2027');
  });

  it('reads "[S3]" markers from a text', () => {
    expect(SourceLedger.handlesIn('It ends in 2027 [S1]. Rent is EUR 1,250 [s2, S4] (see [S1]).')).toEqual(['S1', 'S2', 'S4']);
  });
});
