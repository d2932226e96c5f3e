import { Alert, Anchor, Badge, Button, Card, Code, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { describeError, unwrap } from '../../api/client';
import { useAsync } from '../../lib/use-async';
import { Link } from '../../router/router';
import { paths } from '../../router/routes';
import { useApi } from '../../session/session';
import { filterSummary, triggerTitle, type Rule, type Trigger } from './rules-data';

/** Every trigger of the pipeline, and whether (and how) the namespace's rule lets it run. */
export function RulesPage() {
  const api = useApi();
  const triggers = useAsync((signal) => unwrap(api.GET('/v1/rules/triggers', { signal })), [api]);
  const rules = useAsync((signal) => unwrap(api.GET('/v1/rules', { signal })), [api]);

  const error = triggers.error ?? rules.error;
  return (
    <Stack>
      <Stack gap={4}>
        <Title order={1}>Rules</Title>
        <Text c="dimmed" size="sm">
          A rule decides, for this namespace, whether a pipeline step (a trigger) runs for a file or a batch of nodes. A change applies to
          the very next operation; deleting a rule turns its trigger off.
          {rules.data && (
            <>
              {' '}
              Namespace: <Code>{rules.data.namespace}</Code>.
            </>
          )}
        </Text>
      </Stack>
      {error ? (
        <Alert color="red" title="Could not load the rules" role="alert">
          {describeError(error)}
        </Alert>
      ) : !triggers.data || !rules.data ? (
        <Loader aria-label="Loading rules" />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
          {triggers.data.triggers.map((t) => (
            <TriggerCard key={t.trigger_id} trigger={t} rule={rules.data?.rules.find((r) => r.trigger_id === t.trigger_id) ?? null} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

export function RuleStateBadge({ rule }: { rule: Rule | null }) {
  if (!rule) {
    return (
      <Badge color="gray" variant="light" data-rule-state="none">
        No rule: off
      </Badge>
    );
  }
  if (rule.problems?.length) {
    return (
      <Badge color="orange" variant="light" data-rule-state="problems">
        Rule set, does not run
      </Badge>
    );
  }
  return (
    <Badge color="green" variant="light" data-rule-state="set">
      Rule set
    </Badge>
  );
}

function TriggerCard({ trigger, rule }: { trigger: Trigger; rule: Rule | null }) {
  const headingId = `trigger-${trigger.trigger_id}`;
  return (
    <Card withBorder component="section" aria-labelledby={headingId} data-trigger={trigger.trigger_id} padding="md">
      <Stack gap="xs" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Title order={2} size="h4" id={headingId}>
            <Anchor component={Link} href={paths.rule(trigger.trigger_id)} c="inherit">
              {triggerTitle(trigger.trigger_id)}
            </Anchor>
          </Title>
          <RuleStateBadge rule={rule} />
        </Group>
        <Group gap="xs">
          <Code>{trigger.trigger_id}</Code>
          <Badge variant="outline" color={trigger.execution_mode === 'critical' ? 'red' : 'blue'} size="sm">
            {trigger.execution_mode}
          </Badge>
        </Group>
        <Text size="sm">{trigger.description}</Text>
        <Text size="xs" c="dimmed">
          Runs on {trigger.hook_points.join(', ')}
        </Text>
        <div style={{ flex: 1 }}>
          <Text size="sm" fw={500}>
            Filter
          </Text>
          {rule ? (
            <Code block data-filter style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {filterSummary(rule.filter)}
            </Code>
          ) : (
            <Text size="sm" c="dimmed">
              None: the trigger does not run in this namespace.
            </Text>
          )}
          {!!rule?.problems?.length && (
            <Text size="xs" c="orange.8" mt={4}>
              {rule.problems.length} problem{rule.problems.length === 1 ? '' : 's'} with this stored filter: replace it to run again.
            </Text>
          )}
        </div>
        <Button
          component={Link}
          href={paths.rule(trigger.trigger_id)}
          variant="light"
          aria-label={`${rule ? 'Edit' : 'Create'} the rule of ${trigger.trigger_id}`}
        >
          {rule ? 'Edit rule' : 'Create rule'}
        </Button>
      </Stack>
    </Card>
  );
}
