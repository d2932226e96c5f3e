import { Alert, Badge, Card, Progress, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { unwrap } from '../../api/client';
import { ListTable } from '../../layout/list-table';
import { paths } from '../../router/routes';
import { NameLinkCell } from '../../layout/paged-table';
import { useApi } from '../../session/session';
import { JobStatusCard } from './components';
import { useJob } from './job-api';
import { JobForm, useJobSubmit } from './job-form';
import { IndexedFilePicker } from './pickers';

/** Find similar: one indexed file as the source, the files most like it with their scores. */
export function SimilarPanel({ jobId }: { jobId: string | null }) {
  const api = useApi();
  const [fileId, setFileId] = useState<string | null>(null);
  const form = useJobSubmit();

  const submit = () => {
    if (!fileId) return form.setError('Pick a file.');
    form.start(unwrap(api.POST('/api/core/find-similar/jobs', { body: { sourceIdentifiers: [{ id: fileId }] } })), (id) =>
      paths.jobs('similar', id),
    );
  };

  return (
    <Stack>
      <JobForm label="New search for similar files" onSubmit={submit} busy={form.busy} error={form.error} submitLabel="Find similar files">
        <IndexedFilePicker multiple={false} label="Source file" value={fileId} onChange={setFileId} />
      </JobForm>
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
              <ListTable
                minWidth={320}
                verticalSpacing="xs"
                aria-label="Similar files and scores"
                data-similar={source.files.length}
                columns={['File', { title: 'Score', w: 160 }, { title: 'Signals', visibleFrom: 'sm' }]}
              >
                {source.files.map((f) => (
                  <Table.Tr key={f.fileId} data-similar-file={f.name}>
                    <NameLinkCell href={paths.file(f.fileId)} name={f.name}>
                      {' '}
                      {f.isSource && (
                        <Badge size="xs" variant="light">
                          source
                        </Badge>
                      )}
                      <Text size="xs" c="dimmed">
                        {f.path}
                      </Text>
                    </NameLinkCell>
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
              </ListTable>
            )}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
