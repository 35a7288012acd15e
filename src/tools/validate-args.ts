/** Checks tool arguments against a tool's schema and fills defaults; returns an error sentence or the clean args. */
import type { ToolDefinition } from './definitions.ts';

export type ToolArgs = Record<string, unknown>;

export function validateArgs(def: ToolDefinition<string>, args: unknown): ToolArgs | string {
  if (args === undefined || args === null) args = {};
  if (typeof args === 'string') {
    // Some clients pass the raw JSON string the model produced.
    try {
      args = JSON.parse(args);
    } catch {
      return `arguments for ${def.name} must be a JSON object; got a string that is not valid JSON.`;
    }
  }
  if (typeof args !== 'object' || Array.isArray(args) || args === null) {
    return `arguments for ${def.name} must be an object, got ${Array.isArray(args) ? 'an array' : typeof args}.`;
  }
  const input = args as Record<string, unknown>;
  const { properties, required } = def.parameters;
  const out: ToolArgs = {};
  for (const key of Object.keys(input)) {
    // Own properties only: "constructor" or "toString" is no argument of any tool.
    if (!Object.hasOwn(properties, key)) {
      const names = Object.keys(properties);
      const meant = meantArgument(key, names);
      // (ripgrep's `type: "rust"` is the files a `glob` of "*.rs" names)
      const value = key === 'type' && typeof input[key] === 'string' && /^\w+$/.test(input[key]) ? `: "${typeGlob(input[key])}"` : '';
      const guess = meant === undefined || Object.hasOwn(input, meant) ? '' : ` Did you mean "${meant}"${value}?`;
      return `unknown argument "${key}" for ${def.name}.${guess} Valid arguments: ${names.join(', ')}.`;
    }
  }
  for (const [key, prop] of Object.entries(properties)) {
    const value = input[key];
    // null is "left out": in OpenAI's strict mode the model must send every parameter, null for unused ones.
    if (value === undefined || value === null) {
      if (required.includes(key)) return `missing required argument "${key}" for ${def.name} (${prop.description})`;
      if (prop.default !== undefined) out[key] = prop.default;
      continue;
    }
    const problem = checkValue(value, prop);
    if (problem) return `argument "${key}" of ${def.name} ${problem}, got ${shown(value, 100)}.`;
    out[key] = value as ToolArgs[string];
  }
  return out;
}

/**
 * The argument an unknown one most likely stands for, as other tool sets name it: the same words
 * otherwise written (`ignoreCase`, `replace-all`), a longer name for it (`file_path`, `dir_path`
 * for `path`), or a grep flag (Claude Code's Grep takes `-i`, `-C` and `type`).
 */
function meantArgument(key: string, names: readonly string[]): string | undefined {
  const bare = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const flag = GREP_FLAGS[key];
  if (flag !== undefined && names.includes(flag)) return flag;
  return names.find((name) => bare(name) === bare(key)) ?? names.find((name) => name.length >= 4 && bare(key).endsWith(bare(name)));
}

/**
 * The glob for a ripgrep file type (`rg --type`, Claude Code's Grep `type`): its own table for the
 * common types not named by their one extension (`rust` is `*.rs`, `ts` also `*.tsx`), else `*.TYPE`.
 */
function typeGlob(type: string): string {
  return Object.hasOwn(RG_TYPES, type) ? RG_TYPES[type]! : `*.${type}`;
}

const RG_TYPES: Readonly<Record<string, string>> = {
  rust: '*.rs',
  ruby: '*.rb',
  python: '*.py',
  py: '*.{py,pyi}',
  js: '*.{js,jsx,mjs,cjs}',
  ts: '*.{ts,tsx,mts,cts}',
  markdown: '*.{md,markdown,mdx}',
  md: '*.{md,markdown,mdx}',
  cpp: '*.{cpp,cc,cxx,hpp,hh,hxx,h}',
  c: '*.{c,h}',
  csharp: '*.cs',
  kotlin: '*.{kt,kts}',
  yaml: '*.{yaml,yml}',
  sh: '*.{sh,bash,zsh}',
  perl: '*.{pl,pm}',
  haskell: '*.hs',
  elixir: '*.{ex,exs}',
  erlang: '*.{erl,hrl}',
  html: '*.{html,htm}',
};

const GREP_FLAGS: Readonly<Record<string, string>> = {
  '-i': 'ignore_case',
  '-C': 'context',
  '-A': 'context',
  '-B': 'context',
  type: 'glob',
  '-F': 'fixed_strings',
};

function checkValue(value: unknown, prop: ToolDefinition['parameters']['properties'][string]): string | null {
  switch (prop.type) {
    case 'string':
      if (typeof value !== 'string') return 'must be a string';
      if (prop.enum && !prop.enum.includes(value)) return `must be one of ${prop.enum.map((e) => `"${e}"`).join(', ')}`;
      return null;
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return 'must be an integer';
      if (prop.minimum !== undefined && value < prop.minimum) return `must be >= ${prop.minimum}`;
      return null;
    case 'array': {
      const items = prop.items ?? { type: 'string' };
      if (items.type === 'object') {
        const keys = Object.keys(items.properties);
        const ok =
          Array.isArray(value) &&
          value.every(
            (v) => typeof v === 'object' && v !== null && keys.every((k) => typeof v[k] === 'string') && Object.keys(v).every((k) => keys.includes(k)),
          );
        return ok ? null : `must be an array of objects with string ${keys.join(' and ')}`;
      }
      const ok = Array.isArray(value) && value.every((v) => (items.type === 'integer' ? Number.isSafeInteger(v) : typeof v === 'string'));
      return ok ? null : `must be an array of ${items.type}s`;
    }
    case 'object': {
      // Optional booleans; null reads as left out, as for top-level arguments.
      const keys = Object.keys(prop.properties ?? {});
      const ok =
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.entries(value).every(([k, v]) => keys.includes(k) && (v === null || typeof v === 'boolean'));
      return ok ? null : `must be an object with optional booleans ${keys.join(' and ')}`;
    }
  }
}

/** A value as an error message quotes it: its JSON (cut to `max` characters), or what it is when it has none (a BigInt, a function). */
export function shown(value: unknown, max: number): string {
  if (typeof value === 'bigint') return `the BigInt ${value}n (send a number)`;
  if (value === undefined) return 'nothing (undefined)';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value); // (JSON would say null)
  if (typeof value === 'function' || typeof value === 'symbol') return `a ${typeof value}`;
  try {
    return JSON.stringify(value).slice(0, max);
  } catch {
    return 'a value that is not JSON';
  }
}
