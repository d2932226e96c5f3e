import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { entityId, type OntologyDto, type OntologyMetaDto, type OpenAccessId } from '@docintel/contracts';
import { isUuid } from '../tenancy';

/** A file as find-similar shows it. */
export interface SimilarFileRow {
  fileId: string;
  providerId: string;
  path: string;
  name: string;
  checksum: string | null;
  title: string | null;
}

interface FileRow {
  id: string;
  provider_id: string;
  key: string;
  name: string;
  checksum: string | null;
  title: string | null;
}

const toFile = (r: FileRow): SimilarFileRow => ({
  fileId: r.id,
  providerId: r.provider_id,
  path: r.key,
  name: r.name,
  checksum: r.checksum,
  title: r.title,
});

const FILE_COLUMNS = 'f.id, f.provider_id, f.key, f.name, f.checksum, f.title';

/** The DOI an arXiv id has at DataCite (arXiv registers 10.48550/arXiv.<id> for every paper). */
export const arxivDoi = (id: string) => `10.48550/arxiv.${id.toLowerCase()}`;

/**
 * A POSIX regular expression finding the id as a token: not inside a longer number
 * (2101.00001 is not 12101.000012), with or without an arXiv version suffix.
 */
export function openAccessPattern(oa: OpenAccessId): string {
  const escaped = oa.id.replace(/[.*+?^${}()|[\]\\/-]/g, (c) => `\\${c}`);
  return oa.kind === 'arxiv' ? `(^|[^0-9a-z.])${escaped}(v[0-9]+)?([^0-9]|$)` : `(^|[^0-9a-z])${escaped}([^0-9]|$)`;
}

/**
 * Where an open-access id is looked for in a document's text: its first page (PDF, images) or
 * first 200 lines (text, XML, CSV). Further down, ids belong to cited works.
 */
const FIRST_TEXT = `$[*] ? ((@.type == "BBOX" && @.page_number == 1) || (@.type == "LINE" && @.line_number <= 200))`;

const ONTOLOGY_SELECT = `o.file_id, o.concept_id, o.name, o.metas FROM ontologies o`;

/** The reads of find-similar, all scoped to one namespace. */
@Injectable()
export class SimilarFilesRepository {
  constructor(private readonly ds: DataSource) {}

  /** The namespace's file with this id, or null (an id of another namespace names nothing). */
  async byId(namespace: string, id: string): Promise<SimilarFileRow | null> {
    if (!isUuid(id)) return null;
    const rows = (await this.ds.query(`SELECT ${FILE_COLUMNS} FROM files f WHERE f.namespace_id = $1 AND f.id = $2`, [
      namespace,
      id,
    ])) as FileRow[];
    return rows.length ? toFile(rows[0]) : null;
  }

  /** The namespace's files whose ontologies give this DOI (lower case), oldest first. */
  async byDoi(namespace: string, doi: string): Promise<SimilarFileRow[]> {
    const rows = (await this.ds.query(
      `SELECT ${FILE_COLUMNS} FROM files f JOIN ontologies o ON o.file_id = f.id
        WHERE f.namespace_id = $1 AND o.name = 'Document metadata' AND lower(o.metas -> 'doi' ->> 'metaValue') = $2
        ORDER BY f.created_time, f.id`,
      [namespace, doi.toLowerCase()],
    )) as FileRow[];
    return rows.map(toFile);
  }

  /**
   * The namespace's files that carry an open-access id: as the DOI arXiv registers for it, in the
   * file name, or in the first text of the current tree. Files named or DOI-matched come first.
   */
  async byOpenAccessId(namespace: string, oa: OpenAccessId): Promise<SimilarFileRow[]> {
    const pattern = openAccessPattern(oa);
    const doi = oa.kind === 'arxiv' ? arxivDoi(oa.id) : null;
    const rows = (await this.ds.query(
      `SELECT ${FILE_COLUMNS},
              (f.name ~* $2 OR ($3::text IS NOT NULL AND EXISTS (
                 SELECT 1 FROM ontologies o WHERE o.file_id = f.id AND o.name = 'Document metadata'
                   AND lower(o.metas -> 'doi' ->> 'metaValue') = $3))) AS strong
         FROM files f
        WHERE f.namespace_id = $1 AND (
              f.name ~* $2
           OR ($3::text IS NOT NULL AND EXISTS (
                 SELECT 1 FROM ontologies o WHERE o.file_id = f.id AND o.name = 'Document metadata'
                   AND lower(o.metas -> 'doi' ->> 'metaValue') = $3))
           OR EXISTS (
                 SELECT 1 FROM nodes n
                  WHERE n.file_id = f.id AND n.generation = f.current_generation AND n.text ~* $2
                    AND jsonb_path_exists(n.positions, $4::jsonpath)))
        ORDER BY strong DESC, f.created_time, f.id`,
      [namespace, pattern, doi, FIRST_TEXT],
    )) as FileRow[];
    return rows.map(toFile);
  }

  /** The namespace's indexed files: the candidates of every ranking. */
  async indexedFiles(namespace: string): Promise<SimilarFileRow[]> {
    const rows = (await this.ds.query(
      `SELECT ${FILE_COLUMNS} FROM files f WHERE f.namespace_id = $1 AND f.indexed ORDER BY f.created_time, f.id`,
      [namespace],
    )) as FileRow[];
    return rows.map(toFile);
  }

  /**
   * The ontologies similarity reads (the "Document metadata" concept and the keyphrases) or, with
   * `all`, every ontology, per file in computation order.
   */
  async ontologies(namespace: string, fileIds: string[], all = false): Promise<Map<string, OntologyDto[]>> {
    const out = new Map<string, OntologyDto[]>(fileIds.map((id) => [id, []]));
    if (!fileIds.length) return out;
    const rows = (await this.ds.query(
      `SELECT ${ONTOLOGY_SELECT} JOIN files f ON f.id = o.file_id
        WHERE f.namespace_id = $1 AND o.file_id = ANY($2::uuid[])
          ${all ? '' : `AND (o.name = 'Document metadata' OR o.metas -> 'type' ->> 'metaValue' = 'KEYPHRASE')`}
        ORDER BY o.file_id, o.ordinal`,
      [namespace, fileIds],
    )) as Array<{ file_id: string; concept_id: string; name: string; metas: Record<string, OntologyMetaDto> | null }>;
    for (const r of rows) {
      out.get(r.file_id)?.push({ conceptId: entityId(r.concept_id, 'CONCEPT_NOTE'), name: r.name, ...(r.metas ? { metas: r.metas } : {}) });
    }
    return out;
  }
}
