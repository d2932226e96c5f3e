import { Alert, Anchor, Badge, Blockquote, Button, Card, Group, List, Loader, Popover, Progress, Stack, Text } from '@mantine/core';
import type { Annotation, FindSimilarJob, Job, JobStatus } from '@docintel/api-client';
import { useEffect, useRef } from 'react';
import { describeError } from '../../api/client';
import { Link } from '../../router/router';
import { citationTarget, documentLink } from '../../router/document-links';
import { citationsFor, describeTarget, type Reference } from './citations';
import { download, exportName } from './export';
import { confidenceView, engineLabel } from './confidence';
import { formatSeconds, isTerminal, jobTimes, progressOf, typedValue, typeLabel, type AnswerType, type DataValue } from './values';

const COLORS: Record<JobStatus, string> = {
  PENDING: 'gray',
  RUNNING: 'blue',
  SUCCESS: 'teal',
  COMPLETED: 'teal',
  FAILED: 'red',
  ABORTED: 'orange',
};

/** A status badge; the one of the job shown carries `data-job-status`, a past job's in a list `data-listed-status`. */
export function JobStatusBadge({ status, listed = false }: { status: JobStatus; listed?: boolean }) {
  return (
    <Badge
      color={COLORS[status]}
      variant="light"
      leftSection={isTerminal(status) ? undefined : <Loader size={10} color={COLORS[status]} />}
      {...(listed ? { 'data-listed-status': status } : { 'data-job-status': status })}
    >
      {status}
    </Badge>
  );
}

/** "Run again" of a failed or aborted job (job-api.ts useRunAgain). */
export interface RunAgain {
  run: (name?: string) => void;
  busy: boolean;
  error: unknown;
}

/**
 * A job's state: status, time queued and time running, progress while it runs, the reason it
 * failed (with "Run again"), a cancel button, and a note while the server is busy and the job is
 * still being followed.
 */
export function JobStatusCard(props: {
  job: Job | FindSimilarJob | null;
  error: unknown;
  busy?: unknown;
  cancelling: boolean;
  cancelError: unknown;
  onCancel: () => void;
  runAgain?: RunAgain;
}) {
  const { job, error, busy, runAgain } = props;
  // After Ask the card appears under the form, often below the fold: bring it into view once.
  const card = useRef<HTMLElement>(null);
  const jobId = job?.jobId;
  useEffect(() => {
    if (jobId) card.current?.scrollIntoView?.({ block: 'nearest' });
  }, [jobId]);
  if (error) {
    return (
      <Alert color="red" title="Could not follow this job" role="alert">
        {describeError(error)}
      </Alert>
    );
  }
  const busyNote = busy ? (
    <Alert color="yellow" role="status" p="xs" data-server-busy="">
      The server is busy ({describeError(busy)}). Still following this job: checking again shortly.
    </Alert>
  ) : null;
  if (!job) return busyNote ?? <Loader aria-label="Loading job" />;
  const progress = progressOf(job.progress);
  const times = jobTimes(job, Date.now());
  const again = runAgain && (job.status === 'FAILED' || job.status === 'ABORTED');
  return (
    <Card ref={card} withBorder component="section" aria-label="Job status" data-job={job.jobId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
            <JobStatusBadge status={job.status} />
            {'name' in job && job.name ? (
              <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                {job.name}
              </Text>
            ) : null}
            <Text size="sm" c="dimmed" data-job-times="">
              {job.status === 'PENDING'
                ? `queued ${formatSeconds(times.queuedS)}`
                : `queued ${formatSeconds(times.queuedS)} · ran ${formatSeconds(times.runningS)}`}
            </Text>
          </Group>
          {!isTerminal(job.status) && (
            <Button variant="default" color="red" size="xs" onClick={props.onCancel} loading={props.cancelling}>
              Cancel job
            </Button>
          )}
          {again && (
            <Button size="xs" onClick={() => runAgain.run('name' in job ? job.name || undefined : undefined)} loading={runAgain.busy}>
              Run again
            </Button>
          )}
        </Group>
        {busyNote}
        {!isTerminal(job.status) && (
          <div role="status">
            {progress ? (
              <>
                <Progress value={progress.percent} aria-label="Job progress" animated />
                <Text size="xs" c="dimmed" mt={4}>
                  {progress.text}
                </Text>
              </>
            ) : (
              <Text size="sm" c="dimmed">
                {job.status === 'PENDING' ? 'Waiting to start…' : 'Running…'}
              </Text>
            )}
          </div>
        )}
        {job.errorMessage && (
          <Alert color={job.status === 'FAILED' ? 'red' : 'orange'} role={job.status === 'FAILED' ? 'alert' : 'status'} p="xs">
            {job.errorMessage}
          </Alert>
        )}
        {props.cancelError ? (
          <Alert color="red" role="alert" p="xs">
            {describeError(props.cancelError)}
          </Alert>
        ) : null}
        {runAgain?.error ? (
          <Alert color="red" role="alert" p="xs">
            {describeError(runAgain.error)}
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}

/** A typed answer: its values (a list for a multi-valued one) and its type. */
export function TypedAnswer({ value, type, raw }: { value: DataValue | undefined; type?: AnswerType; raw?: string | null }) {
  const typed = typedValue(value);
  if (!typed) {
    return raw ? (
      <Text data-answer>{raw}</Text>
    ) : (
      <Text c="dimmed" fs="italic" data-answer="">
        Not found
      </Text>
    );
  }
  return (
    <Group gap="xs" align="baseline" wrap="wrap">
      {typed.list ? (
        <List size="sm" data-answer={typed.values.join('; ')}>
          {typed.values.map((v, i) => (
            <List.Item key={i}>{v}</List.Item>
          ))}
        </List>
      ) : (
        <Text fw={600} size="lg" data-answer={typed.values[0]} style={{ overflowWrap: 'anywhere' }}>
          {typed.values[0]}
        </Text>
      )}
      <Badge variant="outline" size="sm" color="gray" data-answer-kind={typed.kind}>
        {type ? typeLabel(type) : typed.kind}
      </Badge>
    </Group>
  );
}

/**
 * How sure an answer is: its band in words and its percentage, coloured by band (the words carry
 * the meaning; the colour only repeats it), with a sentence for screen readers.
 */
export function ConfidenceBadge({ confidence, size = 'sm' }: { confidence: number; size?: 'xs' | 'sm' }) {
  const view = confidenceView(confidence);
  return (
    <Badge
      variant={view.band === 'high' ? 'light' : 'filled'}
      color={view.color}
      autoContrast
      size={size}
      title={view.description}
      aria-label={view.description}
      data-confidence-band={view.band}
    >
      {view.label} · {view.percent}
    </Badge>
  );
}

/** No answer: says so, with the reason the engine gave. */
export function NotFound({ reason }: { reason: string | undefined }) {
  return (
    <Alert color="gray" variant="light" p="xs" title="Not found" data-not-found="" styles={{ title: { marginBottom: reason ? 2 : 0 } }}>
      {reason ? (
        <Text size="sm" data-not-found-reason="">
          {reason}
        </Text>
      ) : null}
    </Alert>
  );
}

/** Which engine answered: "Answered by the built-in engine (builtin)". */
export function EngineNote({ engine }: { engine: string | undefined | null }) {
  if (!engine) return null;
  const words = engineLabel(engine);
  return (
    <Text size="xs" c="dimmed" data-engine={engine}>
      Answered by {words}
      {words !== engine ? ` (${engine})` : ''}
    </Text>
  );
}

/**
 * One citation: the file, where in it, the quoted text, a link to the document view there. `quote`
 * (the answer as written in the document) lets the view mark the sentence that holds it.
 */
export function CitationItem({ annotation, quote }: { annotation: Annotation; quote?: string | null }) {
  const data = annotation.data;
  const target = citationTarget(data);
  const where = describeTarget(target);
  // The span the answer was read from, when the job names it; else the answer as written.
  const trimmed = (data.quote ?? quote)?.trim();
  return (
    <div data-citation={data.documentName}>
      <Group gap="xs" wrap="wrap">
        <Anchor component={Link} href={documentLink(data.documentId, trimmed ? { ...target, quote: trimmed } : target)} size="sm" fw={500}>
          {data.documentName}
          {where ? `, ${where}` : ''}
        </Anchor>
      </Group>
      <Blockquote p="xs" mt={4} fz="sm" style={{ overflowWrap: 'anywhere' }}>
        {data.content}
      </Blockquote>
    </div>
  );
}

/** The citations `refs` name, or nothing when there are none. */
export function Citations({
  refs,
  annotations,
  quote,
  title = 'Citations',
}: {
  refs: readonly Reference[] | undefined;
  annotations: Annotation[] | undefined;
  quote?: string | null;
  title?: string;
}) {
  const cited = citationsFor(refs, annotations);
  if (cited.length === 0) return null;
  return (
    <Stack gap={6} aria-label={title} role="group">
      <Text size="xs" fw={600} tt="uppercase" c="dimmed">
        {title}
      </Text>
      {cited.map((a) => (
        <CitationItem key={a.id.id} annotation={a} quote={quote} />
      ))}
    </Stack>
  );
}

/** The citations of a table cell, behind a small button (tables stay readable). */
export function CellCitations({
  refs,
  annotations,
  label,
  quote,
}: {
  refs: readonly Reference[] | undefined;
  annotations: Annotation[] | undefined;
  label: string;
  quote?: string | null;
}) {
  const cited = citationsFor(refs, annotations);
  if (cited.length === 0) return null;
  return (
    <Popover width={360} position="bottom-start" withArrow shadow="md">
      <Popover.Target>
        <Button variant="subtle" size="compact-xs" aria-label={`Citations of ${label}`}>
          {cited.length === 1 ? '1 source' : `${cited.length} sources`}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          {cited.map((a) => (
            <CitationItem key={a.id.id} annotation={a} quote={quote} />
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** "Download CSV" and "Download JSON" of a job's results; the file is named after the job. */
export function ExportButtons(props: { jobId: string; name?: string; csv: () => string; json: () => unknown }) {
  return (
    <Group gap="xs" justify="flex-end">
      <Button
        variant="default"
        size="xs"
        onClick={() => download(exportName(props.name, props.jobId, 'csv'), props.csv(), 'text/csv;charset=utf-8')}
      >
        Download CSV
      </Button>
      <Button
        variant="default"
        size="xs"
        onClick={() => download(exportName(props.name, props.jobId, 'json'), JSON.stringify(props.json(), null, 2), 'application/json')}
      >
        Download JSON
      </Button>
    </Group>
  );
}

/**
 * The top of a cited job's results: its status card, the error reading its outputs, and a loader
 * (named `loadingLabel`) while the outputs of a started job are read.
 */
export function JobRunHead(props: {
  run: {
    state: Omit<Parameters<typeof JobStatusCard>[0], 'onCancel' | 'runAgain'> & { cancel: () => void };
    runAgain: RunAgain;
    results: unknown;
    error: unknown;
    status: string | undefined;
  };
  loadingLabel: string;
}) {
  const { state, runAgain, results, error, status } = props.run;
  return (
    <>
      <JobStatusCard {...state} onCancel={state.cancel} runAgain={runAgain} />
      {error ? (
        <Alert color="red" role="alert">
          {describeError(error)}
        </Alert>
      ) : null}
      {!results && status && !error && <Loader size="sm" aria-label={props.loadingLabel} />}
    </>
  );
}
