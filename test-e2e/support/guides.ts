import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A ```bash or ```sh block of a Markdown file, with the reason it is not run when the doc marks it so. */
export interface ShellExample {
  doc: string;
  line: number;
  code: string;
  notRun?: string;
}

const NOT_RUN = /^<!--\s*not run:\s*(.+?)\s*-->$/;

/** The shell examples of one Markdown file, in the order written (fences may be indented, as in lists). */
export function shellExamples(doc: string, markdown: string): ShellExample[] {
  const lines = markdown.split('\n');
  const examples: ShellExample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(bash|sh)\s*$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]); j++) body.push(lines[j].slice(Math.min(indent, lines[j].search(/\S|$/))));
    const previous = lines
      .slice(0, i)
      .reverse()
      .find((l) => l.trim() !== '');
    const notRun = previous ? NOT_RUN.exec(previous.trim())?.[1] : undefined;
    examples.push({ doc, line: i + 1, code: body.join('\n'), ...(notRun ? { notRun } : {}) });
    i = j;
  }
  return examples;
}

/** What one example printed, and the shell variables a document's examples left behind. */
export interface GuideRun {
  outputs: { example: ShellExample; output: string }[];
  failed?: { example: ShellExample; status: number; output: string };
  vars: Record<string, string>;
}

const MARK = '__docintel_example_end__';

/**
 * Runs a document's examples in one bash, one after another as a reader pastes them into a
 * terminal, stopping at the first that fails (errexit and pipefail: a command that fails, a wait
 * that gives up). `rewrite` adapts the text to the test stack (its URL); `env` is the environment.
 */
export async function runGuide(
  examples: ShellExample[],
  opts: { cwd: string; env: Record<string, string>; rewrite: (code: string) => string; timeoutMs: number },
): Promise<GuideRun> {
  const dir = mkdtempSync(join(tmpdir(), 'docintel-guide-'));
  const state = join(dir, 'vars');
  const parts = ['set -eo pipefail', `trap 'declare -p > ${state}' EXIT`];
  examples.forEach((e, i) => parts.push(opts.rewrite(e.code), `echo; echo "${MARK} ${i}"`));
  writeFileSync(join(dir, 'guide.sh'), parts.join('\n') + '\n');
  const { status, output } = await new Promise<{ status: number; output: string }>((resolve) => {
    execFile(
      'bash',
      [join(dir, 'guide.sh')],
      { cwd: opts.cwd, env: opts.env, timeout: opts.timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) =>
        resolve({
          status: err ? (typeof err.code === 'number' ? err.code : 124) : 0,
          output: `${stdout}${stderr ? `\n[stderr]\n${stderr}` : ''}`,
        }),
    );
  });
  const vars = readVars(state);
  rmSync(dir, { recursive: true, force: true });
  const chunks = output.split(new RegExp(`^${MARK} \\d+$`, 'm'));
  const outputs = chunks.slice(0, -1).map((output, i) => ({ example: examples[i], output }));
  const done = outputs.length;
  return {
    outputs,
    vars,
    ...(status !== 0 || done < examples.length ? { failed: { example: examples[done], status, output: chunks[done] ?? output } } : {}),
  };
}

function readVars(file: string): Record<string, string> {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  const vars: Record<string, string> = {};
  for (const m of text.matchAll(/^declare -[-x]+ ([A-Za-z_][A-Za-z0-9_]*)="(.*)"$/gm)) vars[m[1]] = m[2];
  return vars;
}

/** HTTP statuses of the error bodies an example printed: `{"status":404,"error":...}`. */
export function errorStatuses(output: string): number[] {
  return [...output.matchAll(/\{"status":(\d{3}),"error":/g)].map((m) => Number(m[1]));
}
