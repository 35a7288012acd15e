// The third-party packages a build bundles into dist/, and their licence texts: MIT, BSD and
// Apache-2.0 all ask that the notice travel with the code, so dist/THIRD-PARTY-LICENSES.md does.
// `bundledPackages` is a build plugin that notes every package a bundle took a module from;
// `writeLicenses` writes the file once every bundle is built.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

/** The package root holding `file` (the nearest package.json with a name), or null outside node_modules. */
function packageRoot(file) {
  if (!file.includes(`${sep}node_modules${sep}`)) return null;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name) return dir;
  }
  return null;
}

export function bundledPackages(roots) {
  return {
    name: 'agentvfs-bundled-packages',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        for (const id of chunk.moduleIds ?? Object.keys(chunk.modules ?? {})) {
          const root = packageRoot(id.replace(/^\0/, '').split('?')[0]);
          if (root !== null) roots.add(root);
        }
      }
    },
  };
}

export function writeLicenses(roots, out) {
  const sections = [...roots]
    .map((root) => {
      const { name, version, license } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
      const file = readdirSync(root).find((f) => /^(licen[cs]e|copying)([.-]|$)/i.test(f));
      if (!file) throw new Error(`${name}@${version} is bundled into dist/ but ships no licence file: add its notice by hand.`);
      return { name, version, license, text: readFileSync(join(root, file), 'utf8').trim() };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  const unique = sections.filter((s, i) => i === 0 || s.name !== sections[i - 1].name || s.version !== sections[i - 1].version);
  const body = unique.map((s) => `## ${s.name}@${s.version} (${s.license})\n\n\`\`\`\n${s.text}\n\`\`\``).join('\n\n');
  writeFileSync(out, `# Third-party licences\n\nagentvfs bundles these packages into \`dist/\`; their notices follow.\n\n${body}\n`);
  return unique.length;
}
