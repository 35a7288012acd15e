/**
 * Where `agentvfs mcp` finds the MCP SDK when it is not installed beside agentvfs: in the project
 * it is run from. `npx -p agentvfs -p @modelcontextprotocol/sdk agentvfs mcp` run inside a project
 * that has the SDK already installs agentvfs alone (npx leaves out a package the project has), so
 * the SDK is found only from the working directory.
 */
// (The module object, not `{ register }`: before Node 20.6 node:module has no register, and a name a
// built-in does not export fails the import, so agentvfs mcp would not start at all.)
import nodeModule from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// A module resolve hook (it runs in Node's loader thread): a specifier of the SDK or zod that is not
// found from where it is imported is looked for from the working directory.
const HOOKS = `
let parentURL;
export function initialize(data) { parentURL = data.parentURL; }
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !/^(@modelcontextprotocol\\/sdk|zod)(\\/|$)/.test(specifier)) throw error;
    return next(specifier, { ...context, parentURL });
  }
}`;

export function findPeersFromWorkingDirectory(): void {
  // (module.register is Node 20.6 and later; before it, the SDK must be beside agentvfs)
  if (typeof nodeModule.register !== 'function') return;
  nodeModule.register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, { data: { parentURL: pathToFileURL(join(process.cwd(), 'package.json')).href } });
}
