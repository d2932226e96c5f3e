import { Button, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { describeError, unwrap, type ProviderItem } from '../../api/client';
import { DialogActions, DialogError, NameDialog } from '../../layout/dialogs';
import { nameOf, nameProblem } from '../../lib/keys';
import { useApi } from '../../session/session';

function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

export function NewFolderModal(props: { opened: boolean; providerId: string; dir: string; onClose(): void; onDone(key: string): void }) {
  const api = useApi();
  const [name, setName] = useState('');
  const action = useAction();
  useEffect(() => {
    if (props.opened) {
      setName('');
      action.setError(null);
    }
  }, [props.opened]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = nameProblem(name);
    if (problem) return action.setError(problem);
    const key = `${props.dir}${name.trim()}/`;
    void action.run(async () => {
      await unwrap(
        api.POST('/api/core/providers/{providerId}/items', { params: { path: { providerId: props.providerId } }, body: { key } }),
      );
      props.onClose();
      props.onDone(key);
    });
  };

  return (
    <NameDialog
      opened={props.opened}
      onClose={props.onClose}
      title="New folder"
      label="Folder name"
      value={name}
      onChange={setName}
      onSubmit={submit}
      error={action.error}
      busy={action.busy}
      submitLabel="Create"
    />
  );
}

export function RenameItemModal(props: {
  item: ProviderItem | null;
  providerId: string;
  onClose(): void;
  onDone(item: ProviderItem): void;
}) {
  const api = useApi();
  const [name, setName] = useState('');
  const action = useAction();
  const item = props.item;
  useEffect(() => {
    if (item) {
      setName(nameOf(item.key));
      action.setError(null);
    }
  }, [item]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!item) return;
    const problem = nameProblem(name);
    if (problem) return action.setError(problem);
    void action.run(async () => {
      const renamed = await unwrap(
        api.PATCH('/api/core/providers/{providerId}/items', {
          params: { path: { providerId: props.providerId }, query: { newName: name.trim() } },
          body: { key: item.key },
        }),
      );
      props.onClose();
      props.onDone(renamed);
    });
  };

  return (
    <NameDialog
      opened={!!item}
      onClose={props.onClose}
      title={item ? `Rename ${nameOf(item.key)}` : 'Rename'}
      label="New name"
      value={name}
      onChange={setName}
      onSubmit={submit}
      error={action.error}
      busy={action.busy}
      submitLabel="Rename"
    />
  );
}

export function DeleteItemModal(props: {
  item: ProviderItem | null;
  providerId: string;
  onClose(): void;
  onDone(item: ProviderItem): void;
}) {
  const api = useApi();
  const action = useAction();
  const item = props.item;
  useEffect(() => action.setError(null), [item]);

  const confirm = () => {
    if (!item) return;
    void action.run(async () => {
      await unwrap(
        api.DELETE('/api/core/providers/{providerId}/items', {
          params: { path: { providerId: props.providerId } },
          body: { key: item.key },
        }),
      );
      props.onClose();
      props.onDone(item);
    });
  };

  const folder = item?.type === 'FOLDER';
  return (
    <Modal opened={!!item} onClose={props.onClose} title={item ? `Delete ${nameOf(item.key)}?` : 'Delete'}>
      <Stack>
        <Text>
          {folder
            ? 'The folder and everything in it will be deleted from the provider. This cannot be undone.'
            : 'The file will be deleted from the provider. This cannot be undone.'}
        </Text>
        <DialogError error={action.error} />
        <DialogActions onCancel={props.onClose} autofocusCancel>
          <Button color="red" onClick={confirm} loading={action.busy}>
            Delete
          </Button>
        </DialogActions>
      </Stack>
    </Modal>
  );
}
