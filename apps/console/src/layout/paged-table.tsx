import { Alert, Loader, Pagination, Table, Text, type PaginationProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { describeError } from '../api/client';

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
