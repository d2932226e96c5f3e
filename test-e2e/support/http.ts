/** The JSON body every error response carries, checked for its shape and its request id. */
export interface ErrorBody {
  status: number;
  error: string;
  code: string;
  message: string;
  details: Array<{ field: string; problem: string }>;
  requestId: string;
  errorId?: string;
}

export async function errorBody(res: Response, status: number, code: string): Promise<ErrorBody> {
  const text = await res.text();
  expect({ status: res.status, body: text }).toMatchObject({ status });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(text) as ErrorBody;
  const keys = ['code', 'details', 'error', 'message', 'requestId', 'status', ...(status >= 500 && 'errorId' in body ? ['errorId'] : [])];
  expect(Object.keys(body).sort()).toEqual(keys.sort());
  expect(body).toMatchObject({ status, code, details: expect.any(Array), message: expect.any(String) });
  expect(body.error.length).toBeGreaterThan(0);
  expect(body.requestId).toBe(res.headers.get('x-request-id'));
  return body;
}

/** The body of a response with the status expected, or an error that shows what came instead. */
export async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}
