import { BuiltinReader } from '../builtin';
import { BuiltinAgent, NO_ANSWER } from './builtin-agent';
import { aPassage, fakeToolbox, recordingTrace } from './testing/fake-toolbox';
import { AgentRunFailed, type AgentRunRequest, type AgentTurn } from './types';

const GLOBEX_REVENUE = aPassage('Globex Inc reported revenue of 40 million dollars in 2023.', {
  fileId: 'f-globex',
  fileName: 'globex.pdf',
});
const ACME_FOUNDED = aPassage('Acme Corporation was founded in 1987 by Jane Doe in Springfield.', {
  fileId: 'f-acme',
  fileName: 'acme.pdf',
  headings: ['History'],
});
const ACME_REVENUE = aPassage('Acme Corporation reported revenue of 12.5 million dollars in 2023.', {
  fileId: 'f-acme',
  fileName: 'acme.pdf',
  headings: ['Financials'],
});
const COMPANIES = [GLOBEX_REVENUE, ACME_FOUNDED, ACME_REVENUE];

const INVOICE = [
  aPassage('Invoice number INV-2024-017 was issued by Northwind Traders.', { fileId: 'f-inv', fileName: 'invoice.pdf' }),
  aPassage('The total amount due is EUR 1250.50.', { fileId: 'f-inv', fileName: 'invoice.pdf' }),
  aPassage('The payment method is bank transfer to the account below.', { fileId: 'f-inv', fileName: 'invoice.pdf' }),
  aPassage('The invoice has been paid in full.', { fileId: 'f-inv', fileName: 'invoice.pdf' }),
  aPassage('The services delivered were consulting, hosting and support.', { fileId: 'f-inv', fileName: 'invoice.pdf' }),
];

const request = (messages: AgentTurn[] | string, overrides: Partial<AgentRunRequest> = {}): AgentRunRequest => ({
  messages: typeof messages === 'string' ? [{ role: 'user', content: messages }] : messages,
  maxIterations: 10,
  completion: { model: 'FAST' },
  ...overrides,
});

describe('BuiltinAgent', () => {
  const agent = new BuiltinAgent(new BuiltinReader());

  it('answers from the documents with a citation span that holds the answer, and says no language model was used', async () => {
    const toolbox = fakeToolbox(COMPANIES);
    const { steps, trace } = recordingTrace();
    const result = await agent.run(request('When was Acme Corporation founded?'), toolbox, trace);
    expect(result.answer).toBe('1987');
    expect(result.evidence).toHaveLength(1);
    const [evidence] = result.evidence;
    expect(evidence.kind).toBe('passage');
    if (evidence.kind !== 'passage') return;
    expect(evidence.passage.id).toBe(ACME_FOUNDED.id);
    expect(evidence.passage.text.slice(evidence.start, evidence.end)).toContain('1987');
    expect(result.explanation).toMatch(/without a language model/);
    expect(result.explanation).toContain('acme.pdf');
    expect(result.iterations).toBe(1);
    expect(steps).toMatchObject([{ iteration: 1, tool: 'search_passages', arguments: { query: 'When was Acme Corporation founded?' } }]);
  });

  it('says plainly when the documents do not answer, with no evidence', async () => {
    const result = await agent.run(request('Who audits the pension fund?'), fakeToolbox(COMPANIES), recordingTrace().trace);
    expect(result.answer).toBe(NO_ANSWER);
    expect(result.evidence).toEqual([]);
    expect(result.explanation).toMatch(/without a language model.*no answer was found/);
  });

  it('reads a follow-up with the previous user turn, so that "its" still finds the company', async () => {
    const toolbox = fakeToolbox(COMPANIES);
    const conversation: AgentTurn[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'When was Acme Corporation founded?' },
      { role: 'assistant', content: '1987' },
      { role: 'user', content: 'And what was its revenue?' },
    ];
    const result = await agent.run(request(conversation), toolbox, recordingTrace().trace);
    expect(toolbox.searches[0].query).toBe('When was Acme Corporation founded? And what was its revenue?');
    expect(result.answer).toContain('12.5 million');
    expect(result.evidence.map((e) => e.kind === 'passage' && e.passage.id)).toEqual([ACME_REVENUE.id]);

    // Without the earlier turn the same question finds Globex first.
    const alone = await agent.run(request('And what was its revenue?'), fakeToolbox(COMPANIES), recordingTrace().trace);
    expect(alone.answer).toContain('40 million');
  });

  describe('a paper', () => {
    const paper = { fileId: 'f-paper', fileName: 'paper.pdf' };
    const TITLE = aPassage('Preemptive Information Extraction using Unrestricted Relation Discovery', { ...paper, nodeType: 'heading' });
    const AUTHOR_1 = aPassage('Yusuke Shinyama', paper);
    const AUTHOR_2 = aPassage('Satoshi Sekine', paper);
    const ABSTRACT = aPassage(
      'We propose a technique called Unrestricted Relation Discovery that discovers all possible relations from texts and presents them as tables.',
      { ...paper, headings: ['Abstract'] },
    );
    const CONCLUSION = aPassage(
      'In this paper we proposed Preemptive Information Extraction, and the discovered tables were reasonably good.',
      {
        ...paper,
        headings: ['6 Conclusion'],
      },
    );
    const THANKS = aPassage(
      'This research was supported by the National Science Foundation under Grant IIS-00325657. We would like to thank Prof. Ralph Grishman.',
      { ...paper, headings: ['6 Conclusion'] },
    );
    const PAPER = [TITLE, AUTHOR_1, AUTHOR_2, ABSTRACT, CONCLUSION, THANKS];
    const ontologies = {
      'f-paper': [
        {
          conceptId: { id: 'c-doc', entityType: 'CONCEPT_NOTE' as const },
          name: 'Document metadata',
          metas: {
            title: { metaName: 'title', metaValue: TITLE.text, explanation: 'the first heading' },
            authors: {
              metaName: 'authors',
              metaValue: ['Yusuke Shinyama', 'Satoshi Sekine', 'Ralph Grishmann'],
              explanation: 'the lines under the title',
            },
          },
        },
      ],
    };

    it('answers the authors from the document metadata, as a list, each cited at its own line', async () => {
      const { steps, trace } = recordingTrace();
      const result = await agent.run(request('Who are the authors?'), fakeToolbox(PAPER, { ontologies }), trace);
      // The third name is not written in the document: not answered.
      expect(result.answer).toBe('Yusuke Shinyama; Satoshi Sekine');
      expect(result.evidence.map((e) => e.kind === 'passage' && [e.passage.id, e.passage.text.slice(e.start, e.end)])).toEqual([
        [AUTHOR_1.id, 'Yusuke Shinyama'],
        [AUTHOR_2.id, 'Satoshi Sekine'],
      ]);
      expect(result.explanation).toMatch(/document metadata of paper\.pdf/);
      expect(steps[0].tool).toBe('list_files');
    });

    it('answers "What is the title of this paper?" at the title heading', async () => {
      const result = await agent.run(
        request('What is the title of this paper?'),
        fakeToolbox(PAPER, { ontologies }),
        recordingTrace().trace,
      );
      expect(result.answer).toBe(TITLE.text);
      expect(result.evidence.map((e) => e.kind === 'passage' && e.passage.id)).toEqual([TITLE.id]);
    });

    it('reads the documents when the metadata has no value they show', async () => {
      const result = await agent.run(request('Who are the authors?'), fakeToolbox(PAPER), recordingTrace().trace);
      expect(result.explanation).not.toMatch(/metadata/);
    });

    it('answers the follow-up "And who funded it?" from the acknowledgements', async () => {
      const toolbox = fakeToolbox(PAPER, { ontologies });
      const conversation: AgentTurn[] = [
        { role: 'user', content: 'What is this paper about?' },
        { role: 'assistant', content: 'Unrestricted Relation Discovery.' },
        { role: 'user', content: 'And who funded it?' },
      ];
      const result = await agent.run(request(conversation), toolbox, recordingTrace().trace);
      expect(result.answer).toMatch(/National Science Foundation/);
      expect(result.evidence.map((e) => e.kind === 'passage' && e.passage.id)).toEqual([THANKS.id]);
      // The earlier question and the acknowledgements' words were searched with it.
      expect(toolbox.searches[0].query).toMatch(/^What is this paper about\? And who funded it\? acknowledgements .*grant/);
    });
  });

  it('says the search failed when the toolbox could not search', async () => {
    const toolbox = fakeToolbox(COMPANIES, { searchError: new Error('retrieval is unavailable') });
    const { steps, trace } = recordingTrace();
    const result = await agent.run(request('When was Acme Corporation founded?'), toolbox, trace);
    expect(result.answer).toBe(NO_ANSWER);
    expect(result.explanation).toContain('The search failed: retrieval is unavailable');
    expect(steps[0].error).toBe('retrieval is unavailable');
  });

  it('refuses a conversation without a user message', async () => {
    await expect(agent.run(request([{ role: 'system', content: 'Hi' }]), fakeToolbox(COMPANIES), recordingTrace().trace)).rejects.toThrow(
      AgentRunFailed,
    );
  });

  describe('with an output schema', () => {
    const schema = {
      type: 'object',
      properties: {
        invoice_number: { type: 'string' },
        total: { type: 'number', description: 'The total amount due' },
        paymentMethod: { type: 'string', enum: ['CASH', 'CARD', 'BANK TRANSFER'] },
        paid: { type: 'boolean', description: 'Has the invoice been paid?' },
        services: {
          type: 'array',
          items: { type: 'string', enum: ['consulting', 'hosting', 'support', 'training'] },
          description: 'Which services were delivered?',
        },
      },
      required: ['invoice_number', 'total'],
      additionalProperties: false,
    };

    it('fills it field by field with typed questions, one search each, every value cited', async () => {
      const toolbox = fakeToolbox(INVOICE);
      const { steps, trace } = recordingTrace();
      const result = await agent.run(request('Extract the invoice details.', { outputSchema: schema }), toolbox, trace);
      expect(result.answer).toEqual({
        invoice_number: 'INV-2024-017',
        total: 1250.5,
        paymentMethod: 'BANK TRANSFER',
        paid: true,
        services: ['consulting', 'hosting', 'support'],
      });
      expect(toolbox.searches.map((s) => s.query)).toEqual([
        'What is the invoice number? Extract the invoice details.',
        'What is the total amount due? Extract the invoice details.',
        'What is the payment method? Extract the invoice details.',
        'Has the invoice been paid? Extract the invoice details.',
        'Which services were delivered? Extract the invoice details.',
      ]);
      expect(steps.map((s) => s.iteration)).toEqual([1, 2, 3, 4, 5]);
      expect(result.iterations).toBe(5);
      const quoted = result.evidence.map((e) => (e.kind === 'passage' ? e.passage.text.slice(e.start, e.end) : ''));
      expect(quoted).toEqual(expect.arrayContaining([expect.stringContaining('INV-2024-017'), expect.stringContaining('1250.50')]));
      expect(result.explanation).toMatch(/without a language model.*5 of 5 fields were read from invoice\.pdf/);
    });

    it('fills nested objects and date fields, and leaves out optional fields the documents do not give', async () => {
      const toolbox = fakeToolbox([
        ...INVOICE,
        aPassage('The invoice date is 12 March 2024.', { fileId: 'f-inv', fileName: 'invoice.pdf' }),
      ]);
      const nested = {
        type: 'object',
        properties: {
          invoice: { $ref: '#/$defs/invoice' },
          purchase_order: { type: 'string', description: 'The purchase order reference' },
        },
        $defs: {
          invoice: {
            type: 'object',
            properties: { date: { type: 'string', format: 'date', description: 'The invoice date' } },
            required: ['date'],
          },
        },
      };
      const result = await agent.run(request('Extract the invoice details.', { outputSchema: nested }), toolbox, recordingTrace().trace);
      expect(result.answer).toEqual({ invoice: { date: '2024-03-12' } });
      expect(result.explanation).toContain('Not found in the documents: purchase_order');
    });

    it('fails, naming the field, when a required field cannot be read even after the repair', async () => {
      const strict = {
        ...schema,
        properties: { ...schema.properties, vat_id: { type: 'string' } },
        required: ['invoice_number', 'vat_id'],
      };
      const run = agent.run(
        request('Extract the invoice details.', { outputSchema: strict }),
        fakeToolbox(INVOICE),
        recordingTrace().trace,
      );
      await expect(run).rejects.toThrow(AgentRunFailed);
      await expect(run).rejects.toMatchObject({ details: ['/vat_id is required'] });
    });

    it('repairs once: drops an optional field the schema refuses instead of failing', async () => {
      const bounded = {
        ...schema,
        properties: { ...schema.properties, total: { type: 'number', maximum: 1000, description: 'The total amount due' } },
        required: ['invoice_number'],
      };
      const result = await agent.run(
        request('Extract the invoice details.', { outputSchema: bounded }),
        fakeToolbox(INVOICE),
        recordingTrace().trace,
      );
      expect(result.answer).toMatchObject({ invoice_number: 'INV-2024-017' });
      expect(result.answer).not.toHaveProperty('total');
    });

    it('respects maxIterations: no more searches than allowed, the other fields read from what was found', async () => {
      const toolbox = fakeToolbox(INVOICE);
      const { steps, trace } = recordingTrace();
      const result = await agent.run(request('Extract the invoice details.', { outputSchema: schema, maxIterations: 2 }), toolbox, trace);
      expect(toolbox.searches).toHaveLength(2);
      expect(steps).toHaveLength(2);
      expect(result.iterations).toBe(2);
      expect(result.answer).toMatchObject({ invoice_number: 'INV-2024-017', total: 1250.5 });
      expect(result.explanation).toContain('max_iterations allowed 2 searches for 5 fields');
    });

    describe('a wide schema', () => {
      const wide = {
        type: 'object',
        properties: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`amount_${i}`, { type: 'string' }])),
      };
      const manyPassages = Array.from({ length: 200 }, (_, i) =>
        aPassage(`Amount ${i} of the invoice is ${i * 7} euros, paid by transfer to account ${i}.`, {
          fileId: 'f-inv',
          fileName: 'invoice.pdf',
        }),
      );
      const countingReader = () => {
        const inner = new BuiltinReader();
        const reader = {
          name: 'counting',
          reads: 0,
          answer: (...args: Parameters<BuiltinReader['answer']>) => (reader.reads++, inner.answer(...args)),
        };
        return reader;
      };

      it('lets the process answer other work between fields: a timer keeps ticking through the run', async () => {
        let ticks = 0;
        let last = Date.now();
        let longestGap = 0;
        const timer = setInterval(() => {
          ticks++;
          longestGap = Math.max(longestGap, Date.now() - last);
          last = Date.now();
        }, 1);
        try {
          await agent.run(
            request('Extract the amounts.', { outputSchema: wide, maxIterations: 5 }),
            fakeToolbox(manyPassages),
            recordingTrace().trace,
          );
        } finally {
          clearInterval(timer);
        }
        // Coarse on purpose: a planner that never yields lets the timer tick zero times.
        expect(ticks).toBeGreaterThanOrEqual(10);
        expect(longestGap).toBeLessThan(1000);
      });

      it('stops at its budget: the abort ends the run with the budget named, and no further field is read', async () => {
        const reader = countingReader();
        const ac = new AbortController();
        setTimeout(() => ac.abort(new Error('it took longer than 1000 ms (AGENT_RUN_TIMEOUT_MS)')), 0);
        const run = new BuiltinAgent(reader).run(
          request('Extract the amounts.', { outputSchema: wide, maxIterations: 5 }),
          fakeToolbox(manyPassages),
          recordingTrace().trace,
          ac.signal,
        );
        await expect(run).rejects.toThrow('it took longer than 1000 ms (AGENT_RUN_TIMEOUT_MS)');
        expect(reader.reads).toBeLessThan(40);
      });

      it('refuses a schema whose $refs expand past the limit, naming it', async () => {
        const recursive = {
          type: 'object',
          properties: { root: { $ref: '#/$defs/node' } },
          $defs: {
            node: { type: 'object', properties: Object.fromEntries('abcdefghij'.split('').map((k) => [k, { $ref: '#/$defs/node' }])) },
          },
        };
        await expect(agent.run(request('x', { outputSchema: recursive }), fakeToolbox(INVOICE), recordingTrace().trace)).rejects.toThrow(
          /The output schema expands to more than 2000 fields .*; at most 200 are accepted/,
        );
      });
    });

    it('refuses a schema it cannot fill, and one that is not a JSON Schema', async () => {
      const toolbox = fakeToolbox(INVOICE);
      await expect(agent.run(request('x', { outputSchema: { type: 'string' } }), toolbox, recordingTrace().trace)).rejects.toThrow(
        /no field it can read/,
      );
      await expect(
        agent.run(
          request('x', { outputSchema: { type: 'object', properties: { a: { type: 'strin' } } } }),
          toolbox,
          recordingTrace().trace,
        ),
      ).rejects.toThrow(/not a valid JSON Schema/);
    });
  });
});
