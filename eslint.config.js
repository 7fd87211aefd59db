// @ts-check
import tseslint from 'typescript-eslint';
import simCoreBoundaries from './sim-core/lint/component-boundaries.js';

/** Sources of non-determinism the simulation must never touch: it runs on a
 *  virtual clock and a seeded PRNG so one seed and one input give one trace. */
const nondeterministicGlobals = [
	{ name: 'Date', message: 'sim-core runs on the virtual clock: use the kernel clock (ctx.now()).' },
	{ name: 'setTimeout', message: 'sim-core has no timers: schedule an event on the kernel queue.' },
	{ name: 'setInterval', message: 'sim-core has no timers: schedule an event on the kernel queue.' },
	{ name: 'setImmediate', message: 'sim-core has no timers: schedule an event on the kernel queue.' },
	{ name: 'queueMicrotask', message: 'sim-core has no timers: schedule an event on the kernel queue.' },
	{ name: 'requestAnimationFrame', message: 'sim-core has no timers: schedule an event on the kernel queue.' },
	{ name: 'requestIdleCallback', message: 'sim-core has no timers: schedule an event on the kernel queue.' },
	{ name: 'performance', message: 'sim-core has no wall clock: use the kernel clock.' },
	{ name: 'crypto', message: 'sim-core has no ambient randomness: use the seeded PRNG.' },
];

const nondeterministicProperties = [
	{ object: 'Math', property: 'random', message: 'Use the seeded PRNG (sim/rng.ts).' },
	{ object: 'Date', property: 'now', message: 'Use the kernel clock.' },
	{ object: 'performance', property: 'now', message: 'Use the kernel clock.' },
	{ object: 'globalThis', property: 'Date', message: 'Use the kernel clock.' },
	{ object: 'globalThis', property: 'setTimeout', message: 'Schedule an event on the kernel queue.' },
	{ object: 'globalThis', property: 'performance', message: 'Use the kernel clock.' },
	{ object: 'crypto', property: 'randomUUID', message: 'Use the seeded PRNG.' },
	{ object: 'crypto', property: 'getRandomValues', message: 'Use the seeded PRNG.' },
];

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', '.astro/**', 'tests/.output/**', '.tools/**', 'src/content/docs/**', '**/*.astro', 'scripts/.*'] },
	{
		files: ['**/*.{ts,tsx,js,mjs}'],
		extends: [tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
			'@typescript-eslint/no-explicit-any': 'error',
			eqeqeq: ['error', 'always'],
			'no-console': 'off',
		},
	},
	{
		files: ['sim-core/src/**/*.ts'],
		rules: {
			'no-restricted-globals': ['error', ...nondeterministicGlobals],
			'no-restricted-properties': ['error', ...nondeterministicProperties],
			'no-restricted-syntax': [
				'error',
				{ selector: "NewExpression[callee.name='Date']", message: 'sim-core runs on the virtual clock.' },
				{ selector: "ImportDeclaration[source.value=/^node:/]", message: 'sim-core/src is pure ECMAScript: no Node modules (tests may use them).' },
			],
		},
	},
	{
		// Components meet only through the API server and the shared layers (sim-core/lint/component-boundaries.js).
		files: ['sim-core/src/**/*.ts'],
		plugins: { 'sim-core': simCoreBoundaries },
		rules: { 'sim-core/component-boundaries': 'error' },
	},
	{
		// Tests beside the code may read golden files from disk.
		files: ['sim-core/src/**/*.test.ts'],
		rules: { 'no-restricted-syntax': ['error', { selector: "NewExpression[callee.name='Date']", message: 'sim-core runs on the virtual clock.' }] },
	},
);
