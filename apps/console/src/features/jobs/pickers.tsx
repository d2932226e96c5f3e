import { Loader, MultiSelect, NativeSelect, SegmentedControl, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { describeError, unwrap } from '../../api/client';
import { useAsync } from '../../lib/use-async';
import { useApi } from '../../session/session';

/** The largest page the files list gives: pickers offer up to this many indexed files of a provider. */
const PICK_PAGE = 1000;

export function useProviders() {
  const api = useApi();
  return useAsync(() => unwrap(api.GET('/api/core/providers', { params: { query: { page: 0, pageSize: 100 } } })), [api]);
}

/** The indexed (SUCCESS) files of a provider, by name. */
export function useIndexedFiles(providerId: string | null) {
  const api = useApi();
  return useAsync(
    async () =>
      providerId
        ? (
            await unwrap(
              api.GET('/api/core/files', {
                params: { query: { providerId, page: 0, pageSize: PICK_PAGE, sortProperty: 'name', sortOrder: 'ASC' } },
              }),
            )
          ).data.filter((f) => f.lastIndexationInfos.status === 'SUCCESS')
        : [],
    [api, providerId],
  );
}

/** Picks a provider (the first one to start with). */
export function ProviderSelect({ value, onChange }: { value: string | null; onChange: (id: string) => void }) {
  const providers = useProviders();
  const list = providers.data?.data ?? [];
  useEffect(() => {
    if (!value && list.length) onChange(list[0].id.id);
  }, [value, list, onChange]);
  if (providers.error) return <Text c="red">{describeError(providers.error)}</Text>;
  return (
    <NativeSelect
      label="Provider"
      value={value ?? ''}
      onChange={(e) => onChange(e.currentTarget.value)}
      data={list.map((p) => ({ value: p.id.id, label: p.name }))}
      rightSection={providers.loading && !providers.data ? <Loader size={14} /> : undefined}
    />
  );
}

/** Indexed files of a provider: several (MultiSelect) or one (Select). */
export function IndexedFilePicker(
  props:
    | { multiple: true; label?: string; value: string[]; onChange: (ids: string[]) => void; exclude?: readonly string[] }
    | { multiple: false; label?: string; value: string | null; onChange: (id: string | null) => void; exclude?: readonly string[] },
) {
  const [providerId, setProviderId] = useState<string | null>(null);
  const files = useIndexedFiles(providerId);
  const data = (files.data ?? [])
    .filter((f) => !props.exclude?.includes(f.id.id))
    .map((f) => ({ value: f.id.id, label: f.path || f.name })); // the path: two files may share a name
  const label = props.label ?? (props.multiple ? 'Files' : 'File');
  const empty = providerId && files.data && !files.loading && data.length === 0 ? 'No indexed file to pick in this provider' : undefined;
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        <ProviderSelect value={providerId} onChange={setProviderId} />
        {props.multiple ? (
          <MultiSelect
            label={label}
            placeholder={props.value.length ? undefined : 'Pick indexed files'}
            data={data}
            value={props.value}
            onChange={props.onChange}
            searchable
            nothingFoundMessage="No such file"
            description={empty}
            miw={200}
          />
        ) : (
          <Select
            label={label}
            placeholder="Pick an indexed file"
            data={data}
            value={props.value}
            onChange={props.onChange}
            searchable
            nothingFoundMessage="No such file"
            description={empty}
            miw={200}
          />
        )}
      </SimpleGrid>
      {files.error ? <Text c="red">{describeError(files.error)}</Text> : null}
    </Stack>
  );
}

export type Target = { mode: 'files'; fileIds: string[] } | { mode: 'collection'; collectionId: string | null };

/** The FilesInput of a job from what was picked, or null when nothing was. */
export function filesInput(target: Target): { fileIds: string[] } | { collectionIds: string[] } | null {
  if (target.mode === 'files') return target.fileIds.length ? { fileIds: target.fileIds } : null;
  return target.collectionId ? { collectionIds: [target.collectionId] } : null;
}

/** What a job reads: indexed files picked from a provider, or a collection. */
export function TargetPicker({ value, onChange }: { value: Target; onChange: (t: Target) => void }) {
  const api = useApi();
  const collections = useAsync(
    () => unwrap(api.GET('/api/core/collections', { params: { query: { page: 0, pageSize: 100, sortBy: 'name' } } })),
    [api],
  );
  const list = collections.data?.data ?? [];
  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label="Run on"
        value={value.mode}
        onChange={(mode) =>
          onChange(mode === 'files' ? { mode: 'files', fileIds: [] } : { mode: 'collection', collectionId: list[0]?.id.id ?? null })
        }
        data={[
          { value: 'files', label: 'Files' },
          { value: 'collection', label: 'A collection' },
        ]}
        w="fit-content"
      />
      {value.mode === 'files' ? (
        <IndexedFilePicker multiple value={value.fileIds} onChange={(fileIds) => onChange({ mode: 'files', fileIds })} />
      ) : collections.error ? (
        <Text c="red">{describeError(collections.error)}</Text>
      ) : (
        <NativeSelect
          label="Collection"
          value={value.collectionId ?? ''}
          onChange={(e) => onChange({ mode: 'collection', collectionId: e.currentTarget.value || null })}
          data={[
            { value: '', label: list.length ? 'Pick a collection' : 'No collection yet' },
            ...list.map((c) => ({ value: c.id.id, label: `${c.name} (${c.filesCount} ${c.filesCount === 1 ? 'file' : 'files'})` })),
          ]}
        />
      )}
    </Stack>
  );
}
