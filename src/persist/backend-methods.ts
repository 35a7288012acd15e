/** Every method a backend has, own or inherited (a class instance, a plain object, another wrapper). */
export function methodNames(backend: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = backend; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const key of Object.getOwnPropertyNames(o)) {
      if (key !== 'constructor' && typeof (backend as Record<string, unknown>)[key] === 'function') names.add(key);
    }
  }
  return [...names];
}
