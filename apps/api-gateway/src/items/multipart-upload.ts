import type {} from '@fastify/multipart';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  DomainError,
  ErrorCode,
  ItemsTransferTarget,
  keyProblems,
  mediaTypeProblems,
  normalizeDirectoryKey,
  type ErrorDetail,
  type ProviderItemDto,
  type RpcContext,
} from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { SERVICE_ENV } from '@docintel/runtime';
import type { GatewayEnv } from '../gateway.env';
import { watchFileNameLineBreak } from './file-name-line-break';
import { guardSize } from './size-guard';
import { StorageTransferClient } from './storage-transfer.client';

function invalid(details: ErrorDetail[]): DomainError {
  return DomainError.invalid(details, `${details[0].field} ${details[0].problem}`);
}

/** Errors the multipart parser raises before a file part arrives. */
function parserError(err: { code?: string; statusCode?: number; message: string }): DomainError {
  if (err.statusCode === 413) return new DomainError(ErrorCode.PAYLOAD_TOO_LARGE, `The multipart body exceeds a limit: ${err.message}`);
  return invalid([{ field: 'file', problem: `is not readable as multipart/form-data (${err.message})` }]);
}

/**
 * A multipart upload, relayed as it arrives: the file part streams from the client through the
 * gateway to the storage service's transfer endpoint under a grant storage issued for the target
 * key. Memory stays flat whatever the file size; a broken-off or oversized upload aborts the relay
 * so that storage keeps nothing.
 */
@Injectable()
export class MultipartUpload {
  constructor(
    private readonly rpc: RpcClient,
    private readonly transfer: StorageTransferClient,
    @Inject(SERVICE_ENV) private readonly env: GatewayEnv,
  ) {}

  async upload(req: FastifyRequest, reply: FastifyReply, providerId: string, target: string, ctx: RpcContext): Promise<ProviderItemDto> {
    // Clients of the reference API name the root `/`.
    const directory = normalizeDirectoryKey(target);
    const dirProblems = keyProblems(directory, 'directory', 'key');
    if (dirProblems.length) throw invalid(dirProblems);
    const maxBytes = this.env.MAX_UPLOAD_BYTES;

    // In the tick of the parser's pipe (req.file() pipes before its first await): no byte is missed.
    const fileNameWatch = watchFileNameLineBreak(req.raw, req.headers['content-type']);
    const part = await req.file({ limits: { fileSize: maxBytes, files: 1 } }).catch((err) => {
      fileNameWatch.stop();
      throw parserError(err as Error);
    });
    fileNameWatch.stop();
    if (!part) {
      throw invalid([
        {
          field: 'file',
          problem: 'is required: send the file as a multipart part named "file" (a part whose name or file name holds CR or LF is ignored)',
        },
      ]);
    }
    // At once, before any await: a body that ends early or a client that goes away while storage is
    // asked for a grant must fail the upload (400) and never reach storage as a complete file.
    const body = guardSize(part.file, maxBytes);
    try {
      if (part.fieldname !== 'file')
        throw invalid([{ field: 'file', problem: `is required: the file part is named "${part.fieldname}", not "file"` }]);
      if (fileNameWatch.lineBreakInFileName) {
        // The parser kept only the name's first line: refuse rather than store a truncated name.
        throw invalid([{ field: 'file', problem: 'name must not contain a line break (CR or LF)' }]);
      }
      const name = part.filename;
      if (!name) throw invalid([{ field: 'file', problem: 'needs a file name (filename in its Content-Disposition)' }]);
      if (name.includes('/')) throw invalid([{ field: 'file', problem: "name must be a file name, not a path: it must not contain '/'" }]);
      const nameProblems = keyProblems(name, 'file', 'file');
      if (nameProblems.length) throw invalid(nameProblems.map((d) => ({ ...d, problem: `name ${d.problem}` })));
      const key = `${directory}${name}`;
      const keyIssues = keyProblems(key, 'file', 'key');
      if (keyIssues.length) throw invalid(keyIssues);

      const contentType = part.mimetype || 'application/octet-stream';
      const typeProblems = mediaTypeProblems(contentType, 'file');
      if (typeProblems.length) throw invalid(typeProblems.map((d) => ({ ...d, problem: `content type ${d.problem}` })));
      const grant = await this.rpc.call(ItemsTransferTarget, { providerId, key, op: 'put', contentType, maxBytes }, ctx);
      const { item } = await this.transfer.put<ProviderItemDto>(grant.grant, body, {
        'content-type': contentType,
        'x-request-id': ctx.requestId,
      });
      return item;
    } catch (err) {
      part.file.unpipe(body);
      body.destroy();
      if (!part.file.readableEnded && !part.file.destroyed) {
        // Let the parser discard the rest; an oversized body is cut short instead of read to its end.
        if (err instanceof DomainError && err.code === ErrorCode.PAYLOAD_TOO_LARGE) void reply.header('connection', 'close');
        part.file.resume();
      }
      throw err;
    }
  }
}
