/**
 * grep's per-file filters (content-filter.ts), kept beside the tree rather than on its Meta,
 * which checkpoints share and treat as immutable. Keyed weakly by the identity of a file's
 * bytes (contentKey), so nothing needs invalidating: a write makes a new key, a rename or a
 * rollback keeps the old one (same bytes, same filter), and a filter goes when its key does.
 */
import { buildFilter, type Filter } from './content-filter.ts';
import { contentKey, type FileList, type Meta } from './tree.ts';

export class Filters {
  readonly #byContent = new WeakMap<Meta, Filter>();
  // The tree's last whole file list asked about, and its filters by position. The tree keeps
  // that list until a file is created or removed, so a search reads its filters from an array
  // instead of looking each one up (the lookups cost ~1 ms per 15k files, 5% of a search).
  #list: readonly Meta[] | null = null;
  #keys: (Meta | undefined)[] = [];
  #byPosition: (Filter | undefined)[] = [];

  /**
   * The filters by position for `list` (`filters[list.offset + i]` is file i's while
   * `keys[list.offset + i] === list.metas[i]`), for a loop that reads them inline; `at()` otherwise.
   */
  positions(list: FileList): { readonly keys: readonly (Meta | undefined)[]; readonly filters: readonly (Filter | undefined)[] } {
    if (list.all !== this.#list) this.#align(list.all);
    return { keys: this.#keys, filters: this.#byPosition };
  }

  /** The filter of the bytes of file `list.metas[i]`, if one was built. */
  at(list: FileList, i: number): Filter | undefined {
    if (list.all !== this.#list) this.#align(list.all);
    const meta = list.metas[i]!;
    const at = list.offset + i;
    if (this.#keys[at] === meta) return this.#byPosition[at];
    const filter = this.#byContent.get(contentKey(meta));
    if (filter !== undefined) this.#remember(at, meta, filter);
    return filter;
  }

  /** The filter of the bytes of file `list.metas[i]` (at `list.paths[i]`), built now unless one was. */
  build(list: FileList, i: number, files: { view(path: string): Uint8Array }): Filter {
    const known = this.at(list, i);
    if (known !== undefined) return known;
    const meta = list.metas[i]!;
    const filter = buildFilter(files.view(list.paths[i]!));
    this.#byContent.set(contentKey(meta), filter);
    this.#remember(list.offset + i, meta, filter);
    return filter;
  }

  #align(metas: readonly Meta[]): void {
    this.#list = metas;
    // Filled, not holey: V8 reads a packed array faster in the search loop.
    this.#keys = new Array<Meta | undefined>(metas.length).fill(undefined);
    this.#byPosition = new Array<Filter | undefined>(metas.length).fill(undefined);
  }

  // The tree rewrites a list's entries in place when files change: the key says whose filter it is.
  #remember(i: number, meta: Meta, filter: Filter): void {
    this.#keys[i] = meta;
    this.#byPosition[i] = filter;
  }
}
