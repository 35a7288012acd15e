/**
 * createTools for a page whose backend lives in a worker: the same tool sets as agentvfs's
 * createTools over a RemoteBackend (or a persisted one), without the code that runs tools in
 * process, which a page bundling agentvfs's createTools carries (~65 kB gzip) though it never runs.
 */
import type { Backend } from '../backend/types.ts';
import { numberedTools } from '../tools/numbered-tools.ts';
import type { DialectName, DialectToolName } from '../tools/dialects/names.ts';
import type { Tools, ToolsOptions } from '../tools/types.ts';

export function createTools<D extends DialectName = 'agentvfs'>(backend: Backend, options: ToolsOptions<D> = {}): Tools<DialectToolName<D>> {
  return numberedTools(backend, options, () => {
    throw new TypeError(
      "createTools from 'agentvfs/client' runs the tools where a worker's backend lives (a RemoteBackend from connect() or createWorkerBackend(), or openPersistent over one); this backend is in process: import createTools from 'agentvfs' instead.",
    );
  });
}
