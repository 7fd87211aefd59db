import { describe, expect, it } from 'vitest';
import { findImage } from '../images.ts';
import type { OutputLine } from '../behaviour.ts';
import { bpi, bpiRuntimeMs, runPerl } from './perl.ts';

const image = (ref: string) => {
	const found = findImage(ref);
	if (!found) throw new Error(`no image ${ref}`);
	return found;
};

describe('bpi(N): π to N significant digits', () => {
	it('starts with the digits everyone knows and has N of them', () => {
		const pi = bpi(2000);
		expect(pi.startsWith('3.14159265358979323846264338327950288419716939937510')).toBe(true);
		expect(pi.replace('.', '')).toHaveLength(2000);
		// The six nines of the "Feynman point" begin at the 762nd decimal.
		expect(pi.slice(2 + 761, 2 + 767)).toBe('999999');
	});

	it('rounds the last digit: the 2000th significant digit of π is 0 followed by 9s, so it prints as 1', () => {
		expect(bpi(2000).endsWith('4780275901')).toBe(true);
		expect(bpi(2010).slice(0, 2001)).toBe(`${bpi(2000).slice(0, 2000)}0`);
	});

	it('rounds short precisions as Math::BigFloat does', () => {
		expect([bpi(1), bpi(3), bpi(5), bpi(10)]).toEqual(['3', '3.14', '3.1416', '3.141592654']);
	});
});

describe('perl in a container', () => {
	const run = (ref: string, argv: string[], main = true) => {
		const out: OutputLine[] = [];
		return runPerl(image(ref), argv, { main }, out);
	};

	it('runs the kubernetes.io Job example for about ten seconds, then prints π and exits 0', () => {
		const outcome = run('perl:5.34.0', ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)']);
		expect(outcome?.kind).toBe('serve');
		if (outcome?.kind !== 'serve') return;
		expect(outcome.out).toEqual([]);
		expect(outcome.server.exitsAfter).toMatchObject({ afterMs: 10_005, exitCode: 0, reason: 'Completed', lines: [{ stream: 'stdout', text: bpi(2000) }] });
		expect(bpiRuntimeMs(1000)).toBe(2_500);
	});

	it('prints string literals, with -l adding the newline', () => {
		const outcome = run('perl:5.34.0', ['perl', '-le', 'print "hello"; print "world"'], false);
		expect(outcome).toEqual({ kind: 'done', status: 0, out: [{ stream: 'stdout', text: 'hello' }, { stream: 'stdout', text: 'world' }] });
	});

	it("fails in a Debian base image, whose perl-base has no bignum module", () => {
		const outcome = run('nginx:1.27', ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)']);
		expect(outcome?.kind).toBe('exit');
		expect(outcome && 'status' in outcome ? outcome.status : undefined).toBe(2);
		expect(outcome && 'out' in outcome ? outcome.out[0].text : '').toMatch(/^Can't locate bignum\.pm in @INC \(you may need to install the bignum module\)/);
	});

	it('reports its version', () => {
		const outcome = run('perl:5.34.0', ['perl', '-v'], false);
		expect(outcome && 'out' in outcome ? outcome.out[1].text : '').toBe('This is perl 5, version 34, subversion 0 (v5.34.0) built for x86_64-linux-gnu');
	});
});
