import { describe, expect, it } from 'vitest';
import { pruneRecentTables, recentCheck, recentSet, RECENT_IP_LIST_TOT, RECENT_IP_PKT_LIST_TOT, type RecentTables } from './recent.ts';

describe('xt_recent tables', () => {
	it('--rcheck --seconds finds an address seen within the window and --reap forgets it after', () => {
		const t: RecentTables = {};
		expect(recentCheck(t, 'KUBE-SEP-A', '10.0.0.1', 0, 10800, true)).toBe(false);
		recentSet(t, 'KUBE-SEP-A', '10.0.0.1', 1_000);
		expect(recentCheck(t, 'KUBE-SEP-A', '10.0.0.1', 1_000 + 10_800_000, 10800, true)).toBe(true);
		expect(recentCheck(t, 'KUBE-SEP-A', '10.0.0.2', 2_000, 10800, true)).toBe(false);
		expect(recentCheck(t, 'KUBE-SEP-A', '10.0.0.1', 1_001 + 10_800_000, 10800, true)).toBe(false);
		expect(t['KUBE-SEP-A']).toEqual([]);
	});

	it('keeps at most ip_list_tot addresses (the least recently seen goes) and ip_pkt_list_tot instants each', () => {
		const t: RecentTables = {};
		for (let i = 0; i <= RECENT_IP_LIST_TOT; i++) recentSet(t, 'X', `10.0.${Math.floor(i / 256)}.${i % 256}`, i);
		expect(t.X).toHaveLength(RECENT_IP_LIST_TOT);
		expect(t.X[0].address).toBe('10.0.0.1');
		for (let i = 0; i < 30; i++) recentSet(t, 'X', '10.0.0.1', 1_000 + i);
		expect(t.X.at(-1)).toMatchObject({ address: '10.0.0.1' });
		expect(t.X.at(-1)!.seenMs).toHaveLength(RECENT_IP_PKT_LIST_TOT);
	});

	it('a table goes with the last rule that names it', () => {
		const t: RecentTables = { A: [{ address: '10.0.0.1', seenMs: [0] }], B: [] };
		pruneRecentTables(t, new Set(['B']));
		expect(Object.keys(t)).toEqual(['B']);
	});
});
