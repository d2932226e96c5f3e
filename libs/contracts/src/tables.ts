import { Type } from 'class-transformer';
import { IsInt, IsOptional, Min } from 'class-validator';
import { FileRefRequest } from './files';
import type { Position } from './nodes';

/** A cell of a document's table as table extraction reads it: the node, its text and where it is. */
export interface TableCellDto {
  nodeId: string;
  text: string;
  positions: Position[];
  header?: boolean;
  colSpan?: number;
  rowSpan?: number;
}

/** A table of a file, in reading order, with the last headings (or sheet name) above it. */
export interface FileTableDto {
  fileId: string;
  fileName: string;
  tableId: string;
  headings: string[];
  rows: TableCellDto[][];
}

/**
 * indexing.files.tables: the tables of one file of the caller's namespace, from piece `fromTable` on. A
 * table too large for one reply comes as consecutive pieces with the same tableId.
 */
export class FileTablesRequest extends FileRefRequest {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  fromTable?: number;
}

export interface FileTablesReply {
  tables: FileTableDto[];
  /** The piece to ask from next (the reply stays within one NATS message), or null after the last. */
  nextTable: number | null;
}
