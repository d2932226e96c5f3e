import { FileRefRequest } from './files';
import { HealthPings, RpcCalls, rpcOwner, FilesGet, RulesList } from './rpc-calls';
import { ServiceNames, Subjects } from './subjects';

describe('RPC call definitions', () => {
  const calls = [...Object.values(RpcCalls), ...Object.values(HealthPings)];

  it('define every request/reply subject exactly once', () => {
    const defined = calls.map((c) => c.subject).sort();
    const subjects = Object.values(Subjects)
      .flatMap((group) => Object.values(group))
      .sort();
    expect(defined).toEqual(subjects);
    expect(new Set(defined).size).toBe(defined.length);
  });

  it('name the request class the handler validates into, or none for calls without a payload', () => {
    expect(FilesGet).toEqual({ subject: 'indexing.files.get', request: FileRefRequest });
    expect(RulesList.request).toBeUndefined();
    expect(Object.isFrozen(FilesGet)).toBe(true);
  });

  it('are owned by the service their subject starts with', () => {
    expect(rpcOwner(FilesGet)).toBe(ServiceNames.indexing);
    expect(rpcOwner(HealthPings.gateway)).toBe(ServiceNames.gateway);
    expect(rpcOwner(RpcCalls.ItemsTransferTarget)).toBe(ServiceNames.storage);
    expect(() => rpcOwner({ subject: 'nobody.things.do' })).toThrow('does not start with a service');
  });
});
