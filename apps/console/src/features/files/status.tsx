import { Badge, Loader } from '@mantine/core';
import type { IndexationStatus } from '../../api/client';

const COLORS: Record<IndexationStatus, string> = {
  PENDING: 'gray',
  RUNNING: 'blue',
  SUCCESS: 'teal',
  FAILED: 'red',
  ABORTED: 'orange',
};

/** Indexation is still going: keep polling. */
export const isActive = (status: IndexationStatus | undefined): boolean => status === 'PENDING' || status === 'RUNNING';

export function StatusBadge({ status }: { status: IndexationStatus }) {
  return (
    <Badge
      color={COLORS[status]}
      variant="light"
      leftSection={isActive(status) ? <Loader size={10} color={COLORS[status]} /> : undefined}
      data-status={status}
    >
      {status}
    </Badge>
  );
}
