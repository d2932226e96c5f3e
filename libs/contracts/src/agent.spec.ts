import 'reflect-metadata';
import { agentModeProblems, AGENT_LIMITS, CreateAgentJobRequestDto, ListAgentJobsQueryDto } from './agent';
import type { DomainError } from './errors';
import { validatePayload } from './validation';

const CONVERSATION = '3f2b8c1e-1a2b-4c3d-8e9f-0a1b2c3d4e5f';

async function validate<T extends object>(
  cls: new () => T,
  body: unknown,
): Promise<{ value?: T; problems: Array<{ field: string; problem: string }> }> {
  try {
    return { value: await validatePayload(cls, body), problems: [] };
  } catch (err) {
    return { problems: (err as DomainError).details };
  }
}

describe('CreateAgentJobRequestDto', () => {
  it('accepts both modes, roles and model presets in any case', async () => {
    const stateful = await validate(CreateAgentJobRequestDto, {
      message: 'What is the notice period?',
      conversation_id: CONVERSATION,
      completion_config: { model: 'fast', temperature: 0.2, max_completion_tokens: 500 },
      max_iterations: 5,
      output_model_schema: { type: 'object', properties: { days: { type: 'integer' } } },
    });
    expect(stateful.problems).toEqual([]);
    expect(stateful.value!.completion_config!.model).toBe('FAST');
    expect(agentModeProblems(stateful.value!)).toEqual([]);

    const stateless = await validate(CreateAgentJobRequestDto, {
      messages: [
        { role: 'SYSTEM', content: 'Be brief.' },
        { role: 'User', content: 'Hello' },
      ],
      files: { fileIds: [CONVERSATION] },
    });
    expect(stateless.problems).toEqual([]);
    expect(stateless.value!.messages!.map((m) => m.role)).toEqual(['system', 'user']);
    expect(agentModeProblems(stateless.value!)).toEqual([]);
  });

  it('names the field and the problem of a bad body', async () => {
    const { problems } = await validate(CreateAgentJobRequestDto, {
      messages: [{ role: 'robot', content: 1 }],
      conversation_id: 'nope',
      max_iterations: AGENT_LIMITS.maxIterations + 1,
      completion_config: { model: 'HUGE', temperature: 3 },
      output_model_schema: ['not', 'a', 'schema'],
    });
    expect([...new Set(problems.map((p) => p.field))].sort()).toEqual(
      [
        'completion_config.model',
        'completion_config.temperature',
        'conversation_id',
        'max_iterations',
        'messages[0].content',
        'messages[0].role',
        'output_model_schema',
      ].sort(),
    );
  });

  it('allows one mode at a time, and a stateless conversation ends with the user', () => {
    const req = (body: Partial<CreateAgentJobRequestDto>) => Object.assign(new CreateAgentJobRequestDto(), body);
    expect(agentModeProblems(req({}))).toEqual([{ field: 'message', problem: expect.stringContaining('is required') }]);
    // JSON null is no message at all, as for any optional field.
    expect(agentModeProblems(req({ message: null, messages: null } as never)).map((p) => p.field)).toEqual(['message']);
    expect(agentModeProblems(req({ message: 'hi', messages: null, conversation_id: null } as never))).toEqual([]);
    expect(agentModeProblems(req({ message: 'hi', messages: [{ role: 'user', content: 'hi' }] })).map((p) => p.field)).toEqual([
      'messages',
    ]);
    expect(
      agentModeProblems(req({ messages: [{ role: 'user', content: 'hi' }], conversation_id: CONVERSATION })).map((p) => p.field),
    ).toEqual(['conversation_id']);
    expect(
      agentModeProblems(
        req({
          messages: [
            { role: 'user', content: 'hi' },
            { role: 'assistant', content: 'hello' },
          ],
        }),
      ).map((p) => p.field),
    ).toEqual(['messages[1].role']);
  });
});

describe('ListAgentJobsQueryDto', () => {
  it('requires page and pageSize and takes an optional conversation id', async () => {
    expect((await validate(ListAgentJobsQueryDto, { page: '0', pageSize: '20', conversationId: CONVERSATION })).problems).toEqual([]);
    expect((await validate(ListAgentJobsQueryDto, { page: '0' })).problems.map((p) => p.field)).toEqual(['pageSize']);
    expect(
      (await validate(ListAgentJobsQueryDto, { page: '0', pageSize: '20', conversationId: 'x' })).problems.map((p) => p.field),
    ).toEqual(['conversationId']);
  });
});
