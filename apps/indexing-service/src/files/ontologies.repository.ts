import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { entityId, type OntologyDto, type OntologyMetaDto } from '@docintel/contracts';
import { isUuid } from '../tenancy';

export interface OntologyEntry {
  conceptId: string;
  name: string;
  metas?: Record<string, OntologyMetaDto>;
}

/** The ontologies computed for each file, replaced as a whole by every computation. */
@Injectable()
export class OntologiesRepository {
  constructor(private readonly ds: DataSource) {}

  /** The file's ontologies in the order they were computed; null when the namespace has no such file. */
  async listForFile(namespace: string, fileId: string): Promise<OntologyDto[] | null> {
    if (!isUuid(fileId)) return null;
    const rows: Array<{ file: string; concept_id: string | null; name: string | null; metas: Record<string, OntologyMetaDto> | null }> =
      await this.ds.query(
        `SELECT f.id AS file, o.concept_id, o.name, o.metas
           FROM files f LEFT JOIN ontologies o ON o.file_id = f.id
          WHERE f.namespace_id = $1 AND f.id = $2
          ORDER BY o.ordinal`,
        [namespace, fileId],
      );
    if (!rows.length) return null;
    return rows
      .filter((r) => r.concept_id !== null)
      .map((r) => ({
        conceptId: entityId(r.concept_id as string, 'CONCEPT_NOTE'),
        name: r.name as string,
        ...(r.metas ? { metas: r.metas } : {}),
      }));
  }

  /** Replaces the file's ontologies in one transaction (the ontology computation's write). */
  async replaceForFile(fileId: string, entries: OntologyEntry[]): Promise<void> {
    await this.ds.transaction(async (em) => {
      await em.query(`DELETE FROM ontologies WHERE file_id = $1`, [fileId]);
      if (!entries.length) return;
      await em.query(
        `INSERT INTO ontologies (file_id, concept_id, ordinal, name, metas)
         SELECT $1, r.concept_id, r.ordinal, r.name, r.metas
           FROM jsonb_to_recordset($2::jsonb) AS r(concept_id uuid, ordinal int, name text, metas jsonb)`,
        [fileId, JSON.stringify(entries.map((e, ordinal) => ({ concept_id: e.conceptId, ordinal, name: e.name, metas: e.metas ?? null })))],
      );
    });
  }
}
