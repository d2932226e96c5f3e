import { Accordion, Alert, Button, Card, Code, Group, Loader, Paper, Stack, Text, Textarea } from '@mantine/core';
import { getAnnotations, type AgentTrace } from '@docintel/api-client';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { describeError, unwrap, type Api } from '../../api/client';
import { useAsync } from '../../lib/use-async';
import { navigate } from '../../router/router';
import { paths } from '../../router/routes';
import { useApi } from '../../session/session';
import { Citations, EngineNote, JobStatusCard } from './components';
import { useJob } from './job-api';
import { filesInput, TargetPicker, type Target } from './pickers';
import { isTerminal } from './values';

interface Turn {
  message: string;
  jobId: string;
}

/**
 * A conversation with the agent: each message is an agent job (stateful mode); a follow-up names
 * the conversation (`conversation_id`) and reads the files of its latest turn.
 */
export function AgentPanel({ jobId }: { jobId: string | null }) {
  const api = useApi();
  const [target, setTarget] = useState<Target>({ mode: 'files', fileIds: [] });
  const [turns, setTurns] = useState<Turn[]>([]);
  const [conversationId, setConversationId] = useState<string | null>(null);
  const [settled, setSettled] = useState<Record<string, boolean>>({});
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Jobs of this conversation sent from this page: their `?job=` needs no restoring.
  const known = useRef(new Set<string>());

  // A reload of `?job=`: the conversation up to that turn (each turn's message from its job's
  // inputs), continued from there.
  useEffect(() => {
    if (!jobId || known.current.has(jobId)) return;
    const controller = new AbortController();
    const { signal } = controller;
    restoreConversation(api, jobId, signal).then(
      ({ turns: restored, conversationId: conversation }) => {
        if (signal.aborted) return;
        for (const t of restored) known.current.add(t.jobId);
        setTurns(restored);
        if (conversation) setConversationId(conversation);
      },
      (err: unknown) => !signal.aborted && setError(describeError(err)),
    );
    return () => controller.abort();
  }, [api, jobId]);

  const waiting = turns.some((t) => !settled[t.jobId]);
  const first = turns.length === 0 || !conversationId;

  const send = (e: FormEvent) => {
    e.preventDefault();
    const text = message.trim();
    if (!text) return setError('Write a message.');
    const files = filesInput(target);
    if (first && !files) return setError('Pick the files (or the collection) the agent may read.');
    setBusy(true);
    setError(null);
    unwrap(
      api.POST('/api/core/agent/jobs', {
        body: { message: text, ...(conversationId ? { conversation_id: conversationId } : {}), ...(first && files ? { files } : {}) },
      }),
    ).then(
      (job) => {
        setBusy(false);
        setMessage('');
        known.current.add(job.jobId);
        setTurns((ts) => [...ts, { message: text, jobId: job.jobId }]);
        navigate(paths.jobs('agent', job.jobId), { replace: true });
      },
      (err: unknown) => {
        setBusy(false);
        setError(describeError(err));
      },
    );
  };

  const restart = () => {
    setTurns([]);
    setConversationId(null);
    setSettled({});
    setError(null);
    navigate(paths.jobs('agent'), { replace: true });
  };

  return (
    <Stack>
      {first && turns.length === 0 && (
        <Card withBorder component="section" aria-label="What the agent may read">
          <TargetPicker value={target} onChange={setTarget} />
        </Card>
      )}
      <Stack gap="md" aria-label="Conversation" role="log" aria-live="polite">
        {turns.map((t) => (
          <AgentTurn
            key={t.jobId}
            turn={t}
            onSettled={(conversation) => {
              setSettled((s) => ({ ...s, [t.jobId]: true }));
              if (conversation) setConversationId(conversation);
            }}
          />
        ))}
      </Stack>
      <Card withBorder component="form" onSubmit={send} aria-label="New message">
        <Stack gap="xs">
          <Textarea
            label={first ? 'Message' : 'Follow-up message'}
            placeholder="Which of these files mention a notice period, and what does each say?"
            autosize
            minRows={2}
            value={message}
            onChange={(e) => setMessage(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) e.currentTarget.form?.requestSubmit();
            }}
            description="Ctrl+Enter sends"
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="space-between">
            <Button variant="default" onClick={restart} disabled={turns.length === 0}>
              New conversation
            </Button>
            <Button type="submit" loading={busy} disabled={waiting}>
              Send
            </Button>
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}

function AgentTurn({ turn, onSettled }: { turn: Turn; onSettled: (conversationId: string | undefined) => void }) {
  const api = useApi();
  const { jobId } = turn;
  const state = useJob('agent', jobId);
  const status = state.job?.status;
  const terminal = isTerminal(status);
  const outputs = useAsync(
    async (signal) =>
      terminal
        ? Promise.all([
            unwrap(api.GET('/api/core/agent/jobs/{jobId}/results', { params: { path: { jobId } }, signal })),
            getAnnotations(api, 'agent', jobId, signal),
            unwrap(api.GET('/api/core/agent/jobs/{jobId}/trace', { params: { path: { jobId } }, signal })).catch(() => null),
          ])
        : null,
    [api, jobId, terminal],
  );
  const [results, annotations, trace] = outputs.data ?? [null, undefined, null];
  useEffect(() => {
    if (results || (terminal && outputs.error) || state.error) onSettled(results?.conversationId);
  }, [results, terminal, outputs.error, state.error]);

  return (
    <Stack gap="xs" data-turn={jobId}>
      <Paper withBorder p="sm" bg="var(--mantine-color-blue-light)" ml={{ base: 0, sm: 'xl' }} aria-label="You">
        <Text size="xs" fw={600} c="dimmed">
          You
        </Text>
        <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{turn.message}</Text>
      </Paper>
      <Paper withBorder p="sm" mr={{ base: 0, sm: 'xl' }} component="section" aria-label="Agent answer">
        <Stack gap="xs">
          <Text size="xs" fw={600} c="dimmed">
            Agent
          </Text>
          {!terminal && <JobStatusCard {...state} onCancel={state.cancel} />}
          {terminal && status !== 'SUCCESS' && <JobStatusCard {...state} onCancel={state.cancel} />}
          {outputs.error ? (
            <Alert color="red" role="alert">
              {describeError(outputs.error)}
            </Alert>
          ) : null}
          {terminal && !results && !outputs.error && <Loader size="sm" aria-label="Loading the answer" />}
          {results && (
            <>
              {typeof results.answer === 'string' ? (
                <Text fw={500} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-agent-answer={results.answer}>
                  {results.answer || 'No answer.'}
                </Text>
              ) : (
                <Code block data-agent-answer="">
                  {JSON.stringify(results.answer, null, 2)}
                </Code>
              )}
              {results.explanation && (
                <Text size="sm" c="dimmed">
                  {results.explanation}
                </Text>
              )}
              <EngineNote engine={trace?.engine} />
              <Citations refs={results.referenceIds} annotations={annotations} />
              {trace && trace.steps.length > 0 && <Trace trace={trace} />}
            </>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}

const clip = (text: string, max = 400) => (text.length > max ? `${text.slice(0, max)}…` : text);

function Trace({ trace }: { trace: AgentTrace }) {
  return (
    <Accordion variant="contained" chevronPosition="left">
      <Accordion.Item value="trace">
        <Accordion.Control>
          How it was answered ({trace.steps.length} {trace.steps.length === 1 ? 'step' : 'steps'}, {trace.engine})
        </Accordion.Control>
        <Accordion.Panel>
          <Stack gap="xs" aria-label="Trace steps">
            {trace.steps.map((s, i) => (
              <div key={i} data-step={s.tool}>
                <Group gap="xs">
                  <Text size="sm" fw={600}>
                    {i + 1}. {s.tool}
                  </Text>
                  <Text size="xs" c="dimmed">
                    iteration {s.iteration}
                    {s.attempt > 1 ? `, attempt ${s.attempt}` : ''}, {s.durationMs} ms
                  </Text>
                </Group>
                <Code block fz="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {clip(JSON.stringify(s.arguments))}
                </Code>
                {s.error && (
                  <Text size="xs" c="red">
                    {s.error}
                  </Text>
                )}
              </div>
            ))}
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}

const messageOf = (inputs: { message?: string; messages?: Array<{ content: string }> }) =>
  inputs.message ?? inputs.messages?.at(-1)?.content ?? '';

/** The turns of the conversation a job belongs to, oldest first, up to that job. */
async function restoreConversation(api: Api, jobId: string, signal: AbortSignal): Promise<{ turns: Turn[]; conversationId?: string }> {
  const inputsOf = (id: string) => unwrap(api.GET('/api/core/agent/jobs/{jobId}/inputs', { params: { path: { jobId: id } }, signal }));
  const inputs = await inputsOf(jobId);
  const conversationId = inputs.conversationId ?? undefined;
  if (!conversationId) return { turns: [{ jobId, message: messageOf(inputs) }] };
  const page = await unwrap(api.GET('/api/core/agent/jobs', { params: { query: { conversationId, page: 0, pageSize: 100 } }, signal }));
  const at = page.data.find((j) => j.jobId === jobId)?.createdTime ?? Number.POSITIVE_INFINITY;
  const earlier = page.data.filter((j) => j.jobId !== jobId && j.createdTime <= at).sort((a, b) => a.createdTime - b.createdTime);
  const turns = await Promise.all(earlier.map(async (j) => ({ jobId: j.jobId, message: messageOf(await inputsOf(j.jobId)) })));
  return { turns: [...turns, { jobId, message: messageOf(inputs) }], conversationId };
}
