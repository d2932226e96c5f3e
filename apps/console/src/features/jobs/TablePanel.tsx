import { Card, Checkbox, Group, NativeSelect, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { unwrap } from '../../api/client';
import { ListTable } from '../../layout/list-table';
import { paths } from '../../router/routes';
import { useApi } from '../../session/session';
import { CellCitations, ExportButtons, JobRunHead } from './components';
import { tableCsv } from './export';
import { useCitedJobRun } from './job-api';
import { JobForm, RemoveRowButton, targetOf, useJobSubmit, useRefill, useRows } from './job-form';
import { filesInput, TargetPicker, type Target } from './pickers';
import { columnKey, entityRows, type EntityColumn } from './values';

/** The page of a job of this kind (a new job opens there). */
const jobPage = (id: string) => paths.jobs('table', id);

type ColumnType = EntityColumn['type'];
type ColumnRole = EntityColumn['role'];
const COLUMN_TYPES: Array<{ value: ColumnType; label: string }> = [
  { value: 'ENTITY_COLUMN_TYPE_STRING', label: 'Text' },
  { value: 'ENTITY_COLUMN_TYPE_INT', label: 'Whole number' },
  { value: 'ENTITY_COLUMN_TYPE_FLOAT', label: 'Number' },
  { value: 'ENTITY_COLUMN_TYPE_BOOL', label: 'Yes / no' },
];

interface ColumnDraft {
  label: string;
  type: ColumnType;
  description: string;
  isRowKey: boolean;
  /** What the form does not show of a column a past job had, sent again as it was. */
  role: ColumnRole;
  allowedValues?: string[];
}

const IDENTIFIER: ColumnRole = 'ENTITY_COLUMN_ROLE_IDENTIFIER';
const VALUE: ColumnRole = 'ENTITY_COLUMN_ROLE_VALUE';

const blank = (isRowKey = false): ColumnDraft => ({
  label: '',
  type: 'ENTITY_COLUMN_TYPE_STRING',
  description: '',
  isRowKey,
  role: isRowKey ? IDENTIFIER : VALUE,
});

/** A past job's column in the form. */
const draftOf = (c: EntityColumn): ColumnDraft => ({
  label: c.label,
  // The form offers the four types; an unspecified one is read as text by the service too.
  type: COLUMN_TYPES.some((t) => t.value === c.type) ? c.type : 'ENTITY_COLUMN_TYPE_STRING',
  description: c.description ?? '',
  isRowKey: c.isRowKey === true,
  role: c.role,
  ...(c.allowedValues?.length ? { allowedValues: c.allowedValues } : {}),
});

/** Multi-dimensional extraction: the columns of a table, read as rows across files, each cell cited. */
export function TablePanel({ jobId }: { jobId: string | null }) {
  const api = useApi();
  const [target, setTarget] = useState<Target>({ mode: 'files', fileIds: [] });
  const [rowName, setRowName] = useState('');
  const [description, setDescription] = useState('');
  const columns = useRows<ColumnDraft>(() => [blank(true), blank()]);
  const form = useJobSubmit();
  useRefill(
    jobId,
    columns.rows.every((c) => !c.label.trim()) && !rowName.trim() && !description.trim() && !filesInput(target),
    (id, signal) => unwrap(api.GET('/api/core/multi-dim-extraction/jobs/{jobId}/inputs', { params: { path: { jobId: id } }, signal })),
    (inputs) => {
      setTarget(targetOf(inputs.files));
      setRowName(inputs.schema.name);
      setDescription(inputs.schema.description ?? '');
      if (inputs.schema.columns.length) columns.replace(inputs.schema.columns.map(draftOf));
    },
  );

  const submit = () => {
    const files = filesInput(target);
    if (!files) return form.setError('Pick at least one file or a collection.');
    const named = columns.rows.filter((c) => c.label.trim());
    if (!named.length) return form.setError('Name at least one column.');
    const keys: string[] = [];
    const schemaColumns = named.map((c) => {
      const key = columnKey(c.label, keys);
      keys.push(key);
      return {
        key,
        label: c.label.trim(),
        type: c.type,
        role: c.role,
        ...(c.isRowKey ? { isRowKey: true } : {}),
        ...(c.description.trim() ? { description: c.description.trim() } : {}),
        ...(c.allowedValues ? { allowedValues: c.allowedValues } : {}),
      };
    });
    form.start(
      unwrap(
        api.POST('/api/core/multi-dim-extraction/jobs', {
          body: {
            files,
            schema: {
              name: rowName.trim() || 'Row',
              ...(description.trim() ? { description: description.trim() } : {}),
              columns: schemaColumns,
            },
          },
        }),
      ),
      jobPage,
    );
  };

  return (
    <Stack>
      <JobForm
        label="New table extraction"
        onSubmit={submit}
        busy={form.busy}
        error={form.error}
        submitLabel="Extract rows"
        add={{ label: 'Add a column', onClick: () => columns.add(blank()), disabled: columns.rows.length >= 50 }}
      >
        <TargetPicker value={target} onChange={setTarget} />
        <TextInput
          label="What one row is"
          placeholder="Invoice line, trial arm, product…"
          value={rowName}
          onChange={(e) => setRowName(e.currentTarget.value)}
        />
        <TextInput
          label="Description of the table"
          placeholder="The lines of each invoice, one per product"
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        {columns.rows.map((c, i) => (
          <Group key={i} align="flex-end" wrap="wrap" gap="xs">
            <TextInput
              label={`Column ${i + 1}`}
              placeholder={i === 0 ? 'Product' : 'Price'}
              value={c.label}
              onChange={(e) => columns.update(i, { label: e.currentTarget.value })}
              style={{ flex: '1 1 160px' }}
            />
            <NativeSelect
              label={`Type of column ${i + 1}`}
              value={c.type}
              onChange={(e) => columns.update(i, { type: e.currentTarget.value as ColumnType })}
              data={COLUMN_TYPES}
              w={150}
            />
            <TextInput
              label={`Description of column ${i + 1}`}
              value={c.description}
              onChange={(e) => columns.update(i, { description: e.currentTarget.value })}
              style={{ flex: '2 1 200px' }}
            />
            <Checkbox
              label="Row key"
              checked={c.isRowKey}
              onChange={(e) => {
                const isRowKey = e.currentTarget.checked;
                columns.update(i, { isRowKey, role: isRowKey ? IDENTIFIER : c.role === IDENTIFIER ? VALUE : c.role });
              }}
              mb={8}
              aria-label={`Column ${i + 1} identifies the row`}
            />
            <RemoveRowButton label={`Remove column ${i + 1}`} onClick={() => columns.remove(i)} hidden={columns.rows.length <= 1} />
          </Group>
        ))}
      </JobForm>
      {jobId && <TableJob key={jobId} jobId={jobId} />}
    </Stack>
  );
}

function TableJob({ jobId }: { jobId: string }) {
  const api = useApi();
  const run = useCitedJobRun('multi-dim-extraction', jobId, jobPage, (signal) =>
    unwrap(api.GET('/api/core/multi-dim-extraction/jobs/{jobId}/results', { params: { path: { jobId } }, signal })),
  );
  const { state, results, annotations } = run;
  const extraction = results?.entityExtraction;
  const columns = extraction?.schema.columns ?? [];
  const rows = extraction ? entityRows(extraction) : [];

  return (
    <Stack>
      <JobRunHead run={run} loadingLabel="Loading rows" />
      {extraction && (
        <Card withBorder component="section" aria-label="Extracted rows">
          <Stack gap="xs">
            {extraction.explanation && (
              <Text size="sm" c="dimmed">
                {extraction.explanation}
              </Text>
            )}
            {rows.length > 0 && (
              <ExportButtons jobId={jobId} name={state.job?.name} csv={() => tableCsv(extraction)} json={() => extraction} />
            )}
            {rows.length === 0 ? (
              <Text data-rows="0">No row was found.</Text>
            ) : (
              <ListTable
                minWidth={Math.max(320, columns.length * 140)}
                verticalSpacing="xs"
                withTableBorder
                aria-label={extraction.schema.name || 'Rows'}
                data-rows={rows.length}
                columns={columns.map((c) => ({ key: c.key, title: c.label }))}
              >
                {rows.map((row, r) => (
                  <Table.Tr key={r}>
                    {row.cells.map((cell) => (
                      <Table.Td key={cell.key} title={cell.cell?.explanation}>
                        {cell.text ?? (
                          <Text span c="dimmed">
                            —
                          </Text>
                        )}
                        <div>
                          <CellCitations
                            refs={cell.cell?.referenceIds}
                            annotations={annotations}
                            label={`row ${r + 1}, ${cell.key}`}
                            quote={cell.text}
                          />
                        </div>
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </ListTable>
            )}
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
