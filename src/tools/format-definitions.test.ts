import type Anthropic from '@anthropic-ai/sdk';
import type { Schema, Tool as GeminiSdkTool } from '@google/genai';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';
import { buildDefinitions, TOOL_NAMES } from './definitions.ts';
import { formatDefinitions, FORMAT_PROVIDERS } from './format-definitions.ts';
import { createTools } from './create-tools.ts';
import { DIALECT_NAMES } from './dialects/names.ts';

const definitions = buildDefinitions();

// Type tests (checked by `npm run typecheck`, strict): each result goes where its SDK declares tools.
const chat: OpenAI.Chat.Completions.ChatCompletionFunctionTool[] = formatDefinitions(definitions, 'openai-chat');
const chatTools: OpenAI.Chat.Completions.ChatCompletionTool[] = chat;
const chatStrict: OpenAI.Chat.Completions.ChatCompletionFunctionTool[] = formatDefinitions(definitions, 'openai-chat', { strict: true });
const responsesTools: OpenAI.Responses.Tool[] = formatDefinitions(definitions, 'openai-responses');
// The six tools are functions (a built-in apply_patch would not be; see dialects/openai-definitions.test.ts).
const responses = responsesTools.filter((t): t is OpenAI.Responses.FunctionTool => t.type === 'function');
const responsesStrict: OpenAI.Responses.Tool[] = formatDefinitions(definitions, 'openai-responses', { strict: true });
// Built-in tools (a dialect's text editor) are in the union messages.create takes.
const anthropic: Anthropic.ToolUnion[] = formatDefinitions(definitions, 'anthropic');
const gemini: GeminiSdkTool = formatDefinitions(definitions, 'gemini');
// Never called: only compiled.
function typeErrors(): unknown[] {
  // @ts-expect-error a provider outside the list does not compile
  const unknownProvider = formatDefinitions(definitions, 'mistral');
  // @ts-expect-error strict is an OpenAI option
  const anthropicStrict = formatDefinitions(definitions, 'anthropic', { strict: true });
  // @ts-expect-error Gemini's result is one tool, not an array of them
  const geminiArray: GeminiSdkTool[] = formatDefinitions(definitions, 'gemini');
  return [unknownProvider, anthropicStrict, geminiArray, chatTools];
}

/** Every keyword used anywhere in a schema, with where it was found. */
function keywords(schema: unknown, at = '#'): [string, string][] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [];
  const found: [string, string][] = [];
  for (const [key, value] of Object.entries(schema)) {
    found.push([key, at]);
    if (key === 'properties') for (const [name, sub] of Object.entries(value as object)) found.push(...keywords(sub, `${at}/properties/${name}`));
    if (key === 'items') found.push(...keywords(value, `${at}/items`));
    if (key === 'anyOf') for (const [i, sub] of (value as unknown[]).entries()) found.push(...keywords(sub, `${at}/anyOf/${i}`));
  }
  return found;
}

function outside(schema: unknown, allowed: readonly string[]): string[] {
  return keywords(schema)
    .filter(([key]) => !allowed.includes(key))
    .map(([key, at]) => `${at}: ${key}`);
}

// Each provider's documented keywords. Gemini: the fields of @google/genai's `Schema` (the
// `satisfies` proves each one is a field there). OpenAI strict mode: the keywords its Structured
// Outputs guide lists as supported. Anthropic and non-strict OpenAI take JSON Schema: the keywords
// of the draft 2020-12 validation vocabulary that our schemas use.
const GEMINI_KEYWORDS = [
  'anyOf',
  'default',
  'description',
  'enum',
  'example',
  'format',
  'items',
  'maxItems',
  'maxLength',
  'maxProperties',
  'maximum',
  'minItems',
  'minLength',
  'minProperties',
  'minimum',
  'nullable',
  'pattern',
  'properties',
  'propertyOrdering',
  'required',
  'title',
  'type',
] as const satisfies readonly (keyof Schema)[];
const OPENAI_STRICT_KEYWORDS = [
  'type',
  'description',
  'properties',
  'required',
  'additionalProperties',
  'enum',
  'const',
  'anyOf',
  'items',
  '$defs',
  '$ref',
  'pattern',
  'format',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'minItems',
  'maxItems',
];
const JSON_SCHEMA_KEYWORDS = ['type', 'description', 'properties', 'required', 'additionalProperties', 'enum', 'default', 'minimum'];

describe('formatDefinitions: the shapes', () => {
  const read = definitions.find((d) => d.name === 'read_file')!;

  it('openai-chat: { type: function, function: { name, description, parameters } }', () => {
    expect(chat).toHaveLength(TOOL_NAMES.length);
    expect(chat[1]).toEqual({ type: 'function', function: { name: 'read_file', description: read.description, parameters: read.parameters } });
  });

  it('openai-responses: { type: function, name, description, parameters, strict: false }', () => {
    expect(responses.map((t) => t.name)).toEqual([...TOOL_NAMES]);
    expect(responses[1]).toEqual({ type: 'function', name: 'read_file', description: read.description, parameters: read.parameters, strict: false });
  });

  it('anthropic: { name, description, input_schema }', () => {
    expect(anthropic[1]).toEqual({ name: 'read_file', description: read.description, input_schema: read.parameters });
  });

  it('gemini: one tool whose functionDeclarations hold every tool, in order', () => {
    expect(Object.keys(gemini)).toEqual(['functionDeclarations']);
    expect(gemini.functionDeclarations!.map((f) => f.name)).toEqual([...TOOL_NAMES]);
    expect(gemini.functionDeclarations![1]).toEqual({
      name: 'read_file',
      description: read.description,
      parameters: {
        type: 'OBJECT',
        properties: {
          path: { type: 'STRING', description: 'File to read.' },
          offset: { type: 'INTEGER', description: '0-based line to start from.', default: 0, minimum: 0 },
          limit: { type: 'INTEGER', description: 'Maximum number of lines to read.', default: 2000, minimum: 1 },
          part: { type: 'INTEGER', description: read.parameters.properties.part!.description, default: 0, minimum: 0 },
        },
        required: ['path'],
        propertyOrdering: ['path', 'offset', 'limit', 'part'],
      },
    });
  });

  it('gemini: an enum is a string enum marked format: enum', () => {
    const grep = gemini.functionDeclarations!.find((f) => f.name === 'grep')!;
    expect(grep.parameters!.properties!.output_mode).toEqual({
      type: 'STRING',
      description: 'What to show.',
      format: 'enum',
      enum: ['files_with_matches', 'content', 'count'],
      default: 'files_with_matches',
    });
  });

  it('keeps custom descriptions, and leaves the definitions it was given unchanged', () => {
    const custom = buildDefinitions({ ls: 'List it.' });
    const before = JSON.stringify(custom);
    for (const provider of FORMAT_PROVIDERS) formatDefinitions(custom, provider);
    formatDefinitions(custom, 'openai-responses', { strict: true });
    expect(JSON.stringify(custom)).toBe(before);
    expect(formatDefinitions(custom, 'anthropic')[0]).toHaveProperty('description', 'List it.');
    expect(formatDefinitions(custom, 'gemini').functionDeclarations[0]!.description).toBe('List it.');
  });
});

describe('formatDefinitions: OpenAI strict mode', () => {
  it('lists every property in required, makes optional ones nullable, and sets additionalProperties: false', () => {
    for (const [i, tool] of responsesStrict.entries()) {
      const def = definitions[i]!;
      const { parameters } = tool as OpenAI.Responses.FunctionTool;
      expect(tool).toMatchObject({ type: 'function', name: def.name, strict: true });
      expect(parameters).toMatchObject({ type: 'object', additionalProperties: false });
      const properties = parameters!.properties as Record<string, { type: unknown; enum?: unknown[] }>;
      expect(parameters!.required).toEqual(Object.keys(def.parameters.properties));
      for (const [key, prop] of Object.entries(properties)) {
        const type = def.parameters.properties[key]!.type;
        expect(prop.type, `${def.name}.${key}`).toEqual(def.parameters.required.includes(key) ? type : [type, 'null']);
      }
    }
  });

  it('says each default in the description (strict schemas have no default) and lets a nullable enum be null', () => {
    const grep = (responsesStrict as OpenAI.Responses.FunctionTool[]).find((t) => t.name === 'grep')!;
    const props = grep.parameters!.properties as Record<string, { description: string; enum?: unknown[] }>;
    expect(props.head_limit!.description).toBe('Maximum entries to show (0 = no cap). Null for the default (250).');
    expect(props.glob!.description).toMatch(/ Null to leave it unset\.$/);
    expect(props.output_mode!.enum).toEqual(['files_with_matches', 'content', 'count', null]);
    // Every dialect's vendor descriptions too (some end without a period): the note starts a sentence of its own.
    for (const dialect of DIALECT_NAMES) {
      for (const tool of formatDefinitions(createTools(createStateBackend(), { dialect }).definitions, 'openai-responses', { strict: true })) {
        if (tool.type !== 'function') continue;
        for (const [key, prop] of Object.entries(tool.parameters!.properties as Record<string, { description: string }>)) {
          expect(prop.description, `${dialect} ${tool.name}.${key}`).not.toMatch(/[^.!?] Null (to leave|for the default)/);
        }
      }
    }
  });

  it('openai-chat strict: the same schemas, with function.strict: true', () => {
    expect(chatStrict.map((t) => t.function.strict)).toEqual(TOOL_NAMES.map(() => true));
    expect(chatStrict.map((t) => t.function.parameters)).toEqual((responsesStrict as OpenAI.Responses.FunctionTool[]).map((t) => t.parameters));
    expect(chat.every((t) => t.type === 'function' && !('strict' in t.function))).toBe(true);
  });
});

describe("formatDefinitions: every schema keeps to its provider's documented keywords", () => {
  it('gemini: only Schema fields (no additionalProperties, no $schema); uppercase types; string enums', () => {
    for (const f of gemini.functionDeclarations!) {
      expect(outside(f.parameters, GEMINI_KEYWORDS), f.name).toEqual([]);
      for (const [key, at] of keywords(f.parameters)) expect(`${at}: ${key}`).not.toMatch(/additionalProperties|\$schema/);
      for (const prop of Object.values(f.parameters!.properties!)) {
        expect(['STRING', 'INTEGER', 'BOOLEAN']).toContain(prop.type);
        for (const value of prop.enum ?? []) expect(typeof value).toBe('string');
      }
    }
  });

  it('openai strict: only supported keywords, never default, every object closed and fully required', () => {
    for (const tool of [...(responsesStrict as OpenAI.Responses.FunctionTool[]).map((t) => t.parameters), ...chatStrict.map((t) => t.function.parameters)]) {
      expect(outside(tool, OPENAI_STRICT_KEYWORDS)).toEqual([]);
      expect(keywords(tool).map(([key]) => key)).not.toContain('default');
    }
  });

  it('anthropic and openai (not strict): JSON Schema objects with additionalProperties: false', () => {
    const schemas = [
      ...(anthropic as Anthropic.Tool[]).map((t) => t.input_schema),
      ...responses.map((t) => t.parameters),
      ...chat.map((t) => t.function.parameters),
    ];
    for (const schema of schemas) {
      expect(outside(schema, JSON_SCHEMA_KEYWORDS)).toEqual([]);
      expect(schema).toMatchObject({ type: 'object', additionalProperties: false });
    }
  });
});

describe('formatDefinitions: bad input', () => {
  it('an unknown provider throws, naming the ones it knows', () => {
    expect(() => formatDefinitions(definitions, 'mistral' as never)).toThrow(
      new TypeError(`formatDefinitions: unknown provider "mistral"; use one of 'openai-chat', 'openai-responses', 'anthropic', 'gemini'.`),
    );
  });

  it('strict for a provider other than OpenAI throws', () => {
    expect(() => formatDefinitions(definitions, 'gemini', { strict: true } as never)).toThrow(/strict is an OpenAI option .* not one for 'gemini'/);
  });

  it('definitions that are not an array of definitions throw, saying what came', () => {
    expect(() => formatDefinitions(createTools(createStateBackend()) as never, 'anthropic')).toThrow(
      /definitions must be an array .*tools\.definitions.*, got an object\./,
    );
    expect(() => formatDefinitions([{ name: 'x' }] as never, 'anthropic')).toThrow(
      /definitions\[0\] is not a \{ name, description, parameters \} tool definition/,
    );
  });

  it('a parameter of a type the tool schemas do not use throws, naming it', () => {
    const widened = definitions.map((d) =>
      d.name === 'glob' ? { ...d, parameters: { ...d.parameters, properties: { ...d.parameters.properties, n: { type: 'number', description: 'n' } } } } : d,
    );
    expect(() => formatDefinitions(widened as never, 'gemini')).toThrow(
      'formatDefinitions: definitions[4] (glob) parameter "n" has type "number"; the tool schemas use string, integer, boolean, array and object.',
    );
  });

  it('a tool name the provider does not allow throws', () => {
    const renamed = definitions.map((d) => ({ ...d, name: d.name === 'ls' ? 'list files' : d.name }));
    expect(() => formatDefinitions(renamed, 'openai-responses')).toThrow(`formatDefinitions: 'openai-responses' does not allow the tool name "list files"`);
    const digitFirst = definitions.map((d) => ({ ...d, name: d.name === 'ls' ? '2ls' : d.name }));
    expect(formatDefinitions(digitFirst, 'anthropic')[0]!.name).toBe('2ls');
    expect(() => formatDefinitions(digitFirst, 'gemini')).toThrow(/'gemini' does not allow the tool name "2ls" \(a letter or _ first/);
  });
});

void typeErrors;
