/**
 * Which Chromium the browser tests and the benchmarks drive. In order:
 * `CHROMIUM_PATH` when set; a system Chromium (Debian's `chromium`,
 * Ubuntu's `chromium-browser`, Google Chrome); otherwise the one the npm
 * registry ships in `@sparticuz/chromium` (a devDependency), unpacked into
 * the system's temporary folder the first time. So `npm test` needs nothing
 * installed by hand: `npx playwright install` cannot reach its download
 * servers here, the npm registry can.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** A Chromium to launch, and where it came from (for the test log). */
export interface FoundChromium {
	executablePath: string;
	source: 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';
}

/** Names a system Chromium goes by, first found on PATH wins. */
const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

function executable(path: string): boolean {
	try {
		accessSync(path, constants.X_OK);
		return true;
	} catch {
		return false;
	}
}

/** The first system Chromium on a PATH, if any. */
export function systemChromium(pathVariable: string): string | undefined {
	const dirs = pathVariable.split(delimiter).filter(Boolean);
	for (const name of SYSTEM_NAMES) for (const dir of dirs) if (executable(join(dir, name))) return join(dir, name);
	return undefined;
}

let found: Promise<FoundChromium> | undefined;

/** Finds (and the first time, for the npm build, unpacks) a Chromium; throws with what to do when none can run. */
export function findChromium(): Promise<FoundChromium> {
	found ??= locateChromium(process.env);
	return found;
}

/** findChromium's search, for an environment (CHROMIUM_PATH, PATH) of the caller's choosing. */
export async function locateChromium(env: Record<string, string | undefined>): Promise<FoundChromium> {
	const configured = env.CHROMIUM_PATH;
	if (configured) {
		if (!executable(configured)) throw new Error(`CHROMIUM_PATH is ${configured}, which is not an executable file.`);
		return { executablePath: configured, source: 'CHROMIUM_PATH' };
	}
	const system = systemChromium(env.PATH ?? '');
	if (system) return { executablePath: system, source: 'system' };
	try {
		const { default: packaged } = (await import('@sparticuz/chromium')) as { default: { executablePath(): Promise<string> } };
		return { executablePath: await packaged.executablePath(), source: '@sparticuz/chromium' };
	} catch (error) {
		throw new Error(
			'No Chromium for the browser tests: none on PATH (chromium, chromium-browser, google-chrome), CHROMIUM_PATH unset, ' +
				`and the npm package @sparticuz/chromium could not be unpacked (${(error as Error).message}). ` +
				'Run `npm install` again, install Chromium (Debian: `apt-get install chromium`), or set CHROMIUM_PATH.',
		);
	}
}
