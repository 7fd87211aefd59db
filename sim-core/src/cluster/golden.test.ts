/**
 * Runs the golden scenario scripts in ./testdata (see testing/golden.ts).
 * UPDATE_GOLDEN=1 rewrites their expected outputs: review the diff.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatGolden, parseGolden, runGolden } from '../testing/golden.ts';

const dir = join(fileURLToPath(new URL('.', import.meta.url)), 'testdata');
const files = readdirSync(dir).filter((f) => f.endsWith('.txt')).sort();

describe('golden scenario scripts', () => {
	it.each(files)('%s', (name) => {
		const path = join(dir, name);
		const text = readFileSync(path, 'utf8');
		const header = text.split('\n').filter((_l, i, all) => all.slice(0, i + 1).every((x) => x.startsWith('#') || x.trim() === '')).filter((l) => l.startsWith('#'));
		const file = parseGolden(text);
		const outputs = runGolden(file);
		if (process.env.UPDATE_GOLDEN) {
			writeFileSync(path, formatGolden(file, header.length ? [...header, ''] : [], outputs));
			return;
		}
		file.cases.forEach((c, index) => {
			expect(outputs[index], `${name}:${c.line}: ${c.command.split('\n')[0]}`).toBe(c.expected);
		});
	}, 120_000);
});
