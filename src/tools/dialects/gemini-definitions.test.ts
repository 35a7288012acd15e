import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../../backend/state-backend.ts';
import { createTools } from '../create-tools.ts';
import { formatDefinitions, type OpenAIResponsesTool } from '../format-definitions.ts';

/**
 * file_filtering_options, the one object parameter (list_directory and read_many_files, as Gemini
 * CLI's gemini-3.ts declares it), in each model API's schema form.
 */
describe("formatDefinitions of the 'gemini' dialect's file_filtering_options", () => {
  const tools = createTools(createStateBackend(), { dialect: 'gemini' });
  const index = tools.definitions.findIndex((d) => d.name === 'list_directory');
  const flags = ['respect_git_ignore', 'respect_gemini_ignore'];

  it('JSON Schema (Anthropic, OpenAI): a closed object of optional booleans', () => {
    const [anthropic] = formatDefinitions([tools.definitions[index]!], 'anthropic');
    expect((anthropic as { input_schema: { properties: Record<string, unknown> } }).input_schema.properties.file_filtering_options).toEqual({
      type: 'object',
      description: 'Whether to respect ignore patterns from .gitignore or .geminiignore.',
      properties: {
        respect_git_ignore: { type: 'boolean', description: 'Respect .gitignore patterns when listing files. Default true.' },
        respect_gemini_ignore: { type: 'boolean', description: 'Respect .geminiignore patterns when listing files. Default true.' },
      },
      additionalProperties: false,
    });
  });

  it('OpenAI strict: the object and each of its booleans nullable, every property required', () => {
    const [tool] = formatDefinitions([tools.definitions[index]!], 'openai-responses', { strict: true });
    const option = (tool as OpenAIResponsesTool).parameters.properties.file_filtering_options as Record<string, unknown>;
    expect(option).toMatchObject({ type: ['object', 'null'], required: flags, additionalProperties: false });
    expect(Object.values(option.properties as object).map((p: { type: unknown }) => p.type)).toEqual([
      ['boolean', 'null'],
      ['boolean', 'null'],
    ]);
  });

  it('Gemini: OBJECT with BOOLEAN properties', () => {
    const gemini = formatDefinitions([tools.definitions[index]!], 'gemini');
    const option = gemini.functionDeclarations[0]!.parameters.properties.file_filtering_options!;
    expect(option.type).toBe('OBJECT');
    expect(Object.keys(option.properties!)).toEqual(flags);
    expect(Object.values(option.properties!).map((p) => p.type)).toEqual(['BOOLEAN', 'BOOLEAN']);
  });

  it('a strict-mode call (nulls for unused flags) runs as one that leaves them out', async () => {
    const backend = createStateBackend({ files: { '/.gitignore': 'dist/\n', '/dist/a.js': '' } });
    const t = createTools(backend, { dialect: 'gemini' });
    const nulls = await t.call('list_directory', {
      dir_path: '/',
      ignore: null,
      file_filtering_options: { respect_git_ignore: null, respect_gemini_ignore: null },
    });
    expect(nulls).toBe(await t.call('list_directory', { dir_path: '/' }));
    expect(nulls).toBe('Directory listing for /:\n.gitignore (6 bytes)\n\n(1 ignored)');
  });
});
