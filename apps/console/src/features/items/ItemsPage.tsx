import {
  ActionIcon,
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
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
import { describeError, unwrap, type ProviderItem } from '../../api/client';
import { formatBytes, formatTime } from '../../lib/format';
import { breadcrumbs, nameOf } from '../../lib/keys';
import { useAsync } from '../../lib/use-async';
import { Link, navigate } from '../../router/router';
import { paths } from '../../router/routes';
import { FileIcon, FolderIcon } from '../../layout/icons';
import { useApi } from '../../session/session';
import { DeleteItemModal, NewFolderModal, RenameItemModal } from './item-modals';
import { DropZone, UploadList, useUploads } from './uploads';
import tables from '../../layout/tables.module.css';

const PAGE = 200;

type Dialog = { kind: 'rename' | 'delete'; item: ProviderItem } | { kind: 'folder' } | null;

/** One directory of a provider: breadcrumbs, its folders and files, uploads, and what can be done to each item. */
export function ItemsPage({ providerId, dir }: { providerId: string; dir: string }) {
  const api = useApi();
  const provider = useAsync(() => unwrap(api.GET('/api/core/providers/{id}', { params: { path: { id: providerId } } })), [api, providerId]);
  const [items, setItems] = useState<ProviderItem[]>([]);
  const [cursor, setCursor] = useState<string | undefined>();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [message, setMessage] = useState<{ color: 'red' | 'green'; text: string } | null>(null);

  const listing = useAsync(
    () => unwrap(api.GET('/api/core/providers/{providerId}/items', { params: { path: { providerId }, query: { key: dir, limit: PAGE } } })),
    [api, providerId, dir],
  );
  useEffect(() => {
    if (!listing.data) return;
    setItems(listing.data.items);
    setCursor(listing.data.nextCursor || undefined);
  }, [listing.data]);
  useEffect(() => setMessage(null), [dir]);

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

  const index = useCallback(
    async (item: ProviderItem) => {
      try {
        const file = await unwrap(api.POST('/api/core/files', { body: { providerId, key: item.key } }));
        navigate(paths.file(file.id.id));
      } catch (err) {
        setMessage({ color: 'red', text: `Indexing ${nameOf(item.key)} failed: ${describeError(err)}` });
      }
    },
    [api, providerId],
  );

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
          <ItemsTable providerId={providerId} items={items} onDownload={download} onIndex={index} onDialog={setDialog} />
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
  onDownload(item: ProviderItem): Promise<void>;
  onIndex(item: ProviderItem): Promise<void>;
  onDialog(d: Dialog): void;
}

function ItemsTable({ providerId, items, onDownload, onIndex, onDialog }: TableProps) {
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
            <Table.Th>Name</Table.Th>
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
            return (
              <Table.Tr key={item.key} data-key={item.key}>
                <Table.Td>
                  {folder ? (
                    <Anchor component={Link} href={paths.items(providerId, item.key)} fw={500}>
                      <FolderIcon />
                      {name}
                    </Anchor>
                  ) : (
                    <Text span>
                      <FileIcon />
                      {name}
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
                          <Menu.Item onClick={() => void onIndex(item)}>Index</Menu.Item>
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
