import { Anchor, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { unwrap } from '../../api/client';
import { ListTable } from '../../layout/list-table';
import { formatBytes, formatTime } from '../../lib/format';
import { useAsync, useInterval } from '../../lib/use-async';
import { Link, navigate } from '../../router/router';
import { paths } from '../../router/routes';
import { PagedTable } from '../../layout/paged-table';
import { useApi } from '../../session/session';
import { isActive, StatusBadge } from './status';

const PAGE_SIZE = 20;
const POLL_MS = 2000;

/**
 * The indexed files of a provider, newest first, polled while any of them is still indexing; a
 * filter on the name (any case) narrows the list as it is typed.
 */
export function FilesPage({ providerId, page }: { providerId: string; page: number }) {
  const api = useApi();
  const [filter, setFilter] = useState('');
  const [q] = useDebouncedValue(filter.trim(), 250);
  // A new filter starts from its first page.
  const lastQ = useRef(q);
  useEffect(() => {
    if (lastQ.current === q) return;
    lastQ.current = q;
    if (page !== 0) navigate(paths.files(providerId, 0), { replace: true });
  }, [q, page, providerId]);
  const provider = useAsync(() => unwrap(api.GET('/api/core/providers/{id}', { params: { path: { id: providerId } } })), [api, providerId]);
  const files = useAsync(
    () =>
      unwrap(
        api.GET('/api/core/files', {
          params: { query: { providerId, page, pageSize: PAGE_SIZE, sortProperty: 'createdTime', sortOrder: 'DESC', ...(q ? { q } : {}) } },
        }),
      ),
    [api, providerId, page, q],
  );
  const rows = files.data?.data ?? [];
  useInterval(
    files.reload,
    POLL_MS,
    rows.some((f) => isActive(f.lastIndexationInfos.status)),
  );

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1}>Indexed files</Title>
          <Text c="dimmed" size="sm">
            {provider.data ? `In ${provider.data.name}. ` : ''}Index a file from its provider&apos;s items (Actions, then Index).
          </Text>
        </Stack>
        <Group gap="xs">
          <Button variant="default" onClick={files.reload} loading={files.loading && !!files.data}>
            Refresh
          </Button>
          <Button variant="subtle" component={Link} href={paths.items(providerId)}>
            Browse items
          </Button>
        </Group>
      </Group>
      <TextInput
        label="Filter by name"
        placeholder="Part of a file name"
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
        maw={360}
        maxLength={200}
      />
      <PagedTable
        list={files}
        rows={rows.length}
        errorTitle="Could not list the indexed files"
        loadingLabel="Loading files"
        empty={q ? `No indexed file of this provider has "${q}" in its name.` : 'No file of this provider is indexed yet.'}
        page={page}
        onPage={(p) => navigate(paths.files(providerId, p))}
        getControlProps={() => ({ 'aria-label': undefined })}
      >
        <ListTable
          highlightOnHover
          verticalSpacing="sm"
          aria-label="Indexed files"
          columns={['Name', 'Status', { title: 'Size', visibleFrom: 'sm' }, { title: 'Created', visibleFrom: 'md' }]}
        >
          {rows.map((f) => (
            <Table.Tr key={f.id.id} data-file={f.name}>
              <Table.Td>
                <Anchor component={Link} href={paths.file(f.id.id)} fw={500}>
                  {f.name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {f.path}
                </Text>
              </Table.Td>
              <Table.Td>
                <StatusBadge status={f.lastIndexationInfos.status} />
                {f.lastIndexationInfos.status === 'FAILED' && f.lastIndexationInfos.errorMessage && (
                  <Text size="xs" c="red" mt={4}>
                    {f.lastIndexationInfos.errorMessage}
                  </Text>
                )}
              </Table.Td>
              <Table.Td visibleFrom="sm">{formatBytes(f.size)}</Table.Td>
              <Table.Td visibleFrom="md">{formatTime(f.createdTime)}</Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
      </PagedTable>
    </Stack>
  );
}
