import { Alert, Anchor, Button, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { listJobs, type JobKind } from '@docintel/api-client';
import { useState } from 'react';
import { describeError } from '../../api/client';
import { ListTable } from '../../layout/list-table';
import { formatTime } from '../../lib/format';
import { useAsync } from '../../lib/use-async';
import { Link } from '../../router/router';
import { paths, type JobTab } from '../../router/routes';
import { useApi } from '../../session/session';
import { JobStatusBadge } from './components';

/** The job kind behind each tab of "Ask and extract". */
export const KIND_OF_TAB: Record<JobTab, JobKind> = {
  qa: 'qa',
  extraction: 'extraction',
  table: 'multi-dim-extraction',
  similar: 'find-similar',
  agent: 'agent',
};

const PAGE_SIZE = 10;

/**
 * The caller's past jobs of one kind (agent conversations on the Agent tab), newest first, from the
 * API's list route: each opens its page again (`?job=`), with its inputs and results. Read again
 * whenever the job shown changes, so a job just created is at the top.
 */
export function JobHistory({ tab, current }: { tab: JobTab; current: string | null }) {
  const api = useApi();
  const [page, setPage] = useState(0);
  const jobs = useAsync((signal) => listJobs(api, KIND_OF_TAB[tab], { page, pageSize: PAGE_SIZE }, signal), [api, tab, page, current]);
  const label = tab === 'agent' ? 'Past conversations' : 'Past jobs';

  return (
    <Card withBorder component="section" aria-label={label}>
      <Stack gap="xs">
        <Title order={2} size="h5">
          {label}
        </Title>
        {jobs.error ? (
          <Alert color="red" role="alert" p="xs">
            {describeError(jobs.error)}
          </Alert>
        ) : null}
        {!jobs.data && !jobs.error && <Loader size="sm" aria-label={`Loading ${label.toLowerCase()}`} />}
        {jobs.data && jobs.data.data.length === 0 && page === 0 && (
          <Text size="sm" c="dimmed">
            None yet: what you run here is listed, and can be opened again with its results.
          </Text>
        )}
        {jobs.data && jobs.data.data.length > 0 && (
          <ListTable minWidth={320} verticalSpacing={4} columns={['Job', 'Status', 'Created']}>
            {jobs.data.data.map((job) => (
              <Table.Tr key={job.jobId} data-history-job={job.jobId} aria-current={job.jobId === current ? 'page' : undefined}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Anchor component={Link} href={paths.jobs(tab, job.jobId)} fw={job.jobId === current ? 700 : undefined}>
                    {('name' in job && job.name) || `${job.jobId.slice(0, 8)}…`}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <JobStatusBadge status={job.status} listed />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatTime(job.createdTime)}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
        {jobs.data && (page > 0 || jobs.data.hasNext) && (
          <Group gap="xs">
            <Button variant="default" size="xs" disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
              Newer
            </Button>
            <Button variant="default" size="xs" disabled={!jobs.data.hasNext} onClick={() => setPage((p) => p + 1)}>
              Older
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
