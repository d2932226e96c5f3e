import { matchRoute, paths, safeNext } from './routes';

describe('console routes', () => {
  it('reads back every path it writes', () => {
    const id = '3f1c5a52-2f7c-4b5e-8d4e-1a2b3c4d5e6f';
    const read = (url: string) => {
      const u = new URL(url, 'http://console');
      return matchRoute(u.pathname, u.search);
    };
    expect(read(paths.home())).toEqual({ name: 'home' });
    expect(read(paths.signIn('/files/x'))).toEqual({ name: 'signIn', next: '/files/x' });
    expect(read(paths.providers())).toEqual({ name: 'providers' });
    expect(read(paths.items(id))).toEqual({ name: 'items', providerId: id, dir: '' });
    expect(read(paths.items(id, 'a b/ü & c/'))).toEqual({ name: 'items', providerId: id, dir: 'a b/ü & c/' });
    expect(read(paths.files(id))).toEqual({ name: 'files', providerId: id, page: 0 });
    expect(read(paths.files(id, 3))).toEqual({ name: 'files', providerId: id, page: 3 });
    expect(read(paths.file(id))).toEqual({ name: 'file', fileId: id });
    expect(read(paths.ask())).toEqual({ name: 'ask', question: null, jobId: null });
    expect(read(paths.ask('Who & why? 50%', id))).toEqual({ name: 'ask', question: 'Who & why? 50%', jobId: id });
    expect(read('/ask?q=%20%20')).toEqual({ name: 'ask', question: null, jobId: null });
    expect(read('/nowhere/at/all')).toEqual({ name: 'notFound', path: '/nowhere/at/all' });
  });

  it('takes only local paths as the place to go after sign-in', () => {
    expect(safeNext('/files/abc')).toBe('/files/abc');
    expect(safeNext('//evil.example')).toBe('/providers');
    expect(safeNext('https://evil.example')).toBe('/providers');
    expect(safeNext('/sign-in')).toBe('/providers');
    expect(safeNext(null)).toBe('/providers');
  });
});
