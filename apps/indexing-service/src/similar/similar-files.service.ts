import { Inject, Injectable } from '@nestjs/common';
import {
  FIND_SIMILAR_LIMITS,
  normalizeDoi,
  parseOpenAccessId,
  type FileMatchDto,
  type OntologyDto,
  type SimilarFilesByWorkRequest,
  type SimilarFilesBySourceRequest,
  type SimilarFilesReply,
  type SourceMatchedBy,
} from '@docintel/contracts';
import { LOGGER, type Logger } from '@docintel/observability';
import { Embeddings } from '../embeddings/embedder.provider';
import { arxivDoi, SimilarFilesRepository, type SimilarFileRow } from './similar-files.repository';
import { factsOf, profileOf, rank, shownOntologies, type DocumentProfile } from './similarity';
import { MeanVector } from '@docintel/ai';

interface Candidate {
  file: SimilarFileRow;
  profile: DocumentProfile;
}

/**
 * Find-similar over the caller's namespace: which file a source names (id, then DOI, then
 * open-access id), and which of the namespace's indexed files are most similar to a file or to a
 * work known by its metadata (see similarity.ts for what "similar" means).
 */
@Injectable()
export class SimilarFilesService {
  constructor(
    private readonly repo: SimilarFilesRepository,
    private readonly embeddings: Embeddings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async bySource(namespace: string, req: SimilarFilesBySourceRequest): Promise<SimilarFilesReply> {
    const found = await this.identify(namespace, req.source);
    if (!found) return { source: null, matchedBy: null, similar: [] };
    const candidates = await this.candidates(namespace);
    const own = candidates.find((c) => c.file.fileId === found.file.fileId) ?? (await this.candidate(namespace, found.file));
    const others = candidates.filter((c) => c.file.fileId !== found.file.fileId);
    const ranked = rank(
      own.profile,
      others.map((c) => ({ item: c.file, profile: c.profile })),
      req.limit,
      req.minScore,
    );
    const shown = await this.repo.ontologies(namespace, [found.file.fileId, ...ranked.map((r) => r.item.fileId)], true);
    const source: FileMatchDto = { ...matchOf(found.file, shown), score: 1, isSource: true };
    return {
      source,
      matchedBy: found.by,
      similar: ranked.map((r) => ({ ...matchOf(r.item, shown), score: r.score, isSource: false, signals: r.signals })),
    };
  }

  /**
   * Files similar to a work: its title and abstract are embedded with the pipeline's embedder (so
   * the vector is comparable with the files' node vectors); when the embedder fails, the ranking
   * uses the lexical signals alone. A file carrying the work's DOI is the work itself.
   */
  async byWork(namespace: string, req: SimilarFilesByWorkRequest): Promise<Pick<SimilarFilesReply, 'source' | 'similar'>> {
    let vector: Float32Array | null = null;
    try {
      const text = [req.title, req.abstract ?? ''].join('\n\n').slice(0, this.embeddings.maxChars);
      const [embedded] = await this.embeddings.embedder.embed([text]);
      const mean = new MeanVector();
      mean.add(embedded);
      vector = mean.result();
    } catch (err) {
      this.logger.warn({ err }, 'find-similar: the work could not be embedded; ranking by title, authors and keywords only');
    }
    const doi = req.doi ? normalizeDoi(req.doi) : null;
    const own = doi ? (await this.repo.byDoi(namespace, doi))[0] : undefined;
    const profile = profileOf({ title: req.title, authors: req.authors, keyphrases: req.keywords }, vector);
    const candidates = (await this.candidates(namespace)).filter((c) => c.file.fileId !== own?.fileId);
    const ranked = rank(
      profile,
      candidates.map((c) => ({ item: c.file, profile: c.profile })),
      req.limit,
      req.minScore,
    );
    const shown = await this.repo.ontologies(namespace, [...(own ? [own.fileId] : []), ...ranked.map((r) => r.item.fileId)], true);
    return {
      source: own ? { ...matchOf(own, shown), score: 1, isSource: true } : null,
      similar: ranked.map((r) => ({ ...matchOf(r.item, shown), score: r.score, isSource: false, signals: r.signals })),
    };
  }

  /** The caller's file the source names: by id, else by DOI (an arXiv DOI also by its arXiv id), else by open-access id. */
  private async identify(
    namespace: string,
    source: SimilarFilesBySourceRequest['source'],
  ): Promise<{ file: SimilarFileRow; by: SourceMatchedBy } | null> {
    if (source.id) {
      const file = await this.repo.byId(namespace, source.id);
      if (file) return { file, by: 'id' };
    }
    const doi = source.doi ? normalizeDoi(source.doi) : null;
    if (doi) {
      const [file] = await this.repo.byDoi(namespace, doi);
      if (file) return { file, by: 'doi' };
      const arxiv = /^10\.48550\/arxiv\.(.+)$/.exec(doi);
      const viaArxiv = arxiv ? (await this.repo.byOpenAccessId(namespace, { kind: 'arxiv', id: arxiv[1] }))[0] : undefined;
      if (viaArxiv) return { file: viaArxiv, by: 'doi' };
    }
    const oa = source.openAccessId ? parseOpenAccessId(source.openAccessId) : null;
    if (oa) {
      const [file] = await this.repo.byOpenAccessId(namespace, oa);
      if (file) return { file, by: 'openAccessId' };
      if (oa.kind === 'arxiv') {
        const [byDoi] = await this.repo.byDoi(namespace, arxivDoi(oa.id));
        if (byDoi) return { file: byDoi, by: 'openAccessId' };
      }
    }
    return null;
  }

  /** Every indexed file of the namespace with its profile. */
  private async candidates(namespace: string): Promise<Candidate[]> {
    const files = await this.repo.indexedFiles(namespace);
    if (!files.length) return [];
    const [ontologies, vectors] = await Promise.all([
      this.repo.ontologies(
        namespace,
        files.map((f) => f.fileId),
      ),
      this.embeddings.store.meanVectors(namespace),
    ]);
    return files.map((file) => ({
      file,
      profile: profileOf(factsOf(ontologies.get(file.fileId) ?? []), vectors.get(file.fileId) ?? null, file.title ?? undefined),
    }));
  }

  /** One file's profile (a source that is not indexed yet is still compared by what it has). */
  private async candidate(namespace: string, file: SimilarFileRow): Promise<Candidate> {
    const [ontologies, vectors] = await Promise.all([
      this.repo.ontologies(namespace, [file.fileId]),
      this.embeddings.store.meanVectors(namespace, [file.fileId]),
    ]);
    return {
      file,
      profile: profileOf(factsOf(ontologies.get(file.fileId) ?? []), vectors.get(file.fileId) ?? null, file.title ?? undefined),
    };
  }
}

function matchOf(file: SimilarFileRow, ontologies: Map<string, OntologyDto[]>): Omit<FileMatchDto, 'score' | 'isSource'> {
  return {
    fileId: file.fileId,
    providerId: file.providerId,
    path: file.path,
    name: file.name,
    checksum: file.checksum,
    ontologies: shownOntologies(ontologies.get(file.fileId) ?? [], FIND_SIMILAR_LIMITS.ontologiesPerFile),
  };
}
