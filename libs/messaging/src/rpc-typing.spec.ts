import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import * as ts from 'typescript';
import {
  CollectionRefRequest,
  FileRefRequest,
  FilesCreate,
  FilesGet,
  ItemsTransferTarget,
  RulesList,
  rpc,
  Subjects,
  type CollectionDto,
  type IndexedFileDto,
  type RpcContext,
  type RpcReplyOf,
  type RpcRequestOf,
} from '@docintel/contracts';
import type { RpcClient } from './rpc-client';
import { RPC_HANDLER, RpcHandler, type RpcHandlerMetadata } from './rpc-handler.decorator';

// The compiler is the test: `typeChecks` below compiles this file. Each line after a
// `@ts-expect-error` must fail to compile, and everything else must compile. These functions are
// never called.

const ctx: RpcContext = { requestId: 'r' };
declare const file: IndexedFileDto;
declare const collection: CollectionDto;

export async function callerUses(client: RpcClient): Promise<void> {
  // Right: payload and reply types come from the definition.
  const got: IndexedFileDto = await client.call(FilesGet, { fileId: 'f' }, ctx);
  const target = await client.call(ItemsTransferTarget, { providerId: 'p', key: 'k', op: 'get' }, ctx);
  const grant: string = target.grant;
  const rules = await client.call(RulesList, {}, ctx);
  const same: RpcReplyOf<typeof FilesGet> = got;
  const payload: RpcRequestOf<typeof FilesGet> = { fileId: 'f' };
  void [grant, rules.namespace, same, payload];

  // @ts-expect-error a payload of another call
  await client.call(FilesGet, { collectionId: 'c' }, ctx);
  // @ts-expect-error a payload missing a required field (key)
  await client.call(FilesCreate, { providerId: 'p', owner: { email: 'a@b.c' } }, ctx);
  // @ts-expect-error a field of the wrong type
  await client.call(ItemsTransferTarget, { providerId: 'p', key: 'k', op: 'delete' }, ctx);
  // @ts-expect-error a payload for a call that takes none
  await client.call(RulesList, { trigger_id: 'x' }, ctx);
  // @ts-expect-error reading the reply as another type
  const wrong: CollectionDto = await client.call(FilesGet, { fileId: 'f' }, ctx);
  // @ts-expect-error a field the reply does not have
  void (await client.call(ItemsTransferTarget, { providerId: 'p', key: 'k', op: 'get' }, ctx)).url;
  // @ts-expect-error RpcReplyOf names the reply type
  const other: RpcReplyOf<typeof FilesGet> = collection;
  // @ts-expect-error a bare subject instead of a definition
  await client.call(Subjects.indexing.filesGet, { fileId: 'f' }, ctx);
  // @ts-expect-error the untyped entry point is gone
  await client.request(Subjects.indexing.filesGet, { fileId: 'f' }, ctx);
  void [wrong, other];
}

@Injectable()
export class HandlerUses {
  @RpcHandler(FilesGet)
  get(req: FileRefRequest, _ctx: RpcContext): Promise<IndexedFileDto> {
    return Promise.resolve(req.fileId === file.id.id ? file : file);
  }

  @RpcHandler(FilesGet)
  getSync(): IndexedFileDto {
    return file;
  }

  // @ts-expect-error answers another call's reply
  @RpcHandler(FilesGet)
  answersCollection(_req: FileRefRequest): CollectionDto {
    return collection;
  }

  // @ts-expect-error expects another call's payload
  @RpcHandler(FilesGet)
  takesCollectionRef(_req: CollectionRefRequest): IndexedFileDto {
    return file;
  }

  // @ts-expect-error a bare subject instead of a definition
  @RpcHandler(Subjects.indexing.filesGet)
  bySubject(): IndexedFileDto {
    return file;
  }
}

const MARKER = '// @ts-expect-error';

function compilerOptions(): ts.CompilerOptions {
  const root = join(__dirname, '../../..');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.lint.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!parsed) throw new Error('cannot read tsconfig.lint.json');
  return { ...parsed.options, noEmit: true };
}

/** The type errors of this file, compiled with `text` as its source; as 1-based line numbers with messages. */
function typeErrors(text: string, options: ts.CompilerOptions, old?: ts.Program): { program: ts.Program; errors: Map<number, string> } {
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, onError) =>
    name === __filename ? ts.createSourceFile(name, text, version, true) : read(name, version, onError);
  const program = ts.createProgram({ rootNames: [__filename], options, host, oldProgram: old });
  const source = program.getSourceFile(__filename) as ts.SourceFile;
  const errors = new Map<number, string>();
  for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
    const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line + 1;
    errors.set(line, ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }
  return { program, errors };
}

describe('RPC typing', () => {
  it('compiles correct uses, and each misuse marked @ts-expect-error fails to compile on its own line', () => {
    const options = compilerOptions();
    const text = readFileSync(__filename, 'utf8');
    const clean = typeErrors(text, options);
    expect([...clean.errors]).toEqual([]);

    // Without the markers, exactly the marked lines fail (a decorator's error is on the line of the decorator).
    const lines = text.split('\n');
    const marked = lines.flatMap((l, i) => (l.trim().startsWith(MARKER) ? [i + 2] : []));
    expect(marked.length).toBeGreaterThanOrEqual(10);
    const unmarked = lines.map((l) => (l.trim().startsWith(MARKER) ? '' : l)).join('\n');
    const { errors } = typeErrors(unmarked, options, clean.program);
    expect([...errors.keys()].sort((a, b) => a - b)).toEqual(marked);
  }, 120_000);

  it('keeps the subject and the request class of the definition for the server', () => {
    class Handlers {
      @RpcHandler(FilesGet)
      get(): IndexedFileDto {
        return file;
      }

      @RpcHandler(rpc<Record<string, never>, null>('test.typing.none'))
      none(): null {
        return null;
      }
    }
    const meta = (name: 'get' | 'none') => Reflect.getMetadata(RPC_HANDLER, Handlers.prototype[name]) as RpcHandlerMetadata;
    expect(meta('get')).toEqual({ subject: 'indexing.files.get', payload: FileRefRequest });
    expect(meta('none')).toEqual({ subject: 'test.typing.none', payload: undefined });
  });
});
