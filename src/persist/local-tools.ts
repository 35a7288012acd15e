/**
 * createLocalTools, loaded the first time one of its calls runs: a page whose backend (and so its
 * tools) lives in a worker never runs the in-process tools, and its bundle need not hold them
 * (~60 kB gzip; a bundler puts them in a chunk of their own). The definitions are there at once.
 */
import type { Backend } from '../backend/types.ts';
import { checkGuardOptions } from '../guard/options.ts';
import type { ToolsAround } from '../tool-host.ts';
import { dialectDefinitions } from '../tools/dialects/definitions.ts';
import { checkDialect } from '../tools/dialects/names.ts';
import { runWithin, toolSet } from '../tools/tool-set.ts';
import type { Tools, ToolsOptions } from '../tools/types.ts';

export function lazyLocalTools(backend: Backend, options: ToolsOptions, around?: ToolsAround): Tools<string> {
  checkGuardOptions(options); // a bad option fails where the tool set is made, as in process
  let made: Promise<Tools<string>> | undefined;
  const tools = () => (made ??= import('../tools/create-tools.ts').then(({ createLocalTools }) => createLocalTools(backend, options, around)));
  return toolSet(dialectDefinitions(checkDialect(options.dialect), options.descriptions), async (name, args, call) =>
    runWithin(await tools(), name, args, call),
  );
}
