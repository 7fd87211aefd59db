/** The sandbox UI's formatting helpers (src/sandbox/format.ts). */
import { describe, expect, it } from 'vitest';
import { codeSegments, commonPrefix, formatClock, formatElapsed, terminalText, translator } from '../../src/sandbox/format.ts';

describe('sandbox formatting', () => {
	it('finds the longest common prefix of completion candidates', () => {
		expect(commonPrefix(['node-1', 'node-2'])).toBe('node-');
		expect(commonPrefix(['po'])).toBe('po');
		expect(commonPrefix([])).toBe('');
	});

	it('fills placeholders and falls back to the key', () => {
		const t = translator({ 'sandbox.a': 'Play at {speed}x', 'sandbox.b': 'no {value} here' });
		expect(t('sandbox.a', { speed: 60 })).toBe('Play at 60x');
		expect(t('sandbox.b')).toBe('no {value} here');
		expect(t('sandbox.missing')).toBe('sandbox.missing');
	});

	it('shows the cluster clock in UTC and the time since the start', () => {
		expect(formatClock(Date.UTC(2026, 10, 30, 8, 3, 15))).toBe('08:03:15');
		expect(formatElapsed(5_000)).toBe('+0:05');
		expect(formatElapsed(750_000)).toBe('+12:30');
		expect(formatElapsed(3_723_000)).toBe('+1:02:03');
		expect(formatElapsed(-5)).toBe('+0:00');
	});

	it('splits inline code', () => {
		expect(codeSegments('Run `kubectl get pods` now')).toEqual([
			{ code: false, text: 'Run ' },
			{ code: true, text: 'kubectl get pods' },
			{ code: false, text: ' now' },
		]);
		expect(codeSegments('plain')).toEqual([{ code: false, text: 'plain' }]);
	});

	it('cleans terminal output: clear-screen and colour escapes', () => {
		expect(terminalText('a\n\x1b[H\x1b[2Jb\n')).toEqual({ cleared: true, text: 'b\n' });
		expect(terminalText('\x1b[31mred\x1b[0m\n')).toEqual({ cleared: false, text: 'red\n' });
	});
});
