import { Injectable } from '@nestjs/common';
import { DomainError, type FileTableDto, type FileTablesReply, type FileTablesRequest } from '@docintel/contracts';
import { isUuid } from '../tenancy';
import { buildTables } from './build-tables';
import { FileTablesRepository } from './file-tables.repository';

/** JSON size a reply stays under (NATS carries 1 MiB by default). */
export const TABLES_PART_BYTES = 512 * 1024;

/** A table too large for one reply as consecutive pieces of its rows, each under the part size. */
export function piecesOf(table: FileTableDto, budget = TABLES_PART_BYTES): FileTableDto[] {
  if (Buffer.byteLength(JSON.stringify(table)) <= budget) return [table];
  const pieces: FileTableDto[] = [];
  let rows: FileTableDto['rows'] = [];
  let bytes = 0;
  for (const row of table.rows) {
    const size = Buffer.byteLength(JSON.stringify(row));
    if (rows.length && bytes + size > budget) {
      pieces.push({ ...table, rows });
      rows = [];
      bytes = 0;
    }
    rows.push(row);
    bytes += size;
  }
  if (rows.length) pieces.push({ ...table, rows });
  return pieces;
}

/**
 * indexing.files.tables: a file's tables for multi-dimensional extraction, in parts that each fit a
 * NATS message; a table larger than a part comes as consecutive pieces with the same tableId (the
 * caller joins them). A file of another namespace is not found, as an unknown one is.
 */
@Injectable()
export class FileTablesService {
  constructor(private readonly repo: FileTablesRepository) {}

  async tables(namespaceId: string, req: FileTablesRequest): Promise<FileTablesReply> {
    const file = isUuid(req.fileId) ? await this.repo.file(namespaceId, req.fileId) : null;
    if (!file) throw DomainError.notFound('IndexedFile', req.fileId);
    if (file.generation === null) return { tables: [], nextTable: null };
    const pieces = buildTables(file.id, file.name, await this.repo.tableNodes(file.id, file.generation)).flatMap((t) => piecesOf(t));
    const tables: FileTableDto[] = [];
    let bytes = 0;
    for (let i = req.fromTable ?? 0; i < pieces.length; i++) {
      const size = Buffer.byteLength(JSON.stringify(pieces[i]));
      if (tables.length && bytes + size > TABLES_PART_BYTES) return { tables, nextTable: i };
      tables.push(pieces[i]);
      bytes += size;
    }
    return { tables, nextTable: null };
  }
}
