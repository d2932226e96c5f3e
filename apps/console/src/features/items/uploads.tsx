import { Box, Button, CloseButton, Group, Overlay, Paper, Progress, Stack, Text } from '@mantine/core';
import { useCallback, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { describeError } from '../../api/client';
import { uploadFile } from '../../api/upload';
import { formatBytes } from '../../lib/format';
import { useSession } from '../../session/session';

export interface Upload {
  id: number;
  name: string;
  dir: string;
  loaded: number;
  total: number;
  state: 'uploading' | 'done' | 'failed' | 'cancelled';
  error?: string;
}

/** Uploads into the directory on screen, one request per file, with progress; the listing reloads as each one ends. */
export function useUploads(providerId: string, dir: string, onUploaded: () => void) {
  const { credentials } = useSession();
  const [list, setList] = useState<Upload[]>([]);
  const controllers = useRef(new Map<number, AbortController>());
  const nextId = useRef(1);

  const update = (id: number, patch: Partial<Upload>) => setList((l) => l.map((u) => (u.id === id ? { ...u, ...patch } : u)));

  const start = useCallback(
    (files: File[] | FileList | null) => {
      if (!files || !credentials) return;
      for (const file of Array.from(files)) {
        const id = nextId.current++;
        const controller = new AbortController();
        controllers.current.set(id, controller);
        setList((l) => [...l, { id, name: file.name, dir, loaded: 0, total: file.size, state: 'uploading' }]);
        uploadFile(credentials, providerId, dir, file, (p) => update(id, { loaded: p.loaded, total: p.total }), controller.signal)
          .then(() => {
            update(id, { state: 'done', loaded: file.size });
            onUploaded();
          })
          .catch((err: unknown) => {
            const cancelled = err instanceof DOMException && err.name === 'AbortError';
            update(id, { state: cancelled ? 'cancelled' : 'failed', error: cancelled ? undefined : describeError(err) });
          })
          .finally(() => controllers.current.delete(id));
      }
    },
    [credentials, providerId, dir, onUploaded],
  );

  const cancel = useCallback((id: number) => controllers.current.get(id)?.abort(), []);
  const clearDone = useCallback(() => setList((l) => l.filter((u) => u.state === 'uploading')), []);
  return { list, start, cancel, clearDone };
}

export function UploadList({ uploads, onCancel, onClear }: { uploads: Upload[]; onCancel(id: number): void; onClear(): void }) {
  if (uploads.length === 0) return null;
  return (
    <Paper withBorder p="sm" aria-label="Uploads" component="section">
      <Group justify="space-between" mb="xs">
        <Text fw={600} size="sm">
          Uploads
        </Text>
        {uploads.some((u) => u.state !== 'uploading') && (
          <Button size="compact-xs" variant="subtle" onClick={onClear}>
            Clear finished
          </Button>
        )}
      </Group>
      <Stack gap="xs">
        {uploads.map((u) => {
          const percent = u.total > 0 ? Math.round((u.loaded / u.total) * 100) : u.state === 'done' ? 100 : 0;
          const label =
            u.state === 'done'
              ? 'Uploaded'
              : u.state === 'failed'
                ? `Failed: ${u.error}`
                : u.state === 'cancelled'
                  ? 'Cancelled'
                  : `${percent}%`;
          return (
            <Box key={u.id} data-upload={u.name} data-state={u.state}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" truncate>
                  {u.name}{' '}
                  <Text span c="dimmed" size="xs">
                    ({formatBytes(u.total)} to /{u.dir})
                  </Text>
                </Text>
                <Group gap={4} wrap="nowrap">
                  <Text size="xs" c={u.state === 'failed' ? 'red' : u.state === 'done' ? 'teal' : 'dimmed'} role="status">
                    {label}
                  </Text>
                  {u.state === 'uploading' && (
                    <CloseButton size="sm" aria-label={`Cancel upload of ${u.name}`} onClick={() => onCancel(u.id)} />
                  )}
                </Group>
              </Group>
              <Progress
                value={u.state === 'done' ? 100 : percent}
                color={u.state === 'failed' ? 'red' : u.state === 'done' ? 'teal' : 'blue'}
                animated={u.state === 'uploading'}
                size="sm"
                aria-label={`Upload of ${u.name}`}
              />
            </Box>
          );
        })}
      </Stack>
    </Paper>
  );
}

/** Files dropped anywhere on the listing are uploaded into the folder on screen. */
export function DropZone({ onFiles, target, children }: { onFiles(files: FileList): void; target: string; children: ReactNode }) {
  const [over, setOver] = useState(false);
  const depth = useRef(0);
  const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer.types).includes('Files');

  return (
    <Paper
      withBorder
      p="xs"
      pos="relative"
      data-dropzone
      aria-label={`Items; drop files here to upload them to ${target}`}
      component="section"
      onDragEnter={(e: DragEvent) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        depth.current++;
        setOver(true);
      }}
      onDragOver={(e: DragEvent) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      }}
      onDrop={(e: DragEvent) => {
        e.preventDefault();
        depth.current = 0;
        setOver(false);
        if (e.dataTransfer.files.length) onFiles(e.dataTransfer.files);
      }}
      style={over ? { borderColor: 'var(--mantine-primary-color-filled)', borderStyle: 'dashed' } : undefined}
    >
      {children}
      {over && (
        <Overlay color="var(--mantine-color-body)" backgroundOpacity={0.85} center radius="sm">
          <Text fw={600}>Drop to upload to {target}</Text>
        </Overlay>
      )}
    </Paper>
  );
}
