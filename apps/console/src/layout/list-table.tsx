import { Table, type MantineBreakpoint, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { ActionsTh } from './paged-table';

/** A column's header: its title, of width `w`, shown from the `visibleFrom` breakpoint on (always when absent). */
export interface ColumnHead {
  title: ReactNode;
  key?: string;
  w?: number;
  visibleFrom?: MantineBreakpoint;
}

/**
 * A table of listed things: one header row (the columns, then the row actions' column when
 * `actions`), then the rows (`children`). With `minWidth` it scrolls sideways below that width.
 * The other props are the table's own (its label, spacing, data- attributes).
 */
export function ListTable({
  columns,
  actions,
  minWidth,
  children,
  ...table
}: TableProps & { columns: Array<string | ColumnHead>; actions?: boolean; minWidth?: number; children: ReactNode }) {
  const heads = columns.map((c) => (typeof c === 'string' ? { title: c } : c));
  const list = (
    <Table {...table}>
      <Table.Thead>
        <Table.Tr>
          {heads.map((h, i) => (
            <Table.Th key={h.key ?? i} w={h.w} visibleFrom={h.visibleFrom}>
              {h.title}
            </Table.Th>
          ))}
          {actions && <ActionsTh />}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>{children}</Table.Tbody>
    </Table>
  );
  return minWidth === undefined ? list : <Table.ScrollContainer minWidth={minWidth}>{list}</Table.ScrollContainer>;
}
