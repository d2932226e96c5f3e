import { Alert, Anchor, Button, Card, Group, List, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { describeError, unwrap } from '../../api/client';
import { useAsync } from '../../lib/use-async';
import { Link, navigate } from '../../router/router';
import { paths } from '../../router/routes';
import { useApi } from '../../session/session';
import { documentLink } from '../../router/document-links';
import { QaJob } from '../jobs/QaPanel';
import { filesToAsk } from './files-to-ask';

/** Passages searched for a question; the files of the best of them are the ones asked. */
const SEARCHED = 12;
/** The longest question the search takes (SearchPassagesRequestDto). */
const QUESTION_CHARS = 2000;

/**
 * "Ask everything": one box that searches every indexed file of the namespace (the passage search
 * the jobs use), shows the files whose passages match best, and asks the question over those files
 * as a QA job, whose answer and citations are shown as on the Questions tab. The URL keeps the
 * question and the job (`/ask?q=…&job=…`), so a reload, Back or a shared link shows the same answer.
 */
export function AskPage({ question, jobId }: { question: string | null; jobId: string | null }) {
  const api = useApi();
  const [draft, setDraft] = useState(question ?? '');
  useEffect(() => setDraft(question ?? ''), [question]);
  const search = useAsync(
    (signal) =>
      question
        ? unwrap(api.POST('/api/core/passages/search', { body: { query: question, limit: SEARCHED }, signal }))
        : Promise.resolve(null),
    [api, question],
  );
  const files = filesToAsk(search.data?.passages ?? []);
  const fileKey = files.map((f) => f.fileId).join(',');

  // Once the search has named the files, the question is asked over them (once per question).
  const [askError, setAskError] = useState<unknown>(null);
  const asked = useRef<string | null>(null);
  useEffect(() => {
    if (!question || jobId || !fileKey || asked.current === question) return;
    asked.current = question;
    setAskError(null);
    unwrap(
      api.POST('/api/core/qa/jobs', {
        body: {
          name: question.slice(0, 200),
          files: { fileIds: fileKey.split(',') },
          questions: [{ id: 'q1', question, answerType: { dataType: 'STRING', multiValued: false } }],
        },
      }),
    ).then(
      (job) => navigate(paths.ask(question, job.jobId), { replace: true }),
      (err: unknown) => setAskError(err),
    );
  }, [api, question, jobId, fileKey]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const q = draft.trim();
    if (q) navigate(paths.ask(q));
  };

  return (
    <Stack>
      <Title order={1}>Ask everything</Title>
      <Card withBorder component="form" onSubmit={submit} aria-label="Ask everything">
        <Group align="flex-end" wrap="wrap" gap="xs">
          <TextInput
            label="Question or keywords"
            description="Searches every indexed file of the namespace, then asks over the files that match best."
            placeholder="What is the notice period of the supplier contract?"
            value={draft}
            maxLength={QUESTION_CHARS}
            onChange={(e) => setDraft(e.currentTarget.value)}
            style={{ flex: '1 1 320px' }}
          />
          <Button type="submit" disabled={!draft.trim()}>
            Ask
          </Button>
        </Group>
      </Card>
      {question && search.error ? (
        <Alert color="red" role="alert">
          {describeError(search.error)}
        </Alert>
      ) : null}
      {question && search.loading && !search.data && <Loader size="sm" aria-label="Searching" />}
      {question && search.data && files.length === 0 && (
        <Alert color="gray" role="status" data-no-match="">
          Nothing in your indexed files matches this question. Index more files, or try other words.
        </Alert>
      )}
      {files.length > 0 && (
        <Card withBorder component="section" aria-label="Files read">
          <Stack gap="xs">
            <Title order={2} size="h5">
              Read from
            </Title>
            <List spacing="xs" size="sm">
              {files.map((f) => (
                <List.Item key={f.fileId} data-read-file={f.fileId}>
                  <Anchor component={Link} href={paths.file(f.fileId)} fw={500}>
                    {f.fileName}
                  </Anchor>
                  <Text size="sm" c="dimmed" lineClamp={2}>
                    <Anchor component={Link} href={documentLink(f.fileId, { nodeId: f.passage.id })} c="dimmed" size="sm">
                      {f.passage.text}
                    </Anchor>
                  </Text>
                </List.Item>
              ))}
            </List>
          </Stack>
        </Card>
      )}
      {askError ? (
        <Alert color="red" role="alert">
          {describeError(askError)}
        </Alert>
      ) : null}
      {jobId && <QaJob key={jobId} jobId={jobId} />}
    </Stack>
  );
}
