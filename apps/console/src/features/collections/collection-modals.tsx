import { Button, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import type { Collection } from '@docintel/api-client';
import { useEffect, useState, type FormEvent } from 'react';
import { describeError, unwrap } from '../../api/client';
import { DialogActions, DialogError } from '../../layout/dialogs';
import { useApi } from '../../session/session';

/** Create (no `collection`) or rename and describe (`collection`) a collection. */
export function CollectionFormModal(props: {
  opened: boolean;
  collection?: Collection | null;
  onClose(): void;
  onDone(c: Collection): void;
}) {
  const api = useApi();
  const editing = props.collection ?? null;
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (props.opened) {
      setName(editing?.name ?? '');
      setDescription(editing?.description ?? '');
      setError(null);
    }
  }, [props.opened, editing]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError('Enter a name');
    setBusy(true);
    const request = editing
      ? unwrap(
          api.PATCH('/api/core/collections/{id}', {
            params: { path: { id: editing.id.id } },
            body: { name: name.trim(), description: description.trim() || null },
          }),
        )
      : unwrap(
          api.POST('/api/core/collections', {
            body: { name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) },
          }),
        );
    request.then(
      (c) => {
        setBusy(false);
        props.onClose();
        props.onDone(c);
      },
      (err: unknown) => {
        setBusy(false);
        setError(describeError(err));
      },
    );
  };

  return (
    <Modal opened={props.opened} onClose={props.onClose} title={editing ? `Rename ${editing.name}` : 'New collection'}>
      <form onSubmit={submit}>
        <Stack>
          <TextInput label="Collection name" value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus required />
          <Textarea label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} autosize minRows={2} />
          <DialogError error={error} />
          <DialogActions onCancel={props.onClose}>
            <Button type="submit" loading={busy}>
              {editing ? 'Save' : 'Create'}
            </Button>
          </DialogActions>
        </Stack>
      </form>
    </Modal>
  );
}

export function DeleteCollectionModal(props: { collection: Collection | null; onClose(): void; onDone(): void }) {
  const api = useApi();
  const c = props.collection;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setError(null), [c]);
  const confirm = () => {
    if (!c) return;
    setBusy(true);
    unwrap(api.DELETE('/api/core/collections/{id}', { params: { path: { id: c.id.id } } })).then(
      () => {
        setBusy(false);
        props.onClose();
        props.onDone();
      },
      (err: unknown) => {
        setBusy(false);
        setError(describeError(err));
      },
    );
  };
  return (
    <Modal opened={!!c} onClose={props.onClose} title={c ? `Delete ${c.name}?` : 'Delete'}>
      <Stack>
        <Text>The collection goes; its {c?.filesCount ?? 0} files stay indexed. This cannot be undone.</Text>
        <DialogError error={error} />
        <DialogActions onCancel={props.onClose}>
          <Button color="red" onClick={confirm} loading={busy} data-autofocus>
            Delete
          </Button>
        </DialogActions>
      </Stack>
    </Modal>
  );
}
