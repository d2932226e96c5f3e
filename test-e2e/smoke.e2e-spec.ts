import { TestStack } from '@docintel/testing';

describe('a started stack', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'smoke' });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('lists the default LOCAL provider for a token from the CLI', async () => {
    const token = await stack.token('default', 'dev@example.com');
    const res = await stack.request('/api/core/providers', { token });
    expect(res.status).toBe(200);
    const page = await res.json();
    expect(page).toMatchObject({ totalElements: 1, totalPages: 1, hasNext: false });
    expect(page.data[0]).toMatchObject({ name: 'Local storage', type: 'LOCAL', config: { type: 'LOCAL' } });
  });

  it('answers 401 with a JSON error body without a token', async () => {
    const res = await stack.request('/api/core/providers');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ status: 401, error: 'Unauthorized', code: 'UNAUTHENTICATED' });
  });
});
