import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../../backend/state-backend.ts';
import { createTools } from '../create-tools.ts';
import { formatDefinitions, type OpenAIResponsesTool } from '../format-definitions.ts';

/** The anthropic dialect's definitions as each model API takes them. */
describe("formatDefinitions of the 'anthropic' dialect", () => {
  const tools = createTools(createStateBackend(), { dialect: 'anthropic' });

  it("sends Anthropic's API the built-in tools by type and name, as its documentation's requests do", () => {
    // "tools": [{"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"}] and
    // "tools": [{"type": "memory_20250818", "name": "memory"}] in Anthropic's documentation.
    expect(formatDefinitions(tools.definitions, 'anthropic')).toEqual([
      { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
      { type: 'memory_20250818', name: 'memory' },
    ]);
  });

  it('gives other APIs a function with a JSON Schema (view_range an array of integers)', () => {
    const [editor] = formatDefinitions(tools.definitions, 'openai-chat');
    expect(editor!.function.name).toBe('str_replace_based_edit_tool');
    expect(editor!.function.parameters.properties.view_range).toMatchObject({ type: 'array', items: { type: 'integer' } });
    const strict = formatDefinitions(tools.definitions, 'openai-responses', { strict: true });
    expect((strict[0] as OpenAIResponsesTool).parameters.properties.view_range).toMatchObject({ type: ['array', 'null'], items: { type: 'integer' } });
    const gemini = formatDefinitions(tools.definitions, 'gemini');
    expect(gemini.functionDeclarations[0]!.parameters.properties.view_range).toMatchObject({ type: 'ARRAY', items: { type: 'INTEGER' } });
    expect(gemini.functionDeclarations[1]!.parameters.required).toEqual(['command']);
  });

  it('a definition whose type is not an Anthropic built-in stays a function tool', () => {
    const [plain] = formatDefinitions([{ ...tools.definitions[0]!, type: 'apply_patch' }], 'anthropic');
    expect(plain).toHaveProperty('input_schema');
  });
});
