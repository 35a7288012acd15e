import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../../backend/state-backend.ts';
import { createTools } from '../create-tools.ts';
import { formatDefinitions, type OpenAIApplyPatchTool } from '../format-definitions.ts';

/** The openai dialect's definitions as each model API takes them. */
const tools = createTools(createStateBackend(), { dialect: 'openai' });

// Type tests (checked by `npm run typecheck`): the built-in goes where openai 7.x declares the
// Responses API's tools, and it is the SDK's ApplyPatchTool, not a function tool.
const responses: OpenAI.Responses.Tool[] = formatDefinitions(tools.definitions, 'openai-responses');
const builtIn: OpenAI.Responses.ApplyPatchTool = { type: 'apply_patch' } satisfies OpenAIApplyPatchTool;
// Never called: only compiled.
function typeErrors(): unknown[] {
  // @ts-expect-error a Responses tool list may hold the built-in, which is no FunctionTool
  const functions: OpenAI.Responses.FunctionTool[] = formatDefinitions(tools.definitions, 'openai-responses');
  return [functions];
}

describe("formatDefinitions of the 'openai' dialect", () => {
  it("sends the Responses API the built-in tool by its type alone, as OpenAI's apply_patch guide does", () => {
    // tools=[{"type": "apply_patch"}] in OpenAI's guide (platform.openai.com/docs/guides/tools-apply-patch);
    // `ApplyPatchTool` in openai 7.57.0 resources/responses/responses.d.ts has `type` and an optional `allowed_callers`.
    expect(responses).toEqual([builtIn]);
    expect(formatDefinitions(tools.definitions, 'openai-responses', { strict: true })).toEqual([{ type: 'apply_patch' }]);
  });

  it('gives Chat Completions, which has no such built-in, a function taking { input }', () => {
    const [chat] = formatDefinitions(tools.definitions, 'openai-chat');
    expect(chat).toEqual({
      type: 'function',
      function: { name: 'apply_patch', description: tools.definitions[0]!.description, parameters: tools.definitions[0]!.parameters },
    });
    expect(chat!.function.parameters.required).toEqual(['input']);
  });

  it('gives Anthropic and Gemini a function with the same JSON Schema', () => {
    expect(formatDefinitions(tools.definitions, 'anthropic')).toEqual([
      { name: 'apply_patch', description: tools.definitions[0]!.description, input_schema: tools.definitions[0]!.parameters },
    ]);
    expect(formatDefinitions(tools.definitions, 'gemini').functionDeclarations[0]!.parameters.required).toEqual(['input']);
  });

  it('a definition of any other type, or of none, stays a function tool on the Responses API', () => {
    const [plain, other] = formatDefinitions(
      [
        { ...tools.definitions[0]!, type: undefined, name: 'patch' },
        { ...tools.definitions[0]!, type: 'text_editor_20250728', name: 'edit' },
      ],
      'openai-responses',
    );
    expect(plain).toMatchObject({ type: 'function', name: 'patch', strict: false });
    expect(other).toMatchObject({ type: 'function', name: 'edit' });
  });
});

void typeErrors;
