import {
  ActionIcon,
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
  Checkbox,
  FileButton,
  Group,
  Loader,
  Menu,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { describeError, unwrap, type IndexedFile, type ProviderItem } from '../../api/client';
import { formatBytes, formatTime } from '../../lib/format';
import { breadcrumbs, nameOf } from '../../lib/keys';
import { useAsync, useInterval } from '../../lib/use-async';
import { Link } from '../../router/router';
import { paths } from '../../router/routes';
import { FileIcon, FolderIcon } from '../../layout/icons';
import { useApi } from '../../session/session';
import { isActive, StatusBadge } from '../files/status';
import { DeleteItemModal, NewFolderModal, RenameItemModal } from './item-modals';
import { DropZone, UploadList, useUploads } from './uploads';
import tables from '../../layout/tables.module.css';

const PAGE = 200;
/** The folder's IndexedFiles read for the status column (the largest page the files list gives). */
const INDEXED_PAGE = 1000;
const POLL_MS = 2000;
/** Index requests sent at once when many files are indexed together. */
const INDEX_PARALLEL = 4;

type Dialog = { kind: 'rename' | 'delete'; item: ProviderItem } | { kind: 'folder' } | null;

/** One directory of a provider: breadcrumbs, its folders and files, uploads, and what can be done to each item. */
export function ItemsPage({ providerId, dir }: { providerId: string; dir: string }) {
  const api = useApi();
  const provider = useAsync(() => unwrap(api.GET('/api/core/providers/{id}', { params: { path: { id: providerId } } })), [api, providerId]);
  const [items, setItems] = useState<ProviderItem[]>([]);
  const [cursor, setCursor] = useState<string | undefined>();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [message, setMessage] = useState<{ color: 'red' | 'green'; text: string } | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [indexing, setIndexing] = useState(false);

  // The IndexedFiles of this folder (and below), by key: the status column, polled while one indexes.
  const indexed = useAsync(
    () =>
      unwrap(
        api.GET('/api/core/files', {
          params: { query: { providerId, page: 0, pageSize: INDEXED_PAGE, sortProperty: 'path', ...(dir ? { keyPrefix: dir } : {}) } },
        }),
      ),
    [api, providerId, dir],
  );
  const byKey = new Map<string, IndexedFile>((indexed.data?.data ?? []).map((f) => [f.path, f]));
  useInterval(
    indexed.reload,
    POLL_MS,
    [...byKey.values()].some((f) => isActive(f.lastIndexationInfos.status)),
  );

  const listing = useAsync(
    () => unwrap(api.GET('/api/core/providers/{providerId}/items', { params: { path: { providerId }, query: { key: dir, limit: PAGE } } })),
    [api, providerId, dir],
  );
  useEffect(() => {
    if (!listing.data) return;
    setItems(listing.data.items);
    setCursor(listing.data.nextCursor || undefined);
  }, [listing.data]);
  useEffect(() => {
    setMessage(null);
    setSelected(new Set());
  }, [dir]);

  const loadMore = async () => {
    try {
      const next = await unwrap(
        api.GET('/api/core/providers/{providerId}/items', { params: { path: { providerId }, query: { key: dir, limit: PAGE, cursor } } }),
      );
      setItems((current) => [...current, ...next.items]);
      setCursor(next.nextCursor || undefined);
    } catch (err) {
      setMessage({ color: 'red', text: describeError(err) });
    }
  };

  const { reload } = listing;
  const uploads = useUploads(providerId, dir, reload);

  const download = useCallback(
    async (item: ProviderItem) => {
      try {
        const link = await unwrap(
          api.GET('/api/core/providers/{providerId}/items/download-url', { params: { path: { providerId }, query: { key: item.key } } }),
        );
        const a = document.createElement('a');
        a.href = link.url;
        a.download = nameOf(item.key);
        document.body.appendChild(a);
        a.click();
        a.remove();
      } catch (err) {
        setMessage({ color: 'red', text: `Download of ${nameOf(item.key)} failed: ${describeError(err)}` });
      }
    },
    [api, providerId],
  );

  /** Requests the indexation of files, a few at a time, and says how it went; the page stays. */
  const indexFiles = useCallback(
    async (keys: string[]) => {
      if (!keys.length) return;
      setIndexing(true);
      const failed: string[] = [];
      const queue = [...keys];
      const worker = async () => {
        for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
          try {
            await unwrap(api.POST('/api/core/files', { body: { providerId, key } }));
          } catch (err) {
            failed.push(`${nameOf(key)}: ${describeError(err)}`);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(INDEX_PARALLEL, keys.length) }, worker));
      setIndexing(false);
      setSelected(new Set());
      indexed.reload();
      const asked = keys.length === 1 ? nameOf(keys[0]) : `${keys.length} files`;
      setMessage(
        failed.length
          ? { color: 'red', text: `Indexing ${asked}: ${failed.length} could not start. ${failed.join('; ')}` }
          : { color: 'green', text: `Indexing ${asked} started; the Status column follows it.` },
      );
    },
    [api, providerId, indexed],
  );
  const index = useCallback((item: ProviderItem) => indexFiles([item.key]), [indexFiles]);
  const fileKeys = items.filter((i) => i.type === 'FILE').map((i) => i.key);

  const providerName = provider.data?.name ?? 'Provider';
  const crumbs = breadcrumbs(dir, providerName);

  return (
    <Stack>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Title order={1}>{dir ? nameOf(dir) : providerName}</Title>
          <nav aria-label="Folder path">
            <Breadcrumbs separatorMargin={6}>
              {crumbs.map((c, i) =>
                i === crumbs.length - 1 ? (
                  <Text key={c.key} size="sm" aria-current="page">
                    {c.label}
                  </Text>
                ) : (
                  <Anchor key={c.key} component={Link} href={paths.items(providerId, c.key)} size="sm">
                    {c.label}
                  </Anchor>
                ),
              )}
            </Breadcrumbs>
          </nav>
        </Stack>
        <Group gap="xs">
          <FileButton onChange={(files) => uploads.start(files)} multiple>
            {(props) => <Button {...props}>Upload files</Button>}
          </FileButton>
          <Button variant="default" onClick={() => setDialog({ kind: 'folder' })}>
            New folder
          </Button>
          <Button variant="subtle" component={Link} href={paths.files(providerId)}>
            Indexed files
          </Button>
        </Group>
      </Group>
      <Group gap="xs">
        <Button
          variant="light"
          disabled={!selected.size || indexing}
          loading={indexing && selected.size > 0}
          onClick={() => void indexFiles([...selected])}
        >
          {selected.size ? `Index selected (${selected.size})` : 'Index selected'}
        </Button>
        <Button variant="default" disabled={!fileKeys.length || indexing} onClick={() => void indexFiles(fileKeys)}>
          Index this folder ({fileKeys.length} {fileKeys.length === 1 ? 'file' : 'files'})
        </Button>
      </Group>

      {message && (
        <Alert
          color={message.color}
          role={message.color === 'red' ? 'alert' : 'status'}
          withCloseButton
          onClose={() => setMessage(null)}
          closeButtonLabel="Dismiss"
        >
          {message.text}
        </Alert>
      )}
      <UploadList uploads={uploads.list} onCancel={uploads.cancel} onClear={uploads.clearDone} />

      <DropZone onFiles={uploads.start} target={dir || '/'}>
        {listing.error ? (
          <Alert color="red" title="Could not list this folder" role="alert">
            {describeError(listing.error)}
          </Alert>
        ) : !listing.data && listing.loading ? (
          <Loader aria-label="Loading items" m="md" />
        ) : (
          <ItemsTable
            providerId={providerId}
            items={items}
            indexed={byKey}
            selected={selected}
            onSelect={setSelected}
            onDownload={download}
            onIndex={index}
            onDialog={setDialog}
          />
        )}
        {cursor && (
          <Button variant="default" onClick={() => void loadMore()} mt="sm">
            Load more
          </Button>
        )}
      </DropZone>

      <NewFolderModal
        opened={dialog?.kind === 'folder'}
        providerId={providerId}
        dir={dir}
        onClose={() => setDialog(null)}
        onDone={(key) => {
          setMessage({ color: 'green', text: `Folder ${nameOf(key)} created.` });
          reload();
        }}
      />
      <RenameItemModal
        item={dialog?.kind === 'rename' ? dialog.item : null}
        providerId={providerId}
        onClose={() => setDialog(null)}
        onDone={(item) => {
          setMessage({ color: 'green', text: `Renamed to ${nameOf(item.key)}.` });
          reload();
        }}
      />
      <DeleteItemModal
        item={dialog?.kind === 'delete' ? dialog.item : null}
        providerId={providerId}
        onClose={() => setDialog(null)}
        onDone={(item) => {
          setMessage({ color: 'green', text: `${nameOf(item.key)} deleted.` });
          reload();
        }}
      />
    </Stack>
  );
}

interface TableProps {
  providerId: string;
  items: ProviderItem[];
  /** The IndexedFiles of the folder, by key. */
  indexed: ReadonlyMap<string, IndexedFile>;
  selected: ReadonlySet<string>;
  onSelect(keys: ReadonlySet<string>): void;
  onDownload(item: ProviderItem): Promise<void>;
  onIndex(item: ProviderItem): Promise<void>;
  onDialog(d: Dialog): void;
}

function ItemsTable({ providerId, items, indexed, selected, onSelect, onDownload, onIndex, onDialog }: TableProps) {
  const toggle = (key: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(key);
    else next.delete(key);
    onSelect(next);
  };
  const files = items.filter((i) => i.type === 'FILE');
  const all = files.length > 0 && files.every((f) => selected.has(f.key));
  if (items.length === 0) {
    return (
      <Text c="dimmed" p="md">
        This folder is empty. Drop files here or use Upload files.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table highlightOnHover verticalSpacing="xs" aria-label="Items">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox
                aria-label="Select every file of this folder"
                checked={all}
                indeterminate={!all && selected.size > 0}
                disabled={!files.length}
                onChange={(e) => onSelect(new Set(e.currentTarget.checked ? files.map((f) => f.key) : []))}
              />
            </Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th visibleFrom="sm">Size</Table.Th>
            <Table.Th visibleFrom="sm">Modified</Table.Th>
            <Table.Th w={56} className={tables.actions}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => {
            const name = nameOf(item.key);
            const folder = item.type === 'FOLDER';
            const file = folder ? undefined : indexed.get(item.key);
            return (
              <Table.Tr key={item.key} data-key={item.key}>
                <Table.Td>
                  {!folder && (
                    <Checkbox
                      aria-label={`Select ${name}`}
                      checked={selected.has(item.key)}
                      onChange={(e) => toggle(item.key, e.currentTarget.checked)}
                    />
                  )}
                </Table.Td>
                <Table.Td>
                  {folder ? (
                    <Anchor component={Link} href={paths.items(providerId, item.key)} fw={500}>
                      <FolderIcon />
                      {name}
                    </Anchor>
                  ) : file ? (
                    <Anchor component={Link} href={paths.file(file.id.id)} fw={500}>
                      <FileIcon />
                      {name}
                    </Anchor>
                  ) : (
                    <Text span>
                      <FileIcon />
                      {name}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td data-index-status={file?.lastIndexationInfos.status ?? (folder ? undefined : 'NOT_INDEXED')}>
                  {file ? (
                    <StatusBadge status={file.lastIndexationInfos.status} />
                  ) : folder ? null : (
                    <Text size="xs" c="dimmed">
                      not indexed
                    </Text>
                  )}
                </Table.Td>
                <Table.Td visibleFrom="sm">{folder ? '—' : formatBytes(item.size)}</Table.Td>
                <Table.Td visibleFrom="sm">{formatTime(item.lastModified)}</Table.Td>
                <Table.Td className={tables.actions}>
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <Tooltip label="Actions" openDelay={500}>
                        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${name}`}>
                          ⋯
                        </ActionIcon>
                      </Tooltip>
                    </Menu.Target>
                    <Menu.Dropdown>
                      {folder ? (
                        <Menu.Item component={Link} href={paths.items(providerId, item.key)}>
                          Open
                        </Menu.Item>
                      ) : (
                        <>
                          {file ? (
                            <Menu.Item component={Link} href={paths.file(file.id.id)}>
                              Open indexed file
                            </Menu.Item>
                          ) : (
                            <Menu.Item onClick={() => void onIndex(item)}>Index</Menu.Item>
                          )}
                          <Menu.Item onClick={() => void onDownload(item)}>Download</Menu.Item>
                        </>
                      )}
                      <Menu.Item onClick={() => onDialog({ kind: 'rename', item })}>Rename</Menu.Item>
                      <Menu.Divider />
                      <Menu.Item color="red" onClick={() => onDialog({ kind: 'delete', item })}>
                        Delete
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
