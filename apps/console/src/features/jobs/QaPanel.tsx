import { Badge, Card, Checkbox, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { unwrap } from '../../api/client';
import { useAsync } from '../../lib/use-async';
import { paths } from '../../router/routes';
import { useApi } from '../../session/session';
import { Citations, ConfidenceBadge, EngineNote, JobRunHead, NotFound, TypedAnswer } from './components';
import { confidenceBand } from './confidence';
import classes from './jobs.module.css';
import { useCitedJobRun } from './job-api';
import { JobForm, RemoveRowButton, targetOf, useJobSubmit, useRefill, useRows } from './job-form';
import { filesInput, TargetPicker, type Target } from './pickers';
import { DATA_TYPES, splitList, type DataType } from './values';

/** The page of a job of this kind (a new job opens there). */
const jobPage = (id: string) => paths.jobs('qa', id);

interface QuestionDraft {
  question: string;
  dataType: DataType;
  multiValued: boolean;
  enumValues: string;
}

const blank = (): QuestionDraft => ({ question: '', dataType: 'STRING', multiValued: false, enumValues: '' });

/** A question as a job was given it, as a row of the form. */
const draftOf = (q: {
  question: string;
  answerType?: { dataType: DataType; multiValued?: boolean; enumValues?: string[] };
}): QuestionDraft => ({
  question: q.question,
  dataType: q.answerType?.dataType ?? 'STRING',
  multiValued: q.answerType?.multiValued ?? false,
  enumValues: (q.answerType?.enumValues ?? []).join(', '),
});

/** Questions with typed answers over files or a collection; the answers with their citations. */
export function QaPanel({ jobId }: { jobId: string | null }) {
  const api = useApi();
  const [target, setTarget] = useState<Target>({ mode: 'files', fileIds: [] });
  const questions = useRows<QuestionDraft>(() => [blank()]);
  const form = useJobSubmit();

  useRefill(
    jobId,
    questions.rows.every((q) => !q.question.trim()) && !filesInput(target),
    (id, signal) => unwrap(api.GET('/api/core/qa/jobs/{jobId}/inputs', { params: { path: { jobId: id } }, signal })),
    (inputs) => {
      questions.replace(inputs.questions.map(draftOf));
      setTarget(targetOf(inputs.files));
    },
  );

  const submit = () => {
    const files = filesInput(target);
    if (!files) return form.setError('Pick at least one file or a collection.');
    const asked = questions.rows.filter((q) => q.question.trim());
    if (!asked.length) return form.setError('Write a question.');
    form.start(
      unwrap(
        api.POST('/api/core/qa/jobs', {
          body: {
            files,
            questions: asked.map((q, i) => ({
              id: `q${i + 1}`,
              question: q.question.trim(),
              answerType: {
                dataType: q.dataType,
                multiValued: q.multiValued,
                ...(q.dataType === 'ENUM' ? { enumValues: splitList(q.enumValues) } : {}),
              },
            })),
          },
        }),
      ),
      jobPage,
    );
  };

  return (
    <Stack>
      <JobForm
        label="New questions"
        onSubmit={submit}
        busy={form.busy}
        error={form.error}
        submitLabel="Ask"
        add={{ label: 'Add a question', onClick: () => questions.add(blank()), disabled: questions.rows.length >= 100 }}
      >
        <TargetPicker value={target} onChange={setTarget} />
        {questions.rows.map((q, i) => (
          <Stack key={i} gap={6}>
            <Group align="flex-end" wrap="wrap" gap="xs">
              <TextInput
                label={`Question ${i + 1}`}
                placeholder="What is the invoice total?"
                value={q.question}
                onChange={(e) => questions.update(i, { question: e.currentTarget.value })}
                style={{ flex: '1 1 260px' }}
              />
              <NativeSelect
                label={`Answer type of question ${i + 1}`}
                value={q.dataType}
                onChange={(e) => questions.update(i, { dataType: e.currentTarget.value as DataType })}
                data={DATA_TYPES.map((t) => ({ value: t.value, label: t.label }))}
                w={170}
              />
              <Checkbox
                label="A list"
                checked={q.multiValued}
                onChange={(e) => questions.update(i, { multiValued: e.currentTarget.checked })}
                mb={8}
                aria-label={`Question ${i + 1} answers with a list`}
              />
              <RemoveRowButton label={`Remove question ${i + 1}`} onClick={() => questions.remove(i)} hidden={questions.rows.length <= 1} />
            </Group>
            {q.dataType === 'ENUM' && (
              <TextInput
                label={`Allowed values of question ${i + 1}`}
                description="Separated by commas"
                value={q.enumValues}
                onChange={(e) => questions.update(i, { enumValues: e.currentTarget.value })}
              />
            )}
          </Stack>
        ))}
      </JobForm>
      {jobId && <QaJob key={jobId} jobId={jobId} />}
    </Stack>
  );
}

/** A QA job: its card, and each answer with how sure it is and its citations. */
export function QaJob({ jobId }: { jobId: string }) {
  const api = useApi();
  const inputs = useAsync(() => unwrap(api.GET('/api/core/qa/jobs/{jobId}/inputs', { params: { path: { jobId } } })), [api, jobId]);
  const run = useCitedJobRun('qa', jobId, jobPage, (signal) =>
    unwrap(api.GET('/api/core/qa/jobs/{jobId}/results', { params: { path: { jobId } }, signal })),
  );
  const { results, annotations } = run;
  const types = new Map((inputs.data?.questions ?? []).map((q) => [q.id, q.answerType]));

  return (
    <Stack>
      <JobRunHead run={run} loadingLabel="Loading answers" />
      {results?.results.map((r) => {
        const band = r.found ? confidenceBand(r.confidence) : 'none';
        return (
          <Card
            withBorder
            key={r.questionId}
            component="section"
            aria-label={`Answer to ${r.question}`}
            data-question={r.questionId}
            data-confidence-band={band}
            className={classes.answer}
          >
            <Stack gap="xs">
              <Title order={3} size="h5">
                {r.question}
              </Title>
              {r.found ? (
                <>
                  <TypedAnswer value={r.answer} type={types.get(r.questionId)} raw={r.rawValue} />
                  <Group gap="xs">
                    <ConfidenceBadge confidence={r.confidence} />
                    {r.expectedAnswer !== undefined && r.answerValidity !== undefined && (
                      <Badge variant="light" color={r.answerValidity >= 1 ? 'teal' : 'red'} size="sm">
                        {r.answerValidity >= 1 ? 'as expected' : 'not as expected'}
                      </Badge>
                    )}
                  </Group>
                  {r.explanation && (
                    <Text size="sm" c="dimmed" data-explanation="">
                      {r.explanation}
                    </Text>
                  )}
                </>
              ) : (
                <NotFound reason={r.explanation} />
              )}
              <EngineNote engine={r.engine} />
              <Citations refs={r.referenceIds} annotations={annotations} quote={r.found ? r.rawValue : null} />
            </Stack>
          </Card>
        );
      })}
    </Stack>
  );
}
