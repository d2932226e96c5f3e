import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';

/** Why a dialog's action failed, read out as an alert; nothing while there is no error. */
export function DialogError({ error }: { error: string | null }) {
  return error ? (
    <Alert color="red" role="alert">
      {error}
    </Alert>
  ) : null;
}

/** A dialog's foot: Cancel, then its own action (`children`). */
export function DialogActions(props: { onCancel(): void; autofocusCancel?: boolean; children: ReactNode }) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={props.onCancel} data-autofocus={props.autofocusCancel || undefined}>
        Cancel
      </Button>
      {props.children}
    </Group>
  );
}

/** A dialog that asks for one name: its field shows the error, its submit button `submitLabel`. */
export function NameDialog(props: {
  opened: boolean;
  onClose(): void;
  title: string;
  label: string;
  value: string;
  onChange(value: string): void;
  onSubmit(e: FormEvent): void;
  error: string | null;
  busy: boolean;
  submitLabel: string;
}) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title}>
      <form onSubmit={props.onSubmit}>
        <Stack>
          <TextInput
            label={props.label}
            value={props.value}
            onChange={(e) => props.onChange(e.currentTarget.value)}
            data-autofocus
            required
            error={props.error}
          />
          <DialogActions onCancel={props.onClose}>
            <Button type="submit" loading={props.busy}>
              {props.submitLabel}
            </Button>
          </DialogActions>
        </Stack>
      </form>
    </Modal>
  );
}
