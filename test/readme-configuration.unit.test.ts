/**
 * README "Configuration" against EnvSchema: the table names every variable a process reads, and nothing else.
 */
import { ENV_VARIABLES } from '@crew/platform';
import { read } from './manifests';

/** The variable names in the first column of the table under "## Configuration" (a cell may name several). */
function tableVariables(): string[] {
  const readme = read('README.md');
  const start = readme.indexOf('\n## Configuration\n');
  expect(start).toBeGreaterThan(-1);
  const section = readme.slice(start + 1).split(/\n## /)[0]!;
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  expect(rows.length).toBeGreaterThan(0);
  return rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
}

describe('README configuration table', () => {
  it('names every EnvSchema variable', () => {
    const named = new Set(tableVariables());
    expect(ENV_VARIABLES.filter((v) => !named.has(v))).toEqual([]);
  });

  it('names no variable EnvSchema does not have', () => {
    const known = new Set<string>(ENV_VARIABLES);
    expect(tableVariables().filter((v) => !known.has(v))).toEqual([]);
  });
});
