import { createRequestHash } from './job-idempotency';

describe('createRequestHash', () => {
  const body = {
    files: { fileIds: ['f1'] },
    questions: [{ id: 'q', question: 'What is the revenue?' }],
    config: { skip_unindexed_files: true },
  };

  it('is the same for the same body in any key order, with or without the key itself', () => {
    const reordered = {
      config: { skip_unindexed_files: true },
      questions: [{ question: 'What is the revenue?', id: 'q' }],
      files: { fileIds: ['f1'] },
    };
    expect(createRequestHash('qa', { ...reordered, idempotencyKey: 'k1' })).toBe(createRequestHash('qa', body));
    expect(createRequestHash('qa', { ...body, name: undefined })).toBe(createRequestHash('qa', body));
  });

  it('differs for another body, another order of questions, or another kind of job', () => {
    const h = createRequestHash('qa', body);
    expect(createRequestHash('qa', { ...body, questions: [{ id: 'q', question: 'Who signed?' }] })).not.toBe(h);
    expect(createRequestHash('qa', { ...body, questions: [...body.questions, { id: 'r', question: 'x' }].reverse() })).not.toBe(
      createRequestHash('qa', { ...body, questions: [...body.questions, { id: 'r', question: 'x' }] }),
    );
    expect(createRequestHash('extraction', body)).not.toBe(h);
  });
});
