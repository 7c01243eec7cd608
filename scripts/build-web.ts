/**
 * Builds the web viewer into web/dist/: type-checks web/ against the DOM library, bundles
 * web/src/main.ts (with the shared protocol modules and valibot) into one ES module, and
 * copies the static page and stylesheet. The bridge serves web/dist/ at `GET /`.
 *
 * Usage: node dist/scripts/build-web.js [--no-check]   (run from anywhere; paths are repo-relative)
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** dist/scripts/build-web.js → the repository root. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WEB = join(ROOT, 'web');
const OUT = join(WEB, 'dist');
const STATIC_FILES = ['index.html', 'styles.css', 'favicon.svg'];

function typeCheck(): void {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  if (!existsSync(tsc)) throw new Error(`TypeScript compiler not found at ${tsc}; run npm ci first`);
  try {
    execFileSync(process.execPath, [tsc, '-p', join(WEB, 'tsconfig.json'), '--noEmit'], { cwd: ROOT, stdio: 'inherit' });
  } catch {
    throw new Error('type errors in web/ (listed above); fix them, or pass --no-check to bundle anyway');
  }
}

export async function buildWeb(options: { check?: boolean; minify?: boolean } = {}): Promise<void> {
  if (options.check !== false) typeCheck();
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  await build({
    entryPoints: [join(WEB, 'src', 'main.ts')],
    outfile: join(OUT, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    minify: options.minify ?? true,
    sourcemap: true,
    // platform browser: a Node import sneaking into the shared protocol modules fails the build here.
    logLevel: 'warning',
  });
  for (const file of STATIC_FILES) copyFileSync(join(WEB, file), join(OUT, file));
}

const invokedDirectly = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (invokedDirectly) {
  buildWeb({ check: !process.argv.includes('--no-check') }).then(
    () => console.log(`web viewer built into ${OUT}`),
    (err: unknown) => {
      console.error(`build-web: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
