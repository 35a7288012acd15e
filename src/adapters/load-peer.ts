/**
 * Loads the framework an adapter subpath plugs into. Frameworks are optional peer dependencies:
 * a static import of a missing one fails before any code runs, with the resolver's message; this
 * says which package to install instead.
 */
export async function loadPeer<T>(subpath: string, pkg: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isMissingModule(error, pkg)) throw error;
    throw new Error(`agentvfs/${subpath} needs the package "${pkg}", which is not installed: npm install ${pkg}`, { cause: error });
  }
}

// Node says ERR_MODULE_NOT_FOUND; browsers, bundlers and workerd only have a message. Either must name the
// package itself, or it is one of the package's own dependencies that is missing: that error stays as it is.
function isMissingModule(error: unknown, pkg: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof message !== 'string' || (!message.includes(`'${pkg}`) && !message.includes(`"${pkg}`))) return false;
  return code === 'ERR_MODULE_NOT_FOUND' || /cannot find|failed to resolve|not found|could not resolve|no such module/i.test(message);
}
