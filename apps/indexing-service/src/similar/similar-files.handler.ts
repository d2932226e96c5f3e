import { Injectable } from '@nestjs/common';
import {
  SimilarFilesBySource,
  SimilarFilesBySourceRequest,
  SimilarFilesByWork,
  SimilarFilesByWorkRequest,
  type RpcContext,
  type SimilarFilesReply,
} from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { requireNamespace } from '../tenancy';
import { SimilarFilesService } from './similar-files.service';

/** What the job orchestrator's find-similar units ask of the indexing service. */
@Injectable()
export class SimilarFilesHandler {
  constructor(private readonly similar: SimilarFilesService) {}

  @RpcHandler(SimilarFilesBySource)
  bySource(req: SimilarFilesBySourceRequest, ctx: RpcContext): Promise<SimilarFilesReply> {
    return this.similar.bySource(requireNamespace(ctx), req);
  }

  @RpcHandler(SimilarFilesByWork)
  byWork(req: SimilarFilesByWorkRequest, ctx: RpcContext): Promise<Pick<SimilarFilesReply, 'source' | 'similar'>> {
    return this.similar.byWork(requireNamespace(ctx), req);
  }
}
