import { AgentRunFailed, type AgentTurn } from './types';

/** The user's new message and the user turn before it, if any. */
export interface UserQuestion {
  message: string;
  previous?: string;
}

/** The last user message is the question; a conversation without one cannot be answered. */
export function userQuestion(messages: AgentTurn[]): UserQuestion {
  const users = messages.filter((m) => m.role === 'user' && m.content.trim());
  const last = users[users.length - 1];
  if (!last) throw new AgentRunFailed('The conversation has no user message to answer');
  const previous = users[users.length - 2]?.content.trim();
  return { message: last.content.trim(), ...(previous ? { previous } : {}) };
}

const FOLLOW_UP_WORDS = /\b(it|its|it's|they|them|their|theirs|that|this|those|these|he|him|his|she|her|hers|same|there)\b/i;
const FOLLOW_UP_START = /^(and|but|also|what about|how about|then|so)\b/i;
const SHORT_WORDS = 4;

/**
 * Whether a message leans on the turn before it: short ("and in 2023?"), opening with "and",
 * "what about", …, or naming something by a pronoun ("what was its revenue?").
 */
export function isFollowUp(message: string): boolean {
  const words = message.split(/\s+/).filter(Boolean);
  return words.length <= SHORT_WORDS || FOLLOW_UP_START.test(message.trim()) || FOLLOW_UP_WORDS.test(message);
}

/** What to search for: the message, with the previous user turn in front when it is a follow-up. */
export function retrievalQuery(q: UserQuestion): string {
  return q.previous && isFollowUp(q.message) ? `${q.previous} ${q.message}` : q.message;
}
