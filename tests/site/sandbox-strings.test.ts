/**
 * The sandbox's UI strings: one catalogue per locale (src/content/i18n),
 * the same keys in both, and every key the sandbox's code uses present.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import en from '../../src/content/i18n/en.json' with { type: 'json' };
import zh from '../../src/content/i18n/zh-CN.json' with { type: 'json' };
import { PANELS } from '@cluster-anatomy/sim-core';

const sandboxKeys = (catalogue: Record<string, string>) => Object.keys(catalogue).filter((k) => k.startsWith('sandbox.')).sort();

function sources(dir: string): string[] {
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.test.ts'))
		.map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));
}

describe('sandbox UI strings', () => {
	it('has the same keys in English and Chinese', () => {
		expect(sandboxKeys(zh)).toEqual(sandboxKeys(en));
	});

	it('has every key the sandbox uses, in both locales', () => {
		const code = [...sources('src/islands/sandbox'), ...sources('src/sandbox')].join('\n');
		const used = new Set([...code.matchAll(/['"`](sandbox\.[a-zA-Z0-9.-]+[a-zA-Z0-9])['"`]/g)].map((m) => m[1]));
		// Keys built at run time: one tab per panel, one message per share-link problem.
		for (const panel of PANELS) used.add(`sandbox.tab.${panel}`);
		for (const problem of ['corrupt', 'too-large', 'invalid', 'version', 'unsupported', 'too-long', 'replay']) used.add(`sandbox.share.error.${problem}`);
		used.add('sandbox.error.session-full');
		const missing = [...used].filter((k) => !(k in en) || !(k in zh)).sort();
		expect(missing).toEqual([]);
	});

	it('writes Chinese for Chinese readers: no English sentence left untranslated', () => {
		const same = sandboxKeys(en).filter((k) => (en as Record<string, string>)[k] === (zh as Record<string, string>)[k] && /[a-z]{4,} [a-z]{4,}/i.test((en as Record<string, string>)[k]));
		expect(same).toEqual([]);
	});

	it('keeps the placeholders of each string in both locales', () => {
		const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
		const differ = sandboxKeys(en).filter((k) => JSON.stringify(placeholders((en as Record<string, string>)[k])) !== JSON.stringify(placeholders((zh as Record<string, string>)[k])));
		expect(differ).toEqual([]);
	});
});
