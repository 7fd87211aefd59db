import { describe, expect, it } from 'vitest';
import { appendJournal, emptyKubeletUnitRecord, KUBELET_JOURNAL_MAX } from './records.ts';
import { klogRecord as klogLine } from '../../component-base/klog.ts';

const T = 1_796_025_601_123; // 2026-11-30T08:00:01.123Z

describe('klog text lines', () => {
	it('have the severity, date, time with microseconds, a 7-wide thread id, the source and key=value pairs', () => {
		expect(klogLine('I', T, 1234, 'kubelet.go:2345', 'Pod added', { pod: 'default/web', count: 3, ready: true })).toBe('I1130 08:00:01.123000    1234 kubelet.go:2345] "Pod added" pod="default/web" count=3 ready=true');
		expect(klogLine('E', T, 7, 'x.go:1', 'Failed', { err: 'a "quoted" thing' }, 42)).toBe('E1130 08:00:01.123042       7 x.go:1] "Failed" err="a \\"quoted\\" thing"');
	});
});

describe('the journal', () => {
	it('keeps only the newest lines', () => {
		const host = emptyKubeletUnitRecord();
		for (let i = 0; i < KUBELET_JOURNAL_MAX * 2; i++) appendJournal(host, { wallMs: i, pid: 1, line: String(i) });
		expect(host.journal.length).toBeLessThanOrEqual(KUBELET_JOURNAL_MAX + KUBELET_JOURNAL_MAX / 10);
		expect(host.journal[host.journal.length - 1].line).toBe(String(KUBELET_JOURNAL_MAX * 2 - 1));
	});
});
