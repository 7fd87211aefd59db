import { defineConfig } from 'vitest/config';

// Two speeds, as Starlight does: many fast unit tests (the simulation, the
// site's build-time utilities, the content checks), and a few browser tests
// that drive Debian's Chromium against the built site.
export default defineConfig({
	test: {
		projects: [
			{
				test: {
					name: 'unit',
					include: ['sim-core/src/**/*.test.ts', 'sim-core/lint/**/*.test.ts', 'tests/site/**/*.test.ts', 'tests/content/**/*.test.ts'],
					environment: 'node',
					// Speed is measured by the benchmarks, not here: the timeout only has to catch a hang, also on a busy 2-core machine.
					testTimeout: 30_000,
				},
			},
			{
				test: {
					name: 'browser',
					include: ['tests/browser/**/*.test.ts'],
					environment: 'node',
					globalSetup: ['tests/browser/global-setup.ts'],
					// One Chromium at a time on a 2-core machine.
					fileParallelism: false,
					testTimeout: 60_000,
					hookTimeout: 60_000,
					// The sandbox's simulation answers in a worker; on a busy machine that takes seconds.
					expect: { poll: { timeout: 15_000, interval: 100 } },
				},
			},
		],
		benchmark: { include: ['sim-core/bench/**/*.bench.ts', 'tests/bench/**/*.bench.ts'] },
	},
});
