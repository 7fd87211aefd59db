/**
 * Serves the built site once for all browser tests. The tests need a build:
 * `npm test` runs `npm run build` first; run it yourself before
 * `npm run test:browser`.
 */
import type { TestProject } from 'vitest/node';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serveDist } from '../../scripts/serve-dist.mjs';
import { siteConfig } from '../../site.config.mjs';
import { findChromium } from '../find-chromium.ts';

declare module 'vitest' {
	export interface ProvidedContext {
		siteUrl: string;
		chromiumPath: string;
	}
}

export default async function setup(project: TestProject) {
	// DIST_DIR tests another build (e.g. `astro build --outDir`) than dist/.
	const root = resolve(process.env.DIST_DIR ?? 'dist');
	if (!existsSync(join(root, 'index.html'))) {
		throw new Error(`No built site in ${root}: run \`npm run build\` before the browser tests.`);
	}
	const chromium = await findChromium();
	console.log(`browser tests: Chromium from ${chromium.source} (${chromium.executablePath})`);
	project.provide('chromiumPath', chromium.executablePath);
	const server = await serveDist({ root, base: siteConfig.base });
	project.provide('siteUrl', server.url);
	return () => server.close();
}
