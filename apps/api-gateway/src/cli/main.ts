import { parseArgs } from 'node:util';
import { USAGE, UsageError } from './usage';

// The commands (the pg driver, the identity schema's SQL) are loaded only once one runs, so that
// the help and a usage error load nothing else.
async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      namespace: { type: 'string' },
      user: { type: 'string' },
      name: { type: 'string' },
      'expires-in-days': { type: 'string' },
      file: { type: 'string' },
      url: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [group, verb, arg] = positionals;
  if (values.help || !group) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const { runCommand } = await import('./commands');
  return runCommand(group, verb, arg, values);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (err: unknown) => {
    const { InvalidRequestError } = await import('./identity-store');
    if (err instanceof UsageError) process.stderr.write(`${err.message}\n\n${USAGE}\n`);
    else if (err instanceof InvalidRequestError)
      process.stderr.write(`${err.message}${err.details.map((d) => `\n  ${d.field}: ${d.problem}`).join('')}\n`);
    else process.stderr.write(`${(err as Error).message}\n`);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
