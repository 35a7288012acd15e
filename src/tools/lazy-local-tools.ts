/**
 * createLocalTools, whose session is loaded the first time one of its calls runs: a page whose
 * backend (and so its tools) lives in a worker never runs the in-process tools, and its bundle
 * need not hold them (~60 kB gzip; a bundler puts them in a chunk of their own). The definitions
 * are there at once, and `around` wraps the session at once, as createLocalTools does (a wrapper
 * that checks it was called, as savedToolSession does, must see it). As through a worker, a
 * permission glob the matcher cannot compile rejects the calls (a bad option of any other kind
 * fails here); a failed load rejects its calls, and the next call loads again.
 */
import type { Backend } from '../backend/types.ts';
import { checkGuardOptions } from '../guard/options.ts';
import type { ToolsAround } from '../tool-host.ts';
import { dialectDefinitions } from './dialects/definitions.ts';
import { checkDialect } from './dialects/names.ts';
import { runWithin, toolSet } from './tool-set.ts';
import type { Tools, ToolsOptions } from './types.ts';

let loading: Promise<typeof import('./create-tools.ts')> | undefined;

/** The in-process tools' module, loaded once (again after a failed load). */
export function loadLocalTools(): Promise<typeof import('./create-tools.ts')> {
  return (loading ??= import('./create-tools.ts').catch((error: unknown) => {
    loading = undefined;
    throw error;
  }));
}

export function lazyLocalTools(backend: Backend, options: ToolsOptions, around?: ToolsAround): Tools<string> {
  checkGuardOptions(options);
  // One session for every call, the first ones too, though they start before it is made.
  let made: Promise<Tools<string>> | undefined;
  const session = () =>
    (made ??= loadLocalTools()
      .then((tools) => tools.createSessionTools(backend, options))
      .catch((error: unknown) => {
        made = undefined;
        throw error;
      }));
  const lazy = toolSet(
    dialectDefinitions(checkDialect(options.dialect), options.descriptions),
    async (name, args, call) => runWithin(await session(), name, args, call),
    async (name, args, options) => (await session()).preview(name, args, options),
  );
  return around ? around(lazy) : lazy;
}
