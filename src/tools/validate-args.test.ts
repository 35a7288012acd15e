// A null optional argument means "omitted" for every tool: OpenAI's strict mode makes the model send
// null for each optional parameter it does not use (formatDefinitions' strict form).
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';
import { createTools } from './create-tools.ts';
import { buildDefinitions } from './definitions.ts';
import { validateArgs } from './validate-args.ts';

const definitions = buildDefinitions();
const REQUIRED: Record<string, Record<string, unknown>> = {
  ls: {},
  read_file: { path: '/src/app.ts' },
  write_file: { path: '/new.ts', content: 'x\n' },
  edit_file: { path: '/src/app.ts', old_string: 'hello', new_string: 'hi' },
  glob: { pattern: '**/*.ts' },
  grep: { pattern: 'greet' },
};

describe('validateArgs: null', () => {
  for (const def of definitions) {
    const optional = Object.keys(def.parameters.properties).filter((key) => !def.parameters.required.includes(key));
    it(`${def.name}: null for every optional argument (${optional.join(', ') || 'none'}) is the same as leaving it out`, () => {
      const nulls = Object.fromEntries(optional.map((key) => [key, null]));
      const omitted = validateArgs(def, REQUIRED[def.name]);
      expect(typeof omitted).toBe('object');
      expect(validateArgs(def, { ...REQUIRED[def.name], ...nulls })).toEqual(omitted);
    });

    for (const key of def.parameters.required) {
      it(`${def.name}: null for the required "${key}" is a missing argument`, () => {
        expect(validateArgs(def, { ...REQUIRED[def.name], [key]: null })).toMatch(new RegExp(`^missing required argument "${key}" for ${def.name}`));
      });
    }
  }
});

it('a strict-mode call with every optional null runs like one without them, for each tool', async () => {
  const run = async (withNulls: boolean) => {
    // A fixed clock: glob lists newest first, and both runs must see the same order.
    const backend = createStateBackend({ files: { '/src/app.ts': 'export const greeting = "hello";\n' }, now: () => 1_764_000_000_000 });
    const tools = createTools(backend);
    const texts: string[] = [];
    for (const def of definitions) {
      const nulls = withNulls
        ? Object.fromEntries(
            Object.keys(def.parameters.properties)
              .filter((k) => !def.parameters.required.includes(k))
              .map((k) => [k, null]),
          )
        : {};
      texts.push(await tools.call(def.name, { ...REQUIRED[def.name], ...nulls }));
    }
    return { texts, file: await backend.readText('/src/app.ts'), created: await backend.readText('/new.ts') };
  };
  const plain = await run(false);
  expect(plain.file).toBe('export const greeting = "hi";\n');
  expect(plain.texts.some((t) => t.startsWith('Error'))).toBe(false);
  expect(await run(true)).toEqual(plain);
});

describe('validateArgs: names and values', () => {
  const readFile = definitions.find((d) => d.name === 'read_file')!;
  it('refuses argument names inherited from Object.prototype, as any unknown name', () => {
    for (const key of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      expect(validateArgs(readFile, JSON.parse(`{"path": "/a", "${key}": 1}`))).toMatch(new RegExp(`^unknown argument "${key}" for read_file\\.`));
    }
  });

  it("an unknown argument other tool sets use says which one it is here (Claude Code's file_path, grep flags, camelCase)", () => {
    const def = (name: string) => definitions.find((d) => d.name === name)!;
    expect(validateArgs(readFile, { file_path: '/a' })).toBe(
      'unknown argument "file_path" for read_file. Did you mean "path"? Valid arguments: path, offset, limit, part.',
    );
    expect(validateArgs(def('grep'), { pattern: 'x', '-i': true })).toMatch(/^unknown argument "-i" for grep\. Did you mean "ignore_case"\? Valid/);
    expect(validateArgs(def('grep'), { pattern: 'x', '-C': 2 })).toMatch(/Did you mean "context"\?/);
    expect(validateArgs(def('grep'), { pattern: 'x', type: 'go' })).toMatch(/^unknown argument "type" for grep\. Did you mean "glob": "\*\.go"\? Valid/);
    expect(validateArgs(def('edit_file'), { path: '/a', old_string: 'a', new_string: 'b', replaceAll: true })).toMatch(/Did you mean "replace_all"\?/);
    expect(validateArgs(def('ls'), { dir_path: '/' })).toMatch(/Did you mean "path"\?/);
    // No guess where the argument is given too, or where nothing is like it.
    expect(validateArgs(readFile, { path: '/a', file_path: '/a' })).toBe(
      'unknown argument "file_path" for read_file. Valid arguments: path, offset, limit, part.',
    );
    expect(validateArgs(def('grep'), { pattern: 'x', '-n': true })).toMatch(/^unknown argument "-n" for grep\. Valid/);
  });

  it("ripgrep's type (Claude Code's Grep lists js, py, rust, go, java) is offered as the glob that finds its files", async () => {
    const files = { '/a.rs': 'x', '/b.tsx': 'x', '/c.ts': 'x', '/d.py': 'x', '/e.go': 'x', '/f.rb': 'x', '/g.jsx': 'x' };
    const tools = createTools(createStateBackend({ files }));
    const found = async (type: string) => {
      const said = validateArgs(definitions.find((d) => d.name === 'grep')!, { pattern: 'x', type });
      const glob = /Did you mean "glob": "([^"]+)"\?/.exec(said as string)?.[1];
      expect(glob, said as string).toBeDefined();
      return (await tools.call('grep', { pattern: 'x', glob })).split('\n').sort();
    };
    expect(await found('rust')).toEqual(['/a.rs']);
    expect(await found('ts')).toEqual(['/b.tsx', '/c.ts']);
    expect(await found('js')).toEqual(['/g.jsx']);
    expect(await found('ruby')).toEqual(['/f.rb']);
    expect(await found('py')).toEqual(['/d.py']);
    expect(await found('go')).toEqual(['/e.go']);
  });

  it('names a number that JSON cannot hold as it is, not as null', () => {
    expect(validateArgs(readFile, { path: '/a', offset: Number.NaN })).toBe('argument "offset" of read_file must be an integer, got NaN.');
    expect(validateArgs(readFile, { path: '/a', limit: Number.POSITIVE_INFINITY })).toBe('argument "limit" of read_file must be an integer, got Infinity.');
  });
});

describe('arguments as a tool set reads them', () => {
  it('only own properties count, read once: an inherited one is no argument, a throwing getter a bad argument', async () => {
    const tools = createTools(createStateBackend({ files: { '/secret.txt': 'secret\n', '/a.txt': 'a\n' } }));
    // As a host that copies a model's {"__proto__": {...}} with Object.assign gets it: a prototype.
    const inherited = Object.assign({}, JSON.parse('{"__proto__": {"path": "/secret.txt"}}'));
    expect(inherited.path).toBe('/secret.txt');
    const read = await tools.run('read_file', inherited);
    expect(read).toMatchObject({ isError: true, code: 'EINVAL' });
    expect(read.text).toContain('missing required argument "path"');
    for (const dialect of ['agentvfs', 'anthropic'] as const) {
      const set = createTools(createStateBackend({ files: { '/a.txt': 'a\n' } }), { dialect });
      const args = {
        get path(): string {
          throw new Error('boom');
        },
      };
      const result = await set.run(dialect === 'agentvfs' ? 'read_file' : 'str_replace_based_edit_tool', args);
      expect(result, dialect).toMatchObject({ isError: true, code: 'EINVAL' });
      expect(result.text).toContain('could not be read: boom');
    }
  });
});
