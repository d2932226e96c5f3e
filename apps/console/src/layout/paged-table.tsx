import {
  Alert,
  Anchor,
  Group,
  Loader,
  Pagination,
  Table,
  Text,
  VisuallyHidden,
  type GroupProps,
  type PaginationProps,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { describeError } from '../api/client';
import { Link } from '../router/router';

/**
 * One page of a listed table as a list page shows it: the error reading it, a loader before its
 * first page, the `empty` text when the page has no row, else the table (`children`), then the
 * pager when there is more than one page (`onPage` takes the 0-based page).
 */
export function PagedTable(props: {
  list: { data: { totalPages: number } | undefined; error: unknown };
  rows: number;
  errorTitle?: string;
  loadingLabel: string;
  empty: ReactNode;
  page: number;
  onPage(page: number): void;
  getControlProps?: PaginationProps['getControlProps'];
  children: ReactNode;
}) {
  const { data, error } = props.list;
  return (
    <>
      {error ? (
        <Alert color="red" title={props.errorTitle} role="alert">
          {describeError(error)}
        </Alert>
      ) : !data ? (
        <Loader aria-label={props.loadingLabel} />
      ) : props.rows === 0 ? (
        <Text>{props.empty}</Text>
      ) : (
        <Table.ScrollContainer minWidth={320}>{props.children}</Table.ScrollContainer>
      )}
      {data && data.totalPages > 1 && (
        <Pagination
          total={data.totalPages}
          value={props.page + 1}
          onChange={(p) => props.onPage(p - 1)}
          {...(props.getControlProps ? { getControlProps: props.getControlProps } : {})}
        />
      )}
    </>
  );
}

/** The header of a table's last column, its row actions: named for screen readers only. */
export function ActionsTh() {
  return (
    <Table.Th>
      <VisuallyHidden>Actions</VisuallyHidden>
    </Table.Th>
  );
}

/** A row's last cell: its actions (`children`), at the end of the row; `group` lays them out. */
export function ActionsTd(props: { group?: GroupProps; children: ReactNode }) {
  return (
    <Table.Td>
      <Group justify="flex-end" {...props.group}>
        {props.children}
      </Group>
    </Table.Td>
  );
}

/** A row's first cell: its name linking to its page (a long name wraps), then `children`. */
export function NameLinkCell(props: { href: string; name: string; children?: ReactNode }) {
  return (
    <Table.Td style={{ overflowWrap: 'anywhere' }}>
      <Anchor component={Link} href={props.href} fw={500}>
        {props.name}
      </Anchor>
      {props.children}
    </Table.Td>
  );
}
