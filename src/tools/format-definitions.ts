/**
 * formatDefinitions(definitions, provider, options?): the tool definitions in the shape each model
 * API's tool list takes, with no dependency on any SDK. The result types are written so they are
 * assignable where the SDKs declare their tool types (OpenAI, Anthropic, @google/genai).
 */
import type { JsonSchemaProperty, ToolParameters } from './definitions.ts';

export const FORMAT_PROVIDERS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const;
export type FormatProvider = (typeof FORMAT_PROVIDERS)[number];

/** Any definition with the shape of `tools.definitions`' entries. */
export interface DefinitionLike {
  name: string;
  description: string;
  parameters: ToolParameters;
  /** A vendor's built-in tool type (SPEC §8), when the definition has one. */
  type?: string | undefined;
}

export interface FormatOptions {
  /**
   * OpenAI providers only: rewrite each schema to OpenAI's strict form (every property required,
   * optional ones nullable, no `default`) and mark the tool `strict: true`. The model then sends
   * `null` for an optional parameter it does not use, which the tools read as "omitted".
   */
  strict?: boolean | undefined;
}

/** OpenAI strict form of a property: an optional one also accepts `null` (meaning "the default"). */
export type StrictProperty = {
  type: JsonSchemaProperty['type'] | [JsonSchemaProperty['type'], 'null'];
  description: string;
  items?: JsonSchemaProperty['items'];
  enum?: (string | null)[];
  minimum?: number;
  /** An object's properties, each nullable and all required, as strict mode wants. */
  properties?: Record<string, { type: ['boolean', 'null']; description: string }>;
  required?: string[];
  additionalProperties?: false;
};
export type StrictParameters = {
  type: 'object';
  properties: Record<string, StrictProperty>;
  required: string[];
  additionalProperties: false;
};
type OpenAIParameters = ToolParameters | StrictParameters;

export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: OpenAIParameters; strict?: boolean };
}

export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: OpenAIParameters;
  strict: boolean;
}

/**
 * The Responses API's built-in apply_patch tool: the model answers with `apply_patch_call` items
 * (`operation: { type, path, diff }`), each answered with an `apply_patch_call_output`.
 */
export interface OpenAIApplyPatchTool {
  type: 'apply_patch';
}

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: ToolParameters;
}

/** One of Anthropic's built-in (Anthropic-defined) tools: the API takes it by type and name, with no schema. */
export type AnthropicBuiltinTool = { type: 'text_editor_20250728'; name: 'str_replace_based_edit_tool' } | { type: 'memory_20250818'; name: 'memory' };

// The name Anthropic's API requires beside each built-in type.
const ANTHROPIC_BUILTINS: Readonly<Record<AnthropicBuiltinTool['type'], string>> = {
  text_editor_20250728: 'str_replace_based_edit_tool',
  memory_20250818: 'memory',
};

function anthropicBuiltin(type: string | undefined, name: string): AnthropicBuiltinTool | null {
  if (type === undefined || !Object.hasOwn(ANTHROPIC_BUILTINS, type)) return null;
  return ANTHROPIC_BUILTINS[type as AnthropicBuiltinTool['type']] === name ? ({ type, name } as AnthropicBuiltinTool) : null;
}

/**
 * Gemini's schema type names. Declared (types only, nothing at run time) under the name of
 * @google/genai's own `Type` enum, with the same values: TypeScript relates two enums of the same
 * name member by member, which is what makes these schemas assignable to the SDK's `Schema`.
 */
declare enum Type {
  STRING = 'STRING',
  INTEGER = 'INTEGER',
  BOOLEAN = 'BOOLEAN',
  ARRAY = 'ARRAY',
  OBJECT = 'OBJECT',
}

/** A property in Gemini's Schema (an OpenAPI 3.0 subset): uppercase types, string enums. */
export interface GeminiProperty {
  type: Type;
  description: string;
  format?: 'enum';
  enum?: string[];
  items?: { type: Type; properties?: Record<string, { type: Type; description: string }>; required?: string[] };
  /** An object's properties (Gemini CLI's file_filtering_options). */
  properties?: Record<string, { type: Type; description: string }>;
  default?: string | number | boolean;
  minimum?: number;
}

export interface GeminiParameters {
  type: Type;
  properties: Record<string, GeminiProperty>;
  required: string[];
  /** Gemini keeps this order when it writes the arguments. */
  propertyOrdering: string[];
}

/** One Gemini tool holding every function: pass it as `config.tools: [tool]`. */
export interface GeminiTool {
  functionDeclarations: { name: string; description: string; parameters: GeminiParameters }[];
}

export interface FormattedDefinitions {
  'openai-chat': OpenAIChatTool[];
  'openai-responses': (OpenAIResponsesTool | OpenAIApplyPatchTool)[];
  anthropic: (AnthropicTool | AnthropicBuiltinTool)[];
  gemini: GeminiTool;
}

// The names each API accepts for a function (OpenAI's and Anthropic's documented pattern; Gemini's
// must start with a letter or an underscore and may also hold dots and colons).
const NAME_RULES: Record<FormatProvider, { pattern: RegExp; says: string }> = {
  'openai-chat': { pattern: /^[a-zA-Z0-9_-]{1,64}$/, says: 'letters, digits, _ and -, at most 64' },
  'openai-responses': { pattern: /^[a-zA-Z0-9_-]{1,64}$/, says: 'letters, digits, _ and -, at most 64' },
  anthropic: { pattern: /^[a-zA-Z0-9_-]{1,64}$/, says: 'letters, digits, _ and -, at most 64' },
  gemini: { pattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/, says: 'a letter or _ first, then letters, digits, _ . : and -, at most 64' },
};

/**
 * The definitions (e.g. `tools.definitions`) as the `tools` of one model API. Throws a TypeError
 * for an unknown provider, a definitions value that is not an array of definitions, a tool name the
 * provider refuses, or `strict` for a provider that is not OpenAI's.
 */
export function formatDefinitions<P extends FormatProvider>(
  definitions: readonly DefinitionLike[],
  provider: P,
  // `strict` only compiles for the OpenAI providers.
  options: P extends 'openai-chat' | 'openai-responses' ? FormatOptions : Record<string, never> = {},
): FormattedDefinitions[P] {
  if (!(FORMAT_PROVIDERS as readonly unknown[]).includes(provider)) {
    throw new TypeError(`formatDefinitions: unknown provider ${JSON.stringify(provider)}; use one of ${FORMAT_PROVIDERS.map((p) => `'${p}'`).join(', ')}.`);
  }
  if (!Array.isArray(definitions)) {
    throw new TypeError(
      `formatDefinitions: definitions must be an array of { name, description, parameters } (e.g. tools.definitions), got ${describe(definitions)}.`,
    );
  }
  const strict = (options as FormatOptions).strict === true;
  if (strict && !provider.startsWith('openai-'))
    throw new TypeError(`formatDefinitions: strict is an OpenAI option ('openai-chat', 'openai-responses'), not one for '${provider}'.`);
  for (const [i, d] of definitions.entries()) checkDefinition(d, i, provider);
  return FORMATTERS[provider](definitions, strict) as FormattedDefinitions[P];
}

const FORMATTERS: { [P in FormatProvider]: (definitions: readonly DefinitionLike[], strict: boolean) => FormattedDefinitions[P] } = {
  'openai-chat': (definitions, strict) =>
    definitions.map(({ name, description, parameters }) => ({
      type: 'function',
      function: strict ? { name, description, parameters: strictSchema(parameters), strict: true } : { name, description, parameters },
    })),
  // A definition of type 'apply_patch' goes as the Responses API's built-in tool (Chat Completions
  // has no such built-in, so 'openai-chat' keeps it a function).
  'openai-responses': (definitions, strict) =>
    definitions.map(({ name, description, parameters, type }) =>
      type === 'apply_patch'
        ? { type }
        : {
            type: 'function',
            name,
            description,
            parameters: strict ? strictSchema(parameters) : parameters,
            strict,
          },
    ),
  // A definition carrying one of Anthropic's built-in tool types goes as that built-in tool.
  anthropic: (definitions) =>
    definitions.map(({ name, description, parameters, type }) => anthropicBuiltin(type, name) ?? { name, description, input_schema: parameters }),
  gemini: (definitions) => ({
    functionDeclarations: definitions.map(({ name, description, parameters }) => ({ name, description, parameters: geminiSchema(parameters) })),
  }),
};

function checkDefinition(d: DefinitionLike, index: number, provider: FormatProvider): void {
  const ok = typeof d === 'object' && d !== null && typeof d.name === 'string' && typeof d.description === 'string' && d.parameters?.type === 'object';
  if (!ok) throw new TypeError(`formatDefinitions: definitions[${index}] is not a { name, description, parameters } tool definition, got ${describe(d)}.`);
  for (const [key, prop] of Object.entries(d.parameters.properties ?? {})) {
    if (!Object.hasOwn(GEMINI_TYPES, prop?.type)) {
      throw new TypeError(
        `formatDefinitions: definitions[${index}] (${d.name}) parameter "${key}" has type ${JSON.stringify(prop?.type)}; the tool schemas use string, integer, boolean, array and object.`,
      );
    }
  }
  const rule = NAME_RULES[provider];
  if (!rule.pattern.test(d.name))
    throw new TypeError(`formatDefinitions: '${provider}' does not allow the tool name ${JSON.stringify(d.name)} (${rule.says} characters).`);
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`;
}

/**
 * OpenAI's strict form: every property listed in `required`; an optional one becomes nullable
 * (`null` reads as omitted) and says its default in words, because strict schemas have no `default`.
 */
/** A description the strict note can follow: vendors' own (Gemini CLI's, the MCP server's) may end without a period. */
const sentence = (description: string): string => (description === '' || /[.!?]$/.test(description) ? description : `${description}.`);

function strictSchema(parameters: ToolParameters): StrictParameters {
  const properties: Record<string, StrictProperty> = {};
  for (const [key, prop] of Object.entries(parameters.properties)) {
    const { type, description, enum: values, minimum, items } = prop;
    const optional = !parameters.required.includes(key);
    const out: StrictProperty = optional
      ? {
          type: [type, 'null'],
          description: `${sentence(description)}${prop.default === undefined ? ' Null to leave it unset.' : ` Null for the default (${JSON.stringify(prop.default)}).`}`,
        }
      : { type, description };
    // A nullable enum lists null too, or null would not validate against it.
    if (values) out.enum = optional ? [...values, null] : [...values];
    if (minimum !== undefined) out.minimum = minimum;
    if (items !== undefined) out.items = items;
    if (prop.properties !== undefined) {
      const inner = Object.entries(prop.properties).map(
        ([k, p]) => [k, { type: ['boolean', 'null'] as ['boolean', 'null'], description: p.description }] as const,
      );
      Object.assign(out, { properties: Object.fromEntries(inner), required: inner.map(([k]) => k), additionalProperties: false });
    }
    properties[key] = out;
  }
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

// The JSON Schema type names as Gemini spells them (its Type enum). Cast once: the enum is a type only.
const GEMINI_TYPES = { string: 'STRING', integer: 'INTEGER', boolean: 'BOOLEAN', array: 'ARRAY', object: 'OBJECT' } as unknown as Record<
  JsonSchemaProperty['type'],
  Type
>;

/** Gemini's Schema subset: uppercase types, `format: 'enum'` beside an enum, no additionalProperties. */
function geminiSchema(parameters: ToolParameters): GeminiParameters {
  const properties: Record<string, GeminiProperty> = {};
  for (const [key, prop] of Object.entries(parameters.properties)) {
    // Built keyword by keyword from an allow-list, so nothing outside Gemini's Schema gets through.
    const out: GeminiProperty = { type: GEMINI_TYPES[prop.type], description: prop.description };
    if (prop.enum) Object.assign(out, { format: 'enum', enum: prop.enum.map(String) });
    if (prop.default !== undefined) out.default = prop.default;
    if (prop.minimum !== undefined) out.minimum = prop.minimum;
    if (prop.items?.type === 'object') {
      const props = Object.fromEntries(Object.entries(prop.items.properties).map(([k, p]) => [k, { type: GEMINI_TYPES[p.type], description: p.description }]));
      out.items = { type: 'OBJECT' as unknown as Type, properties: props, required: prop.items.required };
    } else if (prop.items !== undefined) out.items = { type: GEMINI_TYPES[prop.items.type] };
    if (prop.properties !== undefined) {
      out.properties = Object.fromEntries(Object.entries(prop.properties).map(([k, p]) => [k, { type: GEMINI_TYPES[p.type], description: p.description }]));
    }
    properties[key] = out;
  }
  const names = Object.keys(properties);
  return { type: 'OBJECT' as unknown as Type, properties, required: parameters.required.filter((r) => names.includes(r)), propertyOrdering: names };
}
