import { ActionIcon, Alert, Button, Card, Group, Stack } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { describeError } from '../../api/client';
import { navigate } from '../../router/router';

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
