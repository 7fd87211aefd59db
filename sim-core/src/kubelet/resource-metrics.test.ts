import { describe, expect, it } from 'vitest';
import { goFloatG } from './resource-metrics.ts';

describe('goFloatG: strconv.FormatFloat(v, g, -1, 64) as the Prometheus text format writes values', () => {
	it.each([
		[0, '0'],
		[1.5, '1.5'],
		[999999, '999999'],
		[1e6, '1e+06'],
		[12345678, '1.2345678e+07'],
		[0.0001, '0.0001'],
		[0.00001, '1e-05'],
		[1.7e9, '1.7e+09'],
	])('%d → %s', (v, text) => {
		expect(goFloatG(v)).toBe(text);
	});
});
