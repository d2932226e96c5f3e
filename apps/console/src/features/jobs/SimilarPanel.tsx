import { Alert, Anchor, Badge, Button, Card, Group, Progress, Stack, Table, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { describeError, unwrap } from '../../api/client';
import { Link, navigate } from '../../router/router';
import { paths } from '../../router/routes';
import { useApi } from '../../session/session';
import { JobStatusCard } from './components';
import { useJob } from './job-api';
import { IndexedFilePicker } from './pickers';

/** Find similar: one indexed file as the source, the files most like it with their scores. */
export function SimilarPanel({ jobId }: { jobId: string | null }) {
  const api = useApi();
  const [fileId, setFileId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!fileId) return setError('Pick a file.');
    setBusy(true);
    setError(null);
    unwrap(api.POST('/api/core/find-similar/jobs', { body: { sourceIdentifiers: [{ id: fileId }] } })).then(
      (job) => {
        setBusy(false);
        navigate(paths.jobs('similar', job.jobId));
      },
      (err: unknown) => {
        setBusy(false);
        setError(describeError(err));
      },
    );
  };

  return (
    <Stack>
      <Card withBorder component="form" onSubmit={submit} aria-label="New search for similar files">
        <Stack>
          <IndexedFilePicker multiple={false} label="Source file" value={fileId} onChange={setFileId} />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={busy}>
              Find similar files
            </Button>
          </Group>
        </Stack>
      </Card>
      {jobId && <SimilarJob key={jobId} jobId={jobId} />}
    </Stack>
  );
}

const pct = (score: number) => `${Math.round(score * 100)}%`;

function SimilarJob({ jobId }: { jobId: string }) {
  const state = useJob('find-similar', jobId);
  const job = state.job;
  return (
    <Stack>
      <JobStatusCard {...state} onCancel={state.cancel} />
      {job?.result.map((source, i) => (
        <Card withBorder key={i} component="section" aria-label="Similar files">
          <Stack gap="xs">
            {source.error && (
              <Alert color="orange" p="xs">
                {source.error}
              </Alert>
            )}
            {source.files.length === 0 ? (
              <Text data-similar="0">
                No similar file was found{source.match === 'NONE' ? ' (the source matched none of your files)' : ''}.
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={320}>
                <Table verticalSpacing="xs" aria-label="Similar files and scores" data-similar={source.files.length}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>File</Table.Th>
                      <Table.Th w={160}>Score</Table.Th>
                      <Table.Th visibleFrom="sm">Signals</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {source.files.map((f) => (
                      <Table.Tr key={f.fileId} data-similar-file={f.name}>
                        <Table.Td style={{ overflowWrap: 'anywhere' }}>
                          <Anchor component={Link} href={paths.file(f.fileId)} fw={500}>
                            {f.name}
                          </Anchor>{' '}
                          {f.isSource && (
                            <Badge size="xs" variant="light">
                              source
                            </Badge>
                          )}
                          <Text size="xs" c="dimmed">
                            {f.path}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm" fw={500} data-score={f.score}>
                            {pct(f.score)}
                          </Text>
                          <Progress value={f.score * 100} size="sm" aria-label={`Score of ${f.name}`} />
                        </Table.Td>
                        <Table.Td visibleFrom="sm">
                          <Text size="xs" c="dimmed">
                            {f.signals
                              ? [
                                  f.signals.embedding !== undefined ? `content ${pct(f.signals.embedding)}` : null,
                                  `title ${pct(f.signals.title)}`,
                                  `authors ${pct(f.signals.authors)}`,
                                  `keyphrases ${pct(f.signals.keyphrases)}`,
                                ]
                                  .filter(Boolean)
                                  .join(' · ')
                              : '—'}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
