/**
 * A backend factory whose tool sets all run guarded, with permissions that allow every path and
 * an approve() that allows every write: the conformance suite run over it shows the guard
 * changes nothing else. A tool set made with its own guard options (the guard suite) keeps them.
 */
import { createLocalTools } from '../../src/tools/create-tools.ts';
import { isToolHost } from '../../src/tool-host.ts';
import type { Backend, ToolsOptions } from '../../src/index.ts';
import type { BackendFactory } from './harness.ts';

export const permissiveStats = { questions: 0, events: 0 };

export function permissive(make: BackendFactory): BackendFactory {
  return async (options) => {
    const backend = await make(options);
    const session = (toolOptions: ToolsOptions = {}) => {
      const guarded =
        toolOptions.permissions || toolOptions.approve
          ? toolOptions
          : {
              ...toolOptions,
              permissions: { read: ['/**'], write: ['/**'] },
              approve: () => (permissiveStats.questions++, { allow: true as const }),
              onEvent: () => void permissiveStats.events++,
            };
      return isToolHost(backend) ? backend.createToolSession(guarded) : createLocalTools(backend, guarded);
    };
    // A proxy, not a subclass: a RemoteBackend's methods need their own instance as `this`.
    return new Proxy(backend, {
      get(target, key) {
        if (key === 'createToolSession') return session;
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Backend;
  };
}
