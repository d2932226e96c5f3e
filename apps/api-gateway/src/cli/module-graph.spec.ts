import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * A command of the CLI loads only what it runs: the pg driver and the identity schema's pure
 * functions, never TypeORM, Nest, @nestjs/swagger (through @docintel/contracts) or class-validator,
 * which cost more than a second of CPU together. This walks the static imports a command loads
 * (main.ts, then commands.ts, which main.ts imports once a command runs); an `await import()`
 * inside a function is the way to load something heavy on one path only (the migrations of a new
 * database, a CommonEnv variable to check). scripts/test/cli-modules.test.js checks the build.
 */

const ROOT = resolve(__dirname, '../../../..');
const ALLOWED_PACKAGES = ['pg', 'validator'];

function staticImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      const typesOnly =
        clause?.isTypeOnly ||
        (clause && !clause.name && bindings && ts.isNamedImports(bindings) && bindings.elements.every((e) => e.isTypeOnly));
      if (!typesOnly) specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specifiers;
}

function resolveSource(from: string, specifier: string): string {
  const base = specifier.startsWith('@docintel/')
    ? join(ROOT, 'libs', specifier.slice('@docintel/'.length), 'src', 'index')
    : resolve(dirname(from), specifier);
  const file = [`${base}.ts`, join(base, 'index.ts')].find((f) => existsSync(f));
  if (!file) throw new Error(`cannot resolve ${specifier} from ${from}`);
  return file;
}

/** Every source file and package reached from the entries by static imports. */
function moduleGraph(entries: string[]): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of staticImports(file)) {
      if (specifier.startsWith('.') || specifier.startsWith('@docintel/')) visit(resolveSource(file, specifier));
      else if (!specifier.startsWith('node:') && !builtinModules.includes(specifier))
        packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);
    }
  };
  entries.forEach((entry) => visit(join(__dirname, entry)));
  return { files: [...files].map((f) => f.slice(ROOT.length + 1)).sort(), packages: [...packages].sort() };
}

describe('the modules a CLI command loads', () => {
  const graph = moduleGraph(['main.ts', 'commands.ts']);

  it('are the pg driver and validator among packages, no other', () => {
    expect(graph.packages.filter((p) => !ALLOWED_PACKAGES.includes(p))).toEqual([]);
  });

  it('include no library of docintel (persistence loads TypeORM, contracts @nestjs/swagger, config class-validator)', () => {
    expect(graph.files.filter((f) => f.startsWith('libs/'))).toEqual([]);
  });

  it('reach the identity schema through its light files only', () => {
    expect(graph.files.filter((f) => f.includes('/identity/'))).toEqual([
      'apps/api-gateway/src/identity/identity-rules.ts',
      'apps/api-gateway/src/identity/token-format.ts',
    ]);
  });
});
