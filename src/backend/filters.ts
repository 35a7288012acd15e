/**
 * grep's per-file filters (content-filter.ts), kept beside the tree rather than on its Meta,
 * which checkpoints share and treat as immutable. Keyed weakly by the identity of a file's
 * bytes (contentKey), so nothing needs invalidating: a write makes a new key, a rename or a
 * rollback keeps the old one (same bytes, same filter), and a filter goes when its key does.
 */
import { buildFilter, type Filter } from './content-filter.ts';
import { contentKey, type Meta } from './tree.ts';

export class Filters {
  readonly #byContent = new WeakMap<Meta, Filter>();

  /** The filter of this file's bytes, if one was built. */
  get(meta: Meta): Filter | undefined {
    return this.#byContent.get(contentKey(meta));
  }

  /** The filter of this file's bytes, built now unless one was. */
  build(meta: Meta, path: string, files: { view(path: string): Uint8Array }): Filter {
    const key = contentKey(meta);
    let filter = this.#byContent.get(key);
    if (filter === undefined) this.#byContent.set(key, (filter = buildFilter(files.view(path))));
    return filter;
  }
}
