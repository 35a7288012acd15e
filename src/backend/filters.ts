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
  // Pairs side by side (the Meta a filter belongs to, then the filter), so the search loop reads
  // one stream of memory rather than two arrays.
  #byPosition: (Meta | Filter | undefined)[] = [];

  /**
   * The filters by position for `list`: file i's filter is `pairs[2 * (list.offset + i) + 1]`
   * while `pairs[2 * (list.offset + i)] === list.metas[i]`; a loop reads them inline, `at()` otherwise.
   */
  positions(list: FileList): readonly (Meta | Filter | undefined)[] {
    if (list.all !== this.#list) this.#align(list.all);
    return this.#byPosition;
  }

  /** The filter of the bytes of file `list.metas[i]`, if one was built. */
  at(list: FileList, i: number): Filter | undefined {
    if (list.all !== this.#list) this.#align(list.all);
    const meta = list.metas[i]!;
    const at = 2 * (list.offset + i);
    if (this.#byPosition[at] === meta) return this.#byPosition[at + 1] as Filter | undefined;
    const filter = this.#byContent.get(contentKey(meta));
    if (filter !== undefined) this.#remember(list.offset + i, meta, filter);
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
    this.#byPosition = new Array<Meta | Filter | undefined>(2 * metas.length).fill(undefined);
  }

  // The tree rewrites a list's entries in place when files change: the key says whose filter it is.
  #remember(i: number, meta: Meta, filter: Filter): void {
    this.#byPosition[2 * i] = meta;
    this.#byPosition[2 * i + 1] = filter;
  }
}
