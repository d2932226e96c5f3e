import { Anchor, Card, Checkbox, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { unwrap } from '../../api/client';
import { ListTable } from '../../layout/list-table';
import { useAsync } from '../../lib/use-async';
import { Link } from '../../router/router';
import { paths } from '../../router/routes';
import { useApi } from '../../session/session';
import { CellCitations, ConfidenceBadge, ExportButtons, JobRunHead, TypedAnswer } from './components';
import { extractionCsv } from './export';
import { confidenceBand } from './confidence';
import { useCitedJobRun } from './job-api';
import { JobForm, RemoveRowButton, targetOf, useJobSubmit, useRefill, useRows } from './job-form';
import { filesInput, TargetPicker, type Target } from './pickers';
import { DATA_TYPES, resultsByFile, type DataType } from './values';

/** The page of a job of this kind (a new job opens there). */
const jobPage = (id: string) => paths.jobs('extraction', id);

interface MetaDraft {
  meta: string;
  dataType: DataType;
  multiValued: boolean;
  description: string;
}

const blank = (): MetaDraft => ({ meta: '', dataType: 'STRING', multiValued: false, description: '' });

/** Metadata fields extracted from each file; the values as one table per file, each value cited. */
export function ExtractionPanel({ jobId }: { jobId: string | null }) {
  const api = useApi();
  const [target, setTarget] = useState<Target>({ mode: 'files', fileIds: [] });
  const metas = useRows<MetaDraft>(() => [blank()]);
  const form = useJobSubmit();
  useRefill(
    jobId,
    metas.rows.every((m) => !m.meta.trim()) && !filesInput(target),
    (id, signal) => unwrap(api.GET('/api/core/extraction/jobs/{jobId}/inputs', { params: { path: { jobId: id } }, signal })),
    (inputs) => {
      metas.replace(
        inputs.metas.map((m) => ({
          meta: m.meta,
          dataType: m.answerType?.dataType ?? 'STRING',
          multiValued: m.answerType?.multiValued ?? false,
          description: m.description ?? '',
        })),
      );
      setTarget(targetOf(inputs.files));
    },
  );

  const submit = () => {
    const files = filesInput(target);
    if (!files) return form.setError('Pick at least one file or a collection.');
    const named = metas.rows.filter((m) => m.meta.trim());
    if (!named.length) return form.setError('Name a field to extract.');
    form.start(
      unwrap(
        api.POST('/api/core/extraction/jobs', {
          body: {
            files,
            metas: named.map((m) => ({
              meta: m.meta.trim(),
              ...(m.description.trim() ? { description: m.description.trim() } : {}),
              answerType: { dataType: m.dataType, multiValued: m.multiValued },
            })),
          },
        }),
      ),
      jobPage,
    );
  };

  return (
    <Stack>
      <JobForm
        label="New extraction"
        onSubmit={submit}
        busy={form.busy}
        error={form.error}
        submitLabel="Extract"
        add={{ label: 'Add a field', onClick: () => metas.add(blank()), disabled: metas.rows.length >= 100 }}
      >
        <TargetPicker value={target} onChange={setTarget} />
        {metas.rows.map((m, i) => (
          <Group key={i} align="flex-end" wrap="wrap" gap="xs">
            <TextInput
              label={`Field ${i + 1}`}
              placeholder="invoice total"
              value={m.meta}
              onChange={(e) => metas.update(i, { meta: e.currentTarget.value })}
              style={{ flex: '1 1 160px' }}
            />
            <NativeSelect
              label={`Type of field ${i + 1}`}
              value={m.dataType}
              onChange={(e) => metas.update(i, { dataType: e.currentTarget.value as DataType })}
              data={DATA_TYPES.filter((t) => t.value !== 'ENUM').map((t) => ({ value: t.value, label: t.label }))}
              w={150}
            />
            <TextInput
              label={`Description of field ${i + 1}`}
              placeholder="What is the total amount due?"
              value={m.description}
              onChange={(e) => metas.update(i, { description: e.currentTarget.value })}
              style={{ flex: '2 1 220px' }}
            />
            <Checkbox
              label="A list"
              checked={m.multiValued}
              onChange={(e) => metas.update(i, { multiValued: e.currentTarget.checked })}
              mb={8}
              aria-label={`Field ${i + 1} is a list`}
            />
            <RemoveRowButton label={`Remove field ${i + 1}`} onClick={() => metas.remove(i)} hidden={metas.rows.length <= 1} />
          </Group>
        ))}
      </JobForm>
      {jobId && <ExtractionJob key={jobId} jobId={jobId} />}
    </Stack>
  );
}

function ExtractionJob({ jobId }: { jobId: string }) {
  const api = useApi();
  const run = useCitedJobRun('extraction', jobId, jobPage, (signal) =>
    unwrap(api.GET('/api/core/extraction/jobs/{jobId}/results', { params: { path: { jobId } }, signal })),
  );
  const { state, results, annotations } = run;
  // File names: from the citations when there are some, else read once per file.
  const groups = results ? resultsByFile(results.results) : [];
  const ids = groups.map((g) => g.fileId).join(',');
  const names = useAsync(async () => {
    const entries = await Promise.all(
      groups.map(async (g) => {
        const cited = annotations?.find((a) => a.data.documentId === g.fileId)?.data.documentName;
        if (cited) return [g.fileId, cited] as const;
        const file = await unwrap(api.GET('/api/core/files/{id}', { params: { path: { id: g.fileId } } })).catch(() => null);
        return [g.fileId, file?.name ?? g.fileId] as const;
      }),
    );
    return new Map(entries);
  }, [api, ids, annotations]);

  return (
    <Stack>
      <JobRunHead run={run} loadingLabel="Loading values" />
      {results && results.results.length > 0 && (
        <ExportButtons
          jobId={jobId}
          name={state.job?.name}
          csv={() => extractionCsv(results.results, (id) => names.data?.get(id) ?? id)}
          json={() => results}
        />
      )}
      {groups.map((g) => {
        const name = names.data?.get(g.fileId) ?? '…';
        return (
          <Card withBorder key={g.fileId} component="section" aria-label={`Values of ${name}`} data-file-results={name}>
            <Title order={3} size="h5" mb="xs">
              <Anchor component={Link} href={paths.file(g.fileId)}>
                {name}
              </Anchor>
            </Title>
            <ListTable
              minWidth={320}
              verticalSpacing="xs"
              aria-label={`Extracted from ${name}`}
              columns={['Field', 'Value', 'Confidence', 'Sources']}
            >
              {g.results.map((r) => (
                <Table.Tr key={r.id} data-meta={r.meta} data-confidence-band={r.found ? confidenceBand(r.confidence) : 'none'}>
                  <Table.Td fw={500}>{r.meta}</Table.Td>
                  <Table.Td title={r.explanation}>
                    <TypedAnswer value={r.found ? r.answer : undefined} type={r.answerType} />
                  </Table.Td>
                  <Table.Td>
                    {r.found ? (
                      <ConfidenceBadge confidence={r.confidence} size="xs" />
                    ) : (
                      <Text size="sm" c="dimmed" aria-label="None: not found">
                        —
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <CellCitations
                      refs={r.referenceIds}
                      annotations={annotations}
                      label={`${r.meta} in ${name}`}
                      // A string at run time; the OpenAPI document types it loosely.
                      quote={r.found && typeof r.rawValue === 'string' ? r.rawValue : null}
                    />
                    {!r.found && (
                      <Text size="xs" c="dimmed">
                        {r.explanation}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
          </Card>
        );
      })}
    </Stack>
  );
}
