import type { FileTableDto, Position, TableCellDto } from '@docintel/contracts';

/** How a schema column's cells are typed (the wire's ENTITY_COLUMN_TYPE_* without the prefix). */
export type EntityColumnType = 'UNSPECIFIED' | 'STRING' | 'INT' | 'FLOAT' | 'BOOL';

/** What a column says about the entity (the wire's ENTITY_COLUMN_ROLE_* without the prefix). */
export type EntityColumnRole = 'UNSPECIFIED' | 'IDENTIFIER' | 'LABEL' | 'GROUP' | 'TIMEPOINT' | 'VALUE' | 'UNIT' | 'DEFINITION' | 'COMMENT';

/** One column of the rows the user wants. */
export interface EntityColumnSpec {
  key: string;
  label: string;
  type: EntityColumnType;
  role: EntityColumnRole;
  description?: string;
  /** When given, a cell must be one of these (the closest is taken; others are left empty). */
  allowedValues?: string[];
  /** Rows whose row-key cells are equal describe the same entity and are merged. */
  isRowKey?: boolean;
}

export interface EntitySchemaSpec {
  name: string;
  description?: string;
  columns: EntityColumnSpec[];
}

/** A cell of a document's table and a table of a file, as indexing.files.tables gives them. */
export type SourceCell = TableCellDto;
export type SourceTable = FileTableDto;

/** Where a cell's value was read: one document cell. */
export interface CellEvidence {
  fileId: string;
  fileName: string;
  nodeId: string;
  positions: Position[];
  text: string;
}

export type EntityValue = string | number | boolean;

export interface EntityCell {
  columnKey: string;
  /** Typed as the column says; null when the row has no (valid) value for the column. */
  value: EntityValue | null;
  explanation: string;
  evidence: CellEvidence[];
}

/** One entity: a cell per schema column, in schema order. */
export interface EntityRow {
  cells: EntityCell[];
  explanation: string;
  /** The table rows it was read from (one, or more when row keys merged them). */
  sources: Array<{ fileId: string; fileName: string; tableId: string; row: number }>;
}
