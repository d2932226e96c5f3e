import { Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { Collection } from '@docintel/api-client';
import { useState } from 'react';
import { unwrap } from '../../api/client';
import { ListTable } from '../../layout/list-table';
import { formatTime } from '../../lib/format';
import { useAsync } from '../../lib/use-async';
import { navigate } from '../../router/router';
import { paths } from '../../router/routes';
import { ActionsTd, NameLinkCell, PagedTable } from '../../layout/paged-table';
import { useApi } from '../../session/session';
import { CollectionFormModal, DeleteCollectionModal } from './collection-modals';

const PAGE_SIZE = 20;

/** The collections of the namespace: find, create, rename, delete. */
export function CollectionsPage({ page }: { page: number }) {
  const api = useApi();
  const [q, setQ] = useState('');
  const [query] = useDebouncedValue(q.trim(), 250);
  const list = useAsync(
    () =>
      unwrap(
        api.GET('/api/core/collections', {
          params: { query: { page, pageSize: PAGE_SIZE, sortBy: 'name', sortOrder: 'asc', ...(query ? { q: query } : {}) } },
        }),
      ),
    [api, page, query],
  );
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Collection | null>(null);
  const [deleting, setDeleting] = useState<Collection | null>(null);
  const rows = list.data?.data ?? [];

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1}>Collections</Title>
          <Text c="dimmed" size="sm">
            Named groups of indexed files, shared in the namespace. Jobs can run on a whole collection.
          </Text>
        </Stack>
        <Button onClick={() => setCreating(true)}>New collection</Button>
      </Group>
      <TextInput
        label="Find a collection"
        placeholder="Name contains…"
        value={q}
        onChange={(e) => {
          setQ(e.currentTarget.value);
          if (page) navigate(paths.collections());
        }}
        maw={360}
      />
      <PagedTable
        list={list}
        rows={rows.length}
        errorTitle="Could not list the collections"
        loadingLabel="Loading collections"
        empty={query ? 'No collection has such a name.' : 'No collection yet.'}
        page={page}
        onPage={(p) => navigate(paths.collections(p))}
      >
        <ListTable
          highlightOnHover
          verticalSpacing="sm"
          aria-label="Collections"
          columns={['Name', 'Files', { title: 'Owner', visibleFrom: 'md' }, { title: 'Created', visibleFrom: 'md' }]}
          actions
        >
          {rows.map((c) => (
            <Table.Tr key={c.id.id} data-collection={c.name}>
              <NameLinkCell href={paths.collection(c.id.id)} name={c.name}>
                {c.description && (
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    {c.description}
                  </Text>
                )}
              </NameLinkCell>
              <Table.Td data-files-count={c.filesCount}>{c.filesCount}</Table.Td>
              <Table.Td visibleFrom="md">{c.ownerEmail || '—'}</Table.Td>
              <Table.Td visibleFrom="md">{formatTime(c.createdTime)}</Table.Td>
              <ActionsTd group={{ gap: 4, wrap: 'nowrap' }}>
                <Button variant="subtle" size="compact-sm" onClick={() => setRenaming(c)} aria-label={`Rename ${c.name}`}>
                  Rename
                </Button>
                <Button variant="subtle" color="red" size="compact-sm" onClick={() => setDeleting(c)} aria-label={`Delete ${c.name}`}>
                  Delete
                </Button>
              </ActionsTd>
            </Table.Tr>
          ))}
        </ListTable>
      </PagedTable>
      <CollectionFormModal opened={creating} onClose={() => setCreating(false)} onDone={(c) => navigate(paths.collection(c.id.id))} />
      <CollectionFormModal opened={!!renaming} collection={renaming} onClose={() => setRenaming(null)} onDone={list.reload} />
      <DeleteCollectionModal collection={deleting} onClose={() => setDeleting(null)} onDone={list.reload} />
    </Stack>
  );
}
