import { Alert, Button, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { describeError, unwrap } from '../../api/client';
import { ListTable } from '../../layout/list-table';
import { formatBytes } from '../../lib/format';
import { useAsync } from '../../lib/use-async';
import { Link, navigate } from '../../router/router';
import { paths } from '../../router/routes';
import { ActionsTd, NameLinkCell, PagedTable } from '../../layout/paged-table';
import { useApi } from '../../session/session';
import { StatusBadge } from '../files/status';
import { IndexedFilePicker } from '../jobs/pickers';
import { CollectionFormModal, DeleteCollectionModal } from './collection-modals';

const PAGE_SIZE = 20;

/** One collection: its files (paged), files added from a provider's indexed files, files removed. */
export function CollectionPage({ collectionId, page }: { collectionId: string; page: number }) {
  const api = useApi();
  const collection = useAsync(
    () => unwrap(api.GET('/api/core/collections/{id}', { params: { path: { id: collectionId } } })),
    [api, collectionId],
  );
  const files = useAsync(
    () =>
      unwrap(
        api.GET('/api/core/collections/{id}/files', {
          params: { path: { id: collectionId }, query: { page, pageSize: PAGE_SIZE, sortBy: 'name', sortOrder: 'asc' } },
        }),
      ),
    [api, collectionId, page],
  );
  const [picked, setPicked] = useState<string[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const rows = files.data?.data ?? [];
  const reload = () => {
    files.reload();
    collection.reload();
  };

  const add = (e: FormEvent) => {
    e.preventDefault();
    if (!picked.length) return setError('Pick the files to add.');
    setBusy('add');
    setError(null);
    Promise.all(
      picked.map((fileId) =>
        unwrap(api.POST('/api/core/collections/{id}/files', { params: { path: { id: collectionId } }, body: { fileId } })),
      ),
    ).then(
      () => {
        setBusy(null);
        setPicked([]);
        reload();
      },
      (err: unknown) => {
        setBusy(null);
        setError(describeError(err));
        reload();
      },
    );
  };

  const remove = (fileId: string) => {
    setBusy(fileId);
    setError(null);
    unwrap(api.DELETE('/api/core/collections/{id}/files/{fileId}', { params: { path: { id: collectionId, fileId } } })).then(
      () => {
        setBusy(null);
        // The last file of a later page: go back one page.
        if (rows.length === 1 && page > 0) navigate(paths.collection(collectionId, page - 1));
        else reload();
      },
      (err: unknown) => {
        setBusy(null);
        setError(describeError(err));
      },
    );
  };

  if (collection.error) {
    return (
      <Alert color="red" title="Could not load this collection" role="alert">
        {describeError(collection.error)}
      </Alert>
    );
  }
  if (!collection.data) return <Loader aria-label="Loading collection" />;
  const c = collection.data;

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Title order={1} style={{ overflowWrap: 'break-word', hyphens: 'auto' }}>
            {c.name}
          </Title>
          <Text c="dimmed" size="sm">
            {c.description ? `${c.description} · ` : ''}
            {c.filesCount} {c.filesCount === 1 ? 'file' : 'files'} · owner {c.ownerEmail || '—'}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button variant="default" onClick={() => setRenaming(true)}>
            Rename
          </Button>
          <Button variant="default" color="red" onClick={() => setDeleting(true)}>
            Delete
          </Button>
          <Button variant="subtle" component={Link} href={paths.collections()}>
            All collections
          </Button>
        </Group>
      </Group>

      <Card withBorder component="form" onSubmit={add} aria-label="Add files">
        <Stack gap="xs">
          <Title order={2} size="h4">
            Add files
          </Title>
          <IndexedFilePicker multiple label="Indexed files to add" value={picked} onChange={setPicked} exclude={rows.map((f) => f.id.id)} />
          <Group justify="flex-end">
            <Button type="submit" loading={busy === 'add'}>
              Add to collection
            </Button>
          </Group>
        </Stack>
      </Card>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}

      <Stack gap="xs" component="section" aria-labelledby="collection-files-title">
        <Title order={2} size="h4" id="collection-files-title">
          Files in this collection
        </Title>
        <PagedTable
          list={files}
          rows={rows.length}
          loadingLabel="Loading files"
          empty="This collection has no file yet."
          page={page}
          onPage={(p) => navigate(paths.collection(collectionId, p))}
        >
          <ListTable
            highlightOnHover
            verticalSpacing="sm"
            aria-labelledby="collection-files-title"
            columns={['Name', { title: 'Status', visibleFrom: 'sm' }, { title: 'Size', visibleFrom: 'md' }]}
            actions
          >
            {rows.map((f) => (
              <Table.Tr key={f.id.id} data-file={f.name}>
                <NameLinkCell href={paths.file(f.id.id)} name={f.name}>
                  <Text size="xs" c="dimmed">
                    {f.providerName} / {f.path}
                  </Text>
                </NameLinkCell>
                <Table.Td visibleFrom="sm">
                  <StatusBadge status={f.lastIndexationInfos.status} />
                </Table.Td>
                <Table.Td visibleFrom="md">{formatBytes(f.size)}</Table.Td>
                <ActionsTd>
                  <Button
                    variant="subtle"
                    color="red"
                    size="compact-sm"
                    loading={busy === f.id.id}
                    onClick={() => remove(f.id.id)}
                    aria-label={`Remove ${f.name} from the collection`}
                  >
                    Remove
                  </Button>
                </ActionsTd>
              </Table.Tr>
            ))}
          </ListTable>
        </PagedTable>
      </Stack>
      <CollectionFormModal opened={renaming} collection={c} onClose={() => setRenaming(false)} onDone={collection.reload} />
      <DeleteCollectionModal
        collection={deleting ? c : null}
        onClose={() => setDeleting(false)}
        onDone={() => navigate(paths.collections())}
      />
    </Stack>
  );
}
