import { Injectable } from '@nestjs/common';
import {
  FilesResolve,
  PassageSearchRequest,
  PassagesAround,
  PassagesAroundRequest,
  PassagesSearch,
  ResolveFilesRequest,
  type PassageSearchReply,
  type PassagesAroundReply,
  type ResolveFilesReply,
  type RpcContext,
} from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { requireNamespace } from '../tenancy';
import { FilesResolveService } from './files-resolve.service';
import { PassageSearchService } from './passage-search.service';
import { PassagesAroundService } from './passages-around.service';

/** What the job orchestrator asks of the indexing service: the files of a job, and passages to read. */
@Injectable()
export class PassagesHandler {
  constructor(
    private readonly resolver: FilesResolveService,
    private readonly search: PassageSearchService,
    private readonly reader: PassagesAroundService,
  ) {}

  @RpcHandler(FilesResolve)
  resolve(req: ResolveFilesRequest, ctx: RpcContext): Promise<ResolveFilesReply> {
    return this.resolver.resolve(requireNamespace(ctx), req);
  }

  @RpcHandler(PassagesSearch)
  passages(req: PassageSearchRequest, ctx: RpcContext): Promise<PassageSearchReply> {
    return this.search.search(requireNamespace(ctx), req);
  }

  @RpcHandler(PassagesAround)
  around(req: PassagesAroundRequest, ctx: RpcContext): Promise<PassagesAroundReply> {
    return this.reader.around(requireNamespace(ctx), req);
  }
}
