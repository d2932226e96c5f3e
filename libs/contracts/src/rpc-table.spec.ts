import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import * as ts from 'typescript';
import * as contracts from './index';
import { HealthPings, RpcCalls, rpcOwner } from './rpc-calls';
import type { RpcCall } from './rpc';

// docs/architecture.md lists the calls between services (and the JetStream messages, where contracts
// defines them) in tables rendered from the definitions in libs/contracts. This test renders them
// and fails when the document says something else. Regenerate with:
const REGENERATE = 'UPDATE_DOCS=1 npx jest libs/contracts/src/rpc-table.spec.ts';

const ROOT = join(__dirname, '../../..');
const DOC = join(ROOT, 'docs/architecture.md');
const START = '<!-- calls:start (generated from libs/contracts by libs/contracts/src/rpc-table.spec.ts) -->';
const END = '<!-- calls:end -->';

type AnyCall = RpcCall<unknown, unknown>;

/** The reply type of each exported call definition, as the compiler names it (`Page<ProviderDto>`). */
function replyTypes(): Map<AnyCall, string> {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.lint.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!parsed) throw new Error('cannot read tsconfig.lint.json');
  const file = join(__dirname, 'rpc-calls.ts');
  const program = ts.createProgram({ rootNames: [file], options: { ...parsed.options, noEmit: true } });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file) as ts.SourceFile;
  const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;
  const reply = (callType: ts.Type): string => {
    const types = checker.getNonNullableType(checker.getTypeOfSymbol(callType.getProperty('types') as ts.Symbol));
    return checker.typeToString(checker.getTypeOfSymbol(types.getProperty('reply') as ts.Symbol), undefined, flags);
  };
  const out = new Map<AnyCall, string>();
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(source) as ts.Symbol);
  const typeOf = (name: string) => checker.getTypeOfSymbol(exported.find((s) => s.name === name) as ts.Symbol);
  for (const [name, call] of Object.entries(RpcCalls)) out.set(call, reply(typeOf(name)));
  const pings = typeOf('HealthPings');
  for (const [service, call] of Object.entries(HealthPings))
    out.set(call, reply(checker.getTypeOfSymbol(pings.getProperty(service) as ts.Symbol)));
  return out;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    // testing/ holds the harnesses of specs: a call they make to drive a service is no caller of it.
    if (statSync(path).isDirectory()) return ['dist', 'node_modules', 'testing'].includes(name) ? [] : sourceFiles(path);
    return /\.ts$/.test(name) && !/\.(int-)?spec\.ts$/.test(name) ? [path] : [];
  });
}

/**
 * Who sends each call, read from the code: an app that calls `rpc.call(Def, ...)` (or `callJson`) itself, or that uses
 * the class of a library which does (RulesClient in libs/rules).
 */
function callers(): Map<AnyCall, Set<string>> {
  const byName = new Map<string, AnyCall>([
    ...Object.entries(RpcCalls),
    ...Object.entries(HealthPings).map(([service, call]) => [`HealthPings.${service}`, call] as [string, AnyCall]),
  ]);
  const apps = readdirSync(join(ROOT, 'apps')).map((app) => ({
    app,
    text: sourceFiles(join(ROOT, 'apps', app, 'src'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n'),
  }));
  const out = new Map<AnyCall, Set<string>>();
  const add = (call: AnyCall, app: string) => out.set(call, (out.get(call) ?? new Set()).add(app));
  for (const file of [...sourceFiles(join(ROOT, 'apps')), ...sourceFiles(join(ROOT, 'libs'))]) {
    const text = readFileSync(file, 'utf8');
    const [top, pkg] = relative(ROOT, file).split(sep);
    for (const m of text.matchAll(/\.call(?:Json)?\(\s*([\w.]+)\s*,/g)) {
      const call = byName.get(m[1]);
      if (!call) continue;
      if (top === 'apps') add(call, pkg);
      else {
        const classes = [...text.matchAll(/export class (\w+)/g)].map((c) => c[1]);
        for (const { app, text: appText } of apps) if (classes.some((c) => new RegExp(`\\b${c}\\b`).test(appText))) add(call, app);
      }
    }
  }
  return out;
}

function isStreamMessage(v: unknown): v is { kind: string; subject: string; stream: { name: string }; payload: { name: string } } {
  const m = v as Record<string, unknown> | null;
  return (
    !!m &&
    typeof m === 'object' &&
    typeof m.kind === 'string' &&
    typeof m.subject === 'string' &&
    typeof m.payload === 'function' &&
    !!m.stream
  );
}

/** The JetStream messages contracts defines (hook points, work queues, domain events), wherever exported. */
function streamMessages() {
  const seen = new Map<string, { kind: string; subject: string; stream: { name: string }; payload: { name: string } }>();
  for (const value of Object.values(contracts)) {
    if (!value || typeof value !== 'object') continue;
    for (const m of Object.values(value as Record<string, unknown>)) if (isStreamMessage(m)) seen.set(m.subject, m);
  }
  return [...seen.values()];
}

export function renderTables(): string {
  const replies = replyTypes();
  const from = callers();
  const row = (call: AnyCall) => {
    const request = call.request ? `\`${call.request.name}\`` : 'none';
    const who = [...(from.get(call) ?? [])].sort().join(', ') || '—';
    return `| \`${call.subject}\` | ${request} | \`${replies.get(call)}\` | ${who} → ${rpcOwner(call)} |`;
  };
  const lines = [
    START,
    '',
    '| subject | request (validated class) | reply | caller(s) → owner |',
    '|---|---|---|---|',
    ...Object.values(RpcCalls).map(row),
    ...Object.values(HealthPings).map(row),
  ];
  const messages = streamMessages();
  if (messages.length) {
    lines.push(
      '',
      'JetStream messages defined in contracts (`libs/contracts/src/streams.ts`):',
      '',
      '| subject | kind | stream | payload (validated class) |',
      '|---|---|---|---|',
    );
    for (const m of messages) lines.push(`| \`${m.subject}\` | ${m.kind} | \`${m.stream.name}\` | \`${m.payload.name}\` |`);
  }
  lines.push('', END);
  return lines.join('\n');
}

describe('docs/architecture.md', () => {
  it('lists the calls between services as libs/contracts defines them', () => {
    const doc = readFileSync(DOC, 'utf8');
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    const tables = renderTables();
    if (process.env.UPDATE_DOCS) {
      if (start < 0 || end < start) throw new Error(`docs/architecture.md needs the markers\n${START}\n${END}`);
      writeFileSync(DOC, doc.slice(0, start) + tables + doc.slice(end + END.length));
      return;
    }
    const current = start >= 0 && end > start ? doc.slice(start, end + END.length) : '(no table between the markers)';
    if (current !== tables) {
      throw new Error(
        `docs/architecture.md's table of calls differs from libs/contracts; regenerate it with\n  ${REGENERATE}\n\nExpected:\n${tables}`,
      );
    }
  }, 120_000);
});
