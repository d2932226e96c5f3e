import { ActionIcon, Alert, Button, Card, Group, Stack } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { describeError } from '../../api/client';
import { navigate } from '../../router/router';
import type { Target } from './pickers';

/** A list of draft rows (questions, fields, columns) edited in place. */
export function useRows<T>(initial: () => T[]) {
  const [rows, setRows] = useState<T[]>(initial);
  return {
    rows,
    update: (i: number, patch: Partial<T>) => setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r))),
    add: (row: T) => setRows((rs) => [...rs, row]),
    remove: (i: number) => setRows((rs) => rs.filter((_, j) => j !== i)),
    /** Stable across renders (the state setter itself). */
    replace: setRows as (next: T[]) => void,
  };
}

/** Creating a job: busy while the request runs, then its page, or the server's reason on the form. */
export function useJobSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = (created: Promise<{ jobId: string }>, pageOf: (jobId: string) => string) => {
    setBusy(true);
    setError(null);
    created.then(
      (job) => {
        setBusy(false);
        navigate(pageOf(job.jobId));
      },
      (err: unknown) => {
        setBusy(false);
        setError(describeError(err));
      },
    );
  };
  return { busy, error, setError, start };
}

/** The frame every new-job form shares: its fields, the error, "add a row" and submit. */
export function JobForm(props: {
  label: string;
  onSubmit: () => void;
  busy: boolean;
  error: string | null;
  submitLabel: string;
  add?: { label: string; onClick: () => void; disabled: boolean };
  children: ReactNode;
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit();
  };
  return (
    <Card withBorder component="form" onSubmit={submit} aria-label={props.label}>
      <Stack>
        {props.children}
        {props.error && (
          <Alert color="red" role="alert">
            {props.error}
          </Alert>
        )}
        <Group justify={props.add ? 'space-between' : 'flex-end'}>
          {props.add && (
            <Button variant="default" onClick={props.add.onClick} disabled={props.add.disabled}>
              {props.add.label}
            </Button>
          )}
          <Button type="submit" loading={props.busy}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** The × that removes one row; shown only while more than one row is left. */
export function RemoveRowButton({ label, onClick, hidden }: { label: string; onClick: () => void; hidden: boolean }) {
  if (hidden) return null;
  return (
    <ActionIcon variant="subtle" color="red" mb={4} aria-label={label} onClick={onClick}>
      ×
    </ActionIcon>
  );
}

/** What a job was run on, as the form's target. */
export function targetOf(files: { fileIds?: string[]; collectionIds?: string[] }): Target {
  const collectionId = files.collectionIds?.[0];
  return collectionId ? { mode: 'collection', collectionId } : { mode: 'files', fileIds: files.fileIds ?? [] };
}

/**
 * A job's page opened with an empty form (a reload, Back from a citation, a past job): the form is
 * filled with what that job was given (`readInputs`, then `fill`), ready to change and run again.
 * A form already written is left alone; a failed read leaves it empty (the job's card says why).
 */
export function useRefill<I>(
  jobId: string | null,
  pristine: boolean,
  readInputs: (jobId: string, signal: AbortSignal) => Promise<I>,
  fill: (inputs: I) => void,
): void {
  const state = useRef({ pristine, readInputs, fill });
  state.current = { pristine, readInputs, fill };
  useEffect(() => {
    if (!jobId || !state.current.pristine) return;
    const controller = new AbortController();
    state.current.readInputs(jobId, controller.signal).then(
      (inputs) => {
        if (!controller.signal.aborted && state.current.pristine) state.current.fill(inputs);
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [jobId]);
}
