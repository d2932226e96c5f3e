import { Stack, Tabs, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { navigate } from '../../router/router';
import { JOB_TABS, paths, type JobTab } from '../../router/routes';
import { AgentPanel } from './AgentPanel';
import { ExtractionPanel } from './ExtractionPanel';
import { JobHistory } from './JobHistory';
import { QaPanel } from './QaPanel';
import { SimilarPanel } from './SimilarPanel';
import { TablePanel } from './TablePanel';

export const JOB_TAB_LABELS: Record<JobTab, string> = {
  qa: 'Questions',
  extraction: 'Extraction',
  table: 'Table extraction',
  similar: 'Find similar',
  agent: 'Agent',
};

const INTRO: Record<JobTab, string> = {
  qa: 'Ask questions of indexed files or a collection; each answer is typed and cites where it was read.',
  extraction: 'Name the metadata fields to read from each file; the values come as a table per file.',
  table: 'Describe the columns of a table; rows are read across the files, each cell citing its source.',
  similar: 'Pick a file to find the indexed files most like it.',
  agent: 'Talk with an agent that searches and reads the files, and cites what it answers from.',
};

/**
 * "Ask and extract": one tab per job kind; `?job=` shows (and follows) a job of that kind, and the
 * tab's past jobs are listed under it.
 */
export function JobsPage({ kind, jobId }: { kind: JobTab; jobId: string | null }) {
  const panel: Record<JobTab, () => ReactNode> = {
    qa: () => <QaPanel jobId={jobId} />,
    extraction: () => <ExtractionPanel jobId={jobId} />,
    table: () => <TablePanel jobId={jobId} />,
    similar: () => <SimilarPanel jobId={jobId} />,
    agent: () => <AgentPanel jobId={jobId} />,
  };
  return (
    <Stack>
      <Title order={1}>Ask and extract</Title>
      <Tabs value={kind} onChange={(tab) => tab && navigate(paths.jobs(tab as JobTab))} keepMounted={false}>
        <Tabs.List aria-label="Job kinds">
          {JOB_TABS.map((t) => (
            <Tabs.Tab key={t} value={t}>
              {JOB_TAB_LABELS[t]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {JOB_TABS.map((t) => (
          <Tabs.Panel key={t} value={t} pt="md">
            {t === kind && (
              <Stack>
                <Text c="dimmed" size="sm">
                  {INTRO[t]}
                </Text>
                {panel[t]()}
                <JobHistory tab={t} current={jobId} />
              </Stack>
            )}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
