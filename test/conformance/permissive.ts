/**
 * A backend factory whose tool sets all run guarded, with permissions that allow every path and
 * an approve() that allows every write: the conformance suite run over it shows the guard
 * changes nothing else. A tool set made with its own guard options (the guard suite) keeps them.
 */
import { withAudit } from '../../src/guard/audit.ts';
import { createLocalTools } from '../../src/tools/create-tools.ts';
import { isToolHost } from '../../src/tool-host.ts';
import type { Backend, ToolsOptions } from '../../src/index.ts';
import type { BackendFactory } from './harness.ts';

export const permissiveStats = { questions: 0, events: 0 };

export function permissive(make: BackendFactory): BackendFactory {
  return async (options) => guarded(await make(options));
}

/** The backend with its tool sets guarded; its forks are too, and a wrapped backend passed as an argument goes in as itself. */
function guarded(backend: Backend): Backend {
  const session = (toolOptions: ToolsOptions = {}) => {
    if (toolOptions.permissions || toolOptions.approve)
      return isToolHost(backend) ? backend.createToolSession(toolOptions) : createLocalTools(backend, toolOptions);
    // Guard options the caller did not give: createTools audits by the caller's, so the audit for
    // these is ours (it takes the decision off, which the caller's onEvent then does not see).
    const options = {
      ...toolOptions,
      permissions: { read: ['/**'], write: ['/**'] },
      approve: () => (permissiveStats.questions++, { allow: true as const }),
    };
    return withAudit(isToolHost(backend) ? backend.createToolSession(options) : createLocalTools(backend, options), () => void permissiveStats.events++);
  };
  // A proxy, not a subclass: a backend's methods need their own instance as `this` (private fields),
  // and so does a backend passed to merge() or diff().
  const proxy = new Proxy(backend, {
    get(target, key) {
      if (key === 'createToolSession') return session;
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      const call = (...args: unknown[]) =>
        (value as (...a: unknown[]) => unknown).apply(
          target,
          args.map((a) => unwrapped.get(a as object) ?? a),
        );
      return key === 'fork' ? async () => guarded((await call()) as Backend) : call;
    },
  }) as Backend;
  unwrapped.set(proxy, backend);
  return proxy;
}

const unwrapped = new WeakMap<object, Backend>();
