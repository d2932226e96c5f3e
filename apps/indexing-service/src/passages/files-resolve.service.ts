import { Injectable } from '@nestjs/common';
import { DomainError, JOB_LIMITS, type ResolveFilesReply, type ResolveFilesRequest, type ResolvedFile } from '@docintel/contracts';
import { FileResolutionRepository } from './file-resolution.repository';

/**
 * Collection links expanded per request at most: twice the files a job may read, so that a job
 * skipping unindexed files still sees enough of them, while the reply stays far below NATS's
 * maximum payload. More is refused rather than cut silently.
 */
export const MAX_EXPANDED_LINKS = 2 * JOB_LIMITS.files;

/**
 * indexing.files.resolve: the distinct files a job names, directly or through collections, in the
 * order first named (the files named, then each collection's files in the order they were added).
 * Ids that name nothing in the caller's namespace (including ids of other namespaces) are listed as
 * missing, in the order given.
 */
@Injectable()
export class FilesResolveService {
  constructor(private readonly repo: FileResolutionRepository) {}

  async resolve(namespaceId: string, req: ResolveFilesRequest): Promise<ResolveFilesReply> {
    const fileIds = req.fileIds ?? [];
    const collectionIds = req.collectionIds ?? [];
    const key = (id: string) => id.toLowerCase();
    const direct = await this.repo.files(namespaceId, [...new Set(fileIds.map(key))]);
    const collections = await this.repo.collections(namespaceId, [...new Set(collectionIds.map(key))], MAX_EXPANDED_LINKS + 1);
    const links = [...collections.values()].reduce((n, list) => n + list.length, 0);
    if (links > MAX_EXPANDED_LINKS) {
      throw DomainError.invalid(
        [{ field: 'collectionIds', problem: `hold more than ${MAX_EXPANDED_LINKS} files; a job reads at most ${JOB_LIMITS.files}` }],
        'The collections hold too many files for one job',
      );
    }

    const files: ResolvedFile[] = [];
    const seen = new Set<string>();
    const take = (f: ResolvedFile) => {
      if (seen.has(f.fileId)) return;
      seen.add(f.fileId);
      files.push(f);
    };
    for (const id of fileIds) {
      const f = direct.get(key(id));
      if (f) take(f);
    }
    for (const id of collectionIds) for (const f of collections.get(key(id)) ?? []) take(f);
    const unique = (ids: string[]) => [...new Set(ids)];
    return {
      files,
      missingFileIds: unique(fileIds.filter((id) => !direct.has(key(id)))),
      missingCollectionIds: unique(collectionIds.filter((id) => !collections.has(key(id)))),
    };
  }
}
