import { welcomeBanner } from './welcome';

describe('welcomeBanner', () => {
  const token = 'dit_0123456789abcdef0123456789abcdef_secret';

  it('prints the URL, the API docs, the development token and a first request, between blank lines', () => {
    expect(welcomeBanner('http://127.0.0.1:8080', token)).toBe(
      [
        '',
        'docintel is running at http://127.0.0.1:8080',
        'API docs:          http://127.0.0.1:8080/api/docs',
        'Development token (namespace "default", user dev@docintel.local):',
        `  ${token}`,
        `Try: curl -H "Authorization: Bearer ${token}" http://127.0.0.1:8080/api/core/providers`,
        '',
        '',
      ].join('\n'),
    );
  });

  it('does not double the slash of a URL given with a trailing one', () => {
    const text = welcomeBanner('http://localhost:8080/', token);
    expect(text).toContain('docintel is running at http://localhost:8080\n');
    expect(text).toContain('http://localhost:8080/api/docs\n');
    expect(text).not.toContain('//api');
  });
});
