import { createRequire } from 'node:module';

// Node 20 cannot run TypeScript by itself: a skill's .ts scripts run with tsx's loader, the one SkillAudit ships
// with. The sandbox hides SkillAudit's own install, so the loader and the two packages it loads (esbuild and its
// binary for this platform) are shown inside, read-only, at their own paths; nothing else of the install is.

export interface TypeScriptLoader {
  /** Node arguments that load the TypeScript hooks. */
  nodeArgs: string[];
  /** The package folders the loader needs inside the sandbox. */
  readOnlyPaths: string[];
}

/** The folder of the package `file` belongs to: the path up to `node_modules/<name>`. */
function packageDir(file: string, name: string): string {
  const marker = `/node_modules/${name}/`;
  return file.slice(0, file.lastIndexOf(marker) + marker.length - 1);
}

let cached: TypeScriptLoader | string | undefined;

/** tsx's loader and the folders it needs, or why there is none. */
export function typescriptLoader(): TypeScriptLoader | string {
  if (cached !== undefined) return cached;
  try {
    // tsx's main entry registers both its CommonJS and ES module hooks (a .ts file is CommonJS outside a
    // `type: module` package, as under `npx tsx`).
    const loader = createRequire(import.meta.url).resolve('tsx');
    const esbuild = createRequire(loader).resolve('esbuild');
    const binary = `@esbuild/${process.platform}-${process.arch}`;
    const native = createRequire(esbuild).resolve(`${binary}/package.json`);
    cached = {
      nodeArgs: ['--import', loader],
      readOnlyPaths: [packageDir(loader, 'tsx'), packageDir(esbuild, 'esbuild'), packageDir(native, binary)],
    };
  } catch {
    cached = 'no TypeScript loader (tsx) is available';
  }
  return cached;
}
