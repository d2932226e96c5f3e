import { Alert, Anchor, Badge, Button, Card, Code, Group, Loader, SimpleGrid, Spoiler, Stack, Table, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { describeError, unwrap, type IndexedFile, type Ontology } from '../../api/client';
import { formatBytes, formatTime } from '../../lib/format';
import { parentOf } from '../../lib/keys';
import { useAsync, useInterval } from '../../lib/use-async';
import { Link } from '../../router/router';
import { paths } from '../../router/routes';
import { useApi } from '../../session/session';
import { isActive, StatusBadge } from './status';

const POLL_MS = 1500;

/** One indexed file: where it is in its indexation (polled until it ends), its metadata and its ontologies. */
export function FilePage({ fileId }: { fileId: string }) {
  const api = useApi();
  const file = useAsync(() => unwrap(api.GET('/api/core/files/{id}', { params: { path: { id: fileId } } })), [api, fileId]);
  const status = file.data?.lastIndexationInfos.status;
  useInterval(file.reload, POLL_MS, isActive(status));
  const ontologies = useAsync(
    () =>
      status === 'SUCCESS'
        ? unwrap(api.GET('/api/core/files/{id}/ontologies', { params: { path: { id: fileId } } }))
        : Promise.resolve(null),
    [api, fileId, status],
  );
  const [action, setAction] = useState<string | null>(null);

  const reindex = async () => {
    try {
      await unwrap(api.POST('/api/core/files/{id}/reindex', { params: { path: { id: fileId } } }));
      setAction(null);
      file.reload();
    } catch (err) {
      setAction(describeError(err));
    }
  };

  if (file.error) {
    return (
      <Alert color="red" title="Could not load this file" role="alert">
        {describeError(file.error)}
      </Alert>
    );
  }
  if (!file.data) return <Loader aria-label="Loading file" />;
  const f = file.data;
  const providerId = f.providerId.id;

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1} style={{ overflowWrap: 'break-word', hyphens: 'auto' }}>
            {f.name}
          </Title>
          <Group gap="xs">
            <StatusBadge status={f.lastIndexationInfos.status} />
            <Text size="sm" c="dimmed">
              {f.path}
            </Text>
          </Group>
        </Stack>
        <Group gap="xs">
          {f.indexed && (
            <Button component={Link} href={paths.document(fileId)}>
              Read the document
            </Button>
          )}
          <Button variant="default" onClick={() => void reindex()} disabled={isActive(f.lastIndexationInfos.status)}>
            Reindex
          </Button>
          <Button variant="subtle" component={Link} href={paths.files(providerId)}>
            All indexed files
          </Button>
        </Group>
      </Group>
      {f.lastIndexationInfos.status === 'FAILED' && (
        <Alert color="red" title="Indexation failed" role="alert">
          {f.lastIndexationInfos.errorMessage ?? 'No reason was given.'}
        </Alert>
      )}
      {isActive(f.lastIndexationInfos.status) && (
        <Alert color="blue" role="status">
          Indexing… this page updates by itself.
        </Alert>
      )}
      {action && (
        <Alert color="red" role="alert">
          {action}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Metadata file={f} />
        <Card withBorder component="section" aria-labelledby="ontologies-title">
          <Title order={2} size="h4" id="ontologies-title" mb="sm">
            Ontologies
          </Title>
          {f.lastIndexationInfos.status !== 'SUCCESS' ? (
            <Text c="dimmed">Computed once the indexation has succeeded.</Text>
          ) : ontologies.error ? (
            <Alert color="red" role="alert">
              {describeError(ontologies.error)}
            </Alert>
          ) : !ontologies.data ? (
            <Loader size="sm" aria-label="Loading ontologies" />
          ) : (
            <Ontologies ontologies={ontologies.data} />
          )}
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

function Metadata({ file: f }: { file: IndexedFile }) {
  const rows: Array<[string, ReactNode]> = [
    ['Name', f.name],
    [
      'Location',
      <Anchor key="loc" component={Link} href={paths.items(f.providerId.id, parentOf(f.path))}>
        {f.providerName || 'Provider'} / {f.path}
      </Anchor>,
    ],
    ['Title', f.title ?? '—'],
    ['Authors', f.authors ?? '—'],
    [
      'Description',
      f.description ? (
        <Spoiler key="desc" maxHeight={66} showLabel="Show more" hideLabel="Show less">
          {f.description}
        </Spoiler>
      ) : (
        '—'
      ),
    ],
    ['Media type', f.mediaType ?? '—'],
    ['Size', formatBytes(f.size)],
    ['Indexed', f.indexed ? 'yes' : 'no'],
    ['Created', formatTime(f.createdTime)],
    ['Owner', f.ownerEmail || '—'],
    ['Checksum', f.checksum ? <Code key="sum">{f.checksum.slice(0, 16)}…</Code> : '—'],
    ['File id', <Code key="id">{f.id.id}</Code>],
  ];
  return (
    <Card withBorder component="section" aria-labelledby="metadata-title">
      <Title order={2} size="h4" id="metadata-title" mb="sm">
        Metadata
      </Title>
      <Table variant="vertical" layout="fixed" withRowBorders={false} aria-labelledby="metadata-title">
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={120}>{label}</Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const clip = (text: string, max = 240): string => (text.length > max ? `${text.slice(0, max)}…` : text);

function Ontologies({ ontologies }: { ontologies: Ontology[] }) {
  if (ontologies.length === 0) return <Text c="dimmed">No concept was found in this file.</Text>;
  return (
    <Stack gap="sm" aria-label="Concepts">
      {ontologies.map((o) => (
        <div key={o.conceptId.id} data-concept={o.name}>
          <Badge variant="outline" mb={4}>
            {o.name}
          </Badge>
          {o.metas && Object.keys(o.metas).length > 0 && (
            <Table withRowBorders={false} verticalSpacing={2} fz="sm">
              <Table.Tbody>
                {Object.entries(o.metas).map(([key, meta]) => (
                  <Table.Tr key={key}>
                    <Table.Th w={140} fw={500}>
                      {meta.metaName || key}
                    </Table.Th>
                    <Table.Td style={{ overflowWrap: 'anywhere' }} title={meta.explanation}>
                      {clip(show(meta.metaValue))}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </div>
      ))}
    </Stack>
  );
}
