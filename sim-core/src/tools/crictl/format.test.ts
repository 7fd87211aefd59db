/**
 * The Go formats crictl's output is built from. Expected values follow the
 * Go sources: docker/go-units duration.go and size.go (HumanDuration,
 * HumanSizeWithPrecision with `%.*g`), logrus text_formatter.go (a level cut
 * to four letters, `[%04d]`, the message padded with `%-44s` and a space),
 * text/tabwriter with crictl's settings (minwidth 20, padding 3) and Go's
 * time.RFC3339Nano.
 */
import { describe, expect, it } from 'vitest';
import { crictlTable, goG, humanDuration, humanSize, klogErrorLine, logrusLine, rfc3339Nano, sortKeysDeep, statusDataJson } from './format.ts';

describe('HumanDuration (go-units)', () => {
	it.each([
		[0, 'Less than a second'],
		[999, 'Less than a second'],
		[1_000, '1 second'],
		[59_999, '59 seconds'],
		[60_000, 'About a minute'],
		[119_999, 'About a minute'],
		[120_000, '2 minutes'],
		[59 * 60_000, '59 minutes'],
		// Hours round half up: 89 minutes is 1.48 h, so "About an hour"; 90 minutes is 1.5 h, so 2 hours.
		[89 * 60_000, 'About an hour'],
		[90 * 60_000, '2 hours'],
		[47 * 3_600_000, '47 hours'],
		[48 * 3_600_000, '2 days'],
		[14 * 86_400_000, '2 weeks'],
		[60 * 86_400_000, '2 months'],
		[2 * 365 * 86_400_000, '2 years'],
	])('%d ms is %s', (ms, text) => {
		expect(humanDuration(ms)).toBe(text);
	});
});

describe('HumanSizeWithPrecision(size, 3)', () => {
	it.each([
		[0, '0B'],
		[999, '999B'],
		[320_450, '320kB'],
		[2_160_000, '2.16MB'],
		[44_710_000, '44.7MB'],
		[72_000_000, '72MB'],
		// 999.999 kB has three significant digits as 1.00e+03: Go's %g switches to the exponent form.
		[999_999, '1e+03kB'],
		[1_020_000_000, '1.02GB'],
	])('%d bytes is %s', (bytes, text) => {
		expect(humanSize(bytes)).toBe(text);
	});

	it('formats %g like Go: shortest digits, exponent with two digits and a sign', () => {
		expect(goG(0.0001234, 3)).toBe('0.000123');
		expect(goG(0.00001234, 3)).toBe('1.23e-05');
		expect(goG(100, 3)).toBe('100');
	});
});

describe('logrus text lines on a terminal', () => {
	it('pad the message to 44 columns and end with a space', () => {
		expect(logrusLine('fatal', 'no such image nginx')).toBe('FATA[0000] no such image nginx                          \n');
		expect(logrusLine('warning', 'x'.repeat(50), 3.7)).toBe(`WARN[0003] ${'x'.repeat(50)} \n`);
		expect(logrusLine('error', 'a', 12)).toBe(`ERRO[0012] a${' '.repeat(43)} \n`);
		expect(logrusLine('info', 'b')).toBe(`INFO[0000] b${' '.repeat(43)} \n`);
	});
});

describe('klog error lines of the CRI client', () => {
	it('carry the severity, date, microseconds, the PID padded to 7, the source, then quoted message and values', () => {
		// 2026-11-30T08:00:01.250Z
		expect(klogErrorLine(1_796_025_601_250, 3042, 'remote_runtime.go:569', 'ContainerStatus from runtime service failed', 'rpc error: code = NotFound desc = "x"', [['containerID', 'abc'], ['cmd', '[ls -l]', true]])).toBe(
			'E1130 08:00:01.250000    3042 remote_runtime.go:569] "ContainerStatus from runtime service failed" err="rpc error: code = NotFound desc = \\"x\\"" containerID="abc" cmd=[ls -l]\n',
		);
	});
});

describe("crictl's tables (tabwriter minwidth 20, padding 3)", () => {
	it('pad each cell but the last to the widest cell plus 3, and at least 20', () => {
		const text = crictlTable([
			['POD ID', 'NAME', 'NAMESPACE'],
			['abc', 'kube-controller-manager-control-plane', 'kube-system'],
		]);
		// NAME's column: the 37-character pod name plus 3 = 40 columns.
		expect(text).toBe('POD ID' + ' '.repeat(14) + 'NAME' + ' '.repeat(36) + 'NAMESPACE\n' + 'abc' + ' '.repeat(17) + 'kube-controller-manager-control-plane   kube-system\n');
	});
});

describe('times and JSON', () => {
	it('write RFC3339Nano without trailing zeros', () => {
		// 2026-11-30T08:00:01.250Z
		expect(rfc3339Nano(1_796_025_601_250)).toBe('2026-11-30T08:00:01.25Z');
		expect(rfc3339Nano(1_796_025_601_000)).toBe('2026-11-30T08:00:01Z');
	});

	it('sorts map keys at every level and prints one status bare, several as an array', () => {
		expect(sortKeysDeep({ b: 1, a: { d: [{ z: 1, y: 2 }], c: 'x' } })).toEqual({ a: { c: 'x', d: [{ y: 2, z: 1 }] }, b: 1 });
		expect(statusDataJson([{ status: { id: 'x' }, info: {} }])).toBe('{\n  "info": {},\n  "status": {\n    "id": "x"\n  }\n}\n');
		expect(statusDataJson([{ a: 1 }, { a: 2 }])).toBe('[\n  {\n    "a": 1\n  },\n  {\n    "a": 2\n  }\n]\n');
	});
});
