import { Alert, Anchor, Breadcrumbs, Button, Code, Grid, Group, List, Loader, Modal, Stack, Text, Textarea, Title } from '@mantine/core';
import { getHotkeyHandler, useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { DocintelApiError, describeError, statusOf, unwrap } from '../../api/client';
import { formatTime } from '../../lib/format';
import { useAsync } from '../../lib/use-async';
import { Link } from '../../router/router';
import { paths } from '../../router/routes';
import { useApi } from '../../session/session';
import { checkFilter, compileFilterSchema, describeProblem, formatFilter, parseJson, type FilterProblem } from './filter-validation';
import { RuleStateBadge } from './RulesPage';
import { describeKeySchema, loadRule, triggerTitle, type Rule, type Trigger } from './rules-data';

/** How long typing pauses before the filter is checked again. */
const DEBOUNCE_MS = 300;

/** One trigger's rule: its filter edited as JSON, checked against the trigger's schema as it is typed. */
export function RulePage({ triggerId }: { triggerId: string }) {
  const api = useApi();
  const triggers = useAsync((signal) => unwrap(api.GET('/v1/rules/triggers', { signal })), [api]);
  const schema = useAsync(
    (signal) => unwrap(api.GET('/v1/rules/triggers/{trigger_id}/schema', { params: { path: { trigger_id: triggerId } }, signal })),
    [api, triggerId],
  );
  const rule = useAsync((signal) => loadRule(api, triggerId, signal), [api, triggerId]);

  const crumbs = (
    <Breadcrumbs aria-label="Rule path">
      <Anchor component={Link} href={paths.rules()}>
        Rules
      </Anchor>
      <Text span>{triggerId}</Text>
    </Breadcrumbs>
  );

  const error = schema.error ?? rule.error ?? triggers.error;
  if (error) {
    return (
      <Stack>
        {crumbs}
        <Alert
          color="red"
          title={statusOf(schema.error) === 404 ? `There is no trigger named ${triggerId}` : 'Could not load this rule'}
          role="alert"
        >
          {describeError(error)}
        </Alert>
      </Stack>
    );
  }
  if (!schema.data || rule.data === undefined || !triggers.data) return <Loader aria-label="Loading rule" />;
  const trigger = triggers.data.triggers.find((t) => t.trigger_id === triggerId);
  return (
    <Stack>
      {crumbs}
      <RuleEditor key={triggerId} triggerId={triggerId} trigger={trigger} schema={schema.data.schema} initial={rule.data} />
    </Stack>
  );
}

type Outcome =
  { kind: 'saved'; status: number; rule: Rule } | { kind: 'deleted' } | { kind: 'refused'; error: unknown; action: 'save' | 'delete' };

function RuleEditor(props: { triggerId: string; trigger: Trigger | undefined; schema: Record<string, unknown>; initial: Rule | null }) {
  const { triggerId, trigger, schema } = props;
  const api = useApi();
  const [stored, setStored] = useState<Rule | null>(props.initial);
  const storedText = formatFilter(stored?.filter ?? {});
  const [text, setText] = useState(storedText);
  const [debounced] = useDebouncedValue(text, DEBOUNCE_MS);
  const validator = useMemo(() => compileFilterSchema(schema), [schema]);
  const check = useMemo(() => checkFilter(debounced, validator), [debounced, validator]);
  const checking = debounced !== text;
  const [busy, setBusy] = useState<'save' | 'delete' | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [confirming, setConfirming] = useState(false);

  const dirty = useMemo(() => {
    if (!stored) return true;
    const parsed = parseJson(text);
    return parsed.ok ? JSON.stringify(parsed.value) !== JSON.stringify(stored?.filter ?? {}) : true;
  }, [text, stored]);

  const save = async () => {
    // The text may be newer than the last check (typed within the debounce): check it now.
    const now = checkFilter(text, validator);
    if (!now.ok || busy) return;
    setBusy('save');
    setOutcome(null);
    try {
      const result = await api.PUT('/v1/rules/{trigger_id}', { params: { path: { trigger_id: triggerId } }, body: { filter: now.filter } });
      const saved = unwrap(result);
      setStored(saved);
      setText(formatFilter(saved.filter));
      setOutcome({ kind: 'saved', status: result.response.status, rule: saved });
    } catch (error) {
      setOutcome({ kind: 'refused', error, action: 'save' });
    } finally {
      setBusy(null);
    }
  };

  const remove = async () => {
    setBusy('delete');
    setOutcome(null);
    try {
      await unwrap(api.DELETE('/v1/rules/{trigger_id}', { params: { path: { trigger_id: triggerId } } }));
      setStored(null);
      setOutcome({ kind: 'deleted' });
    } catch (error) {
      // Deleted meanwhile (another tab, the API): the rule is gone all the same.
      if (statusOf(error) === 404) setStored(null);
      setOutcome({ kind: 'refused', error, action: 'delete' });
    } finally {
      setBusy(null);
      setConfirming(false);
    }
  };

  const reset = () => {
    setText(storedText);
    setOutcome(null);
  };

  const invalid = !check.ok;
  const properties = (schema.properties ?? {}) as Record<string, { description?: string }>;

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1}>{triggerTitle(triggerId)}</Title>
          <Group gap="xs">
            <Code>{triggerId}</Code>
            <RuleStateBadge rule={stored} />
            {trigger && (
              <Text size="sm" c="dimmed">
                {trigger.execution_mode}, runs on {trigger.hook_points.join(', ')}
              </Text>
            )}
          </Group>
        </Stack>
      </Group>
      {trigger && <Text size="sm">{trigger.description}</Text>}

      {stored ? (
        <Text size="sm" c="dimmed" data-rule-times>
          Rule of namespace <Code>{stored.namespace}</Code>, created {formatTime(Date.parse(stored.created_at))}, updated{' '}
          {formatTime(Date.parse(stored.updated_at))}.
        </Text>
      ) : (
        <Alert color="gray" title="No rule" role="note">
          {triggerId} does not run in this namespace. Save a filter to create its rule ({'{}'} matches everything).
        </Alert>
      )}
      {!!stored?.problems?.length && (
        <Alert color="orange" title="The stored filter no longer fits the trigger's schema" role="note">
          It was written before the current limits; it does not run until it is replaced.
          <List size="sm" mt="xs">
            {stored.problems.map((p, i) => (
              <List.Item key={i}>
                <Code>{p.field}</Code>: {p.problem}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      {stored?.filter_truncated && (
        <Alert color="orange" title="The stored filter is shortened" role="note">
          The stored filter is larger than the size limit; what is shown is its beginning. Saving replaces it with what is in the editor.
        </Alert>
      )}
      {validator.compileError && (
        <Alert color="yellow" title="The trigger's schema could not be used in the browser" role="note">
          {validator.compileError}. The filter is checked as JSON here, and against the schema by the server when saved.
        </Alert>
      )}

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="sm">
            <Textarea
              label="Filter (JSON)"
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              onKeyDown={getHotkeyHandler([['mod+Enter', () => void save()]])}
              autosize
              minRows={8}
              maxRows={24}
              spellCheck={false}
              autoCapitalize="off"
              autoCorrect="off"
              data-filter-editor
              // The border turns red on a problem; the JSON itself stays readable in the text colour.
              styles={{
                input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13, color: 'var(--mantine-color-text)' },
                error: { fontSize: 'var(--mantine-font-size-sm)' },
              }}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              description={<ValidationStatus checking={checking} problems={check.problems} dirty={dirty} />}
              error={invalid ? <ProblemList problems={check.problems} /> : undefined}
            />
            <Group gap="xs">
              <Button onClick={() => void save()} disabled={invalid || busy !== null} loading={busy === 'save'}>
                {stored ? 'Save rule' : 'Create rule'}
              </Button>
              <Button variant="default" onClick={reset} disabled={text === storedText}>
                Reset to the stored rule
              </Button>
              <Button variant="outline" color="red" onClick={() => setConfirming(true)} disabled={!stored || busy !== null}>
                Delete rule
              </Button>
            </Group>
            <Text size="xs" c="dimmed">
              Ctrl+Enter (⌘+Enter) saves. Save is turned off while the filter has problems.
            </Text>
            <OutcomeMessage outcome={outcome} triggerId={triggerId} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <section aria-labelledby="filter-keys">
            <Title order={2} size="h4" id="filter-keys" mb="xs">
              Keys of this filter
            </Title>
            <Text size="sm" c="dimmed" mb="xs">
              A filter matches when every key it sets matches; absent keys match everything. See docs/rules.md.
            </Text>
            <Stack gap="xs">
              {Object.entries(properties).map(([key, prop]) => (
                <div key={key} data-filter-key={key}>
                  <Group gap={6}>
                    <Code>{key}</Code>
                    <Text size="xs" c="dimmed">
                      {describeKeySchema(prop)}
                    </Text>
                  </Group>
                  {prop.description && <Text size="sm">{prop.description}</Text>}
                </div>
              ))}
            </Stack>
          </section>
        </Grid.Col>
      </Grid>

      <Modal opened={confirming} onClose={() => setConfirming(false)} title={`Delete the rule of ${triggerId}?`}>
        <Stack>
          <Text size="sm">
            {triggerId} stops running in this namespace from the next operation on, until a rule is created again. Work already started
            finishes under the current rule.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
              Cancel
            </Button>
            <Button color="red" onClick={() => void remove()} loading={busy === 'delete'}>
              Delete rule
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** Under the editor, always present (a live region): valid, checking, or how many problems. */
function ValidationStatus({ checking, problems, dirty }: { checking: boolean; problems: FilterProblem[]; dirty: boolean }) {
  const state = checking ? 'checking' : problems.length ? 'invalid' : 'valid';
  return (
    <span role="status" data-validation={state}>
      {checking
        ? 'Checking…'
        : problems.length
          ? `${problems.length} problem${problems.length === 1 ? '' : 's'}: the filter cannot be saved`
          : `Valid filter${dirty ? ', not saved yet' : ', as stored'}`}
    </span>
  );
}

/** The problems, one a line (inside Mantine's error paragraph, hence spans). */
function ProblemList({ problems }: { problems: FilterProblem[] }) {
  const shown = problems.slice(0, 50);
  return (
    <>
      {shown.map((p, i) => (
        <span key={i} style={{ display: 'block' }} data-problem={p.kind}>
          {describeProblem(p)}
        </span>
      ))}
      {problems.length > shown.length && <span style={{ display: 'block' }}>… and {problems.length - shown.length} more</span>}
    </>
  );
}

function OutcomeMessage({ outcome, triggerId }: { outcome: Outcome | null; triggerId: string }) {
  if (!outcome) return null;
  if (outcome.kind === 'saved') {
    return (
      <Alert color="green" title={outcome.status === 201 ? 'Rule created (201)' : 'Rule saved (200)'} role="status" data-outcome="saved">
        <Text size="sm">The server stored this rule; it applies to the next operation.</Text>
        <Code block mt="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {JSON.stringify(outcome.rule, null, 2)}
        </Code>
      </Alert>
    );
  }
  if (outcome.kind === 'deleted') {
    return (
      <Alert color="gray" title="Rule deleted (204)" role="status" data-outcome="deleted">
        {triggerId} is off in this namespace. Saving a filter creates its rule again.
      </Alert>
    );
  }
  const err = outcome.error;
  const details = err instanceof DocintelApiError ? err.details : [];
  const title =
    err instanceof DocintelApiError
      ? `The server refused to ${outcome.action} the rule (${err.status} ${err.code})`
      : `Could not ${outcome.action} the rule`;
  return (
    <Alert color="red" title={title} role="alert" data-outcome="refused">
      <Text size="sm">{err instanceof DocintelApiError ? err.message : describeError(err)}</Text>
      {details.length > 0 && (
        <List size="sm" mt="xs">
          {details.map((d, i) => (
            <List.Item key={i} data-server-problem={d.field}>
              <Code>{d.field}</Code>: {d.problem}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
