import { matchRoute, paths } from '../../router/routes';

const read = (url: string) => {
  const u = new URL(url, 'http://console');
  return matchRoute(u.pathname, u.search);
};

describe('collection and job routes', () => {
  const id = '3f1c5a52-2f7c-4b5e-8d4e-1a2b3c4d5e6f';

  it('reads back the collection paths it writes', () => {
    expect(read(paths.collections())).toEqual({ name: 'collections', page: 0 });
    expect(read(paths.collections(2))).toEqual({ name: 'collections', page: 2 });
    expect(read(paths.collection(id))).toEqual({ name: 'collection', collectionId: id, page: 0 });
    expect(read(paths.collection(id, 1))).toEqual({ name: 'collection', collectionId: id, page: 1 });
    expect(read('/collections?page=-1')).toEqual({ name: 'collections', page: 0 });
  });

  it('reads back the job paths it writes, one per kind', () => {
    expect(read('/jobs')).toEqual({ name: 'jobs', kind: 'qa', jobId: null });
    expect(read(paths.jobs())).toEqual({ name: 'jobs', kind: 'qa', jobId: null });
    expect(read(paths.jobs('table', id))).toEqual({ name: 'jobs', kind: 'table', jobId: id });
    expect(read(paths.jobs('agent'))).toEqual({ name: 'jobs', kind: 'agent', jobId: null });
    expect(read('/jobs/unknown')).toEqual({ name: 'notFound', path: '/jobs/unknown' });
  });
});
