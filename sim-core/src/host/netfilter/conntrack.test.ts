import { describe, expect, it } from 'vitest';
import { CONNTRACK_KEPT_MAX, emptyConntrack, expireConntrack, trackFlow } from './conntrack.ts';
import { formatEntry } from '../../tools/netfilter/conntrack.ts';

const orig = { src: '10.244.1.5', dst: '10.96.0.10', sport: 45678, dport: 53 };
const reply = { src: '10.244.2.3', dst: '10.244.1.5', sport: 53, dport: 45678 };

describe('the conntrack table', () => {
	it('keeps an answered DNS query 30 s without ASSURED, an unanswered one [UNREPLIED]', () => {
		const t = emptyConntrack();
		const e = trackFlow(t, { proto: 'udp', orig, reply, result: 'answered' }, 1_000);
		expect(formatEntry(e, 1_500)).toBe('udp      17 29 src=10.244.1.5 dst=10.96.0.10 sport=45678 dport=53 src=10.244.2.3 dst=10.244.1.5 sport=53 dport=45678 mark=0 use=1');
		const u = trackFlow(t, { proto: 'udp', orig: { ...orig, sport: 40000 }, reply: { src: '10.96.0.10', dst: orig.src, sport: 53, dport: 40000 }, result: 'silent' }, 1_000);
		expect(formatEntry(u, 1_000)).toContain(' dport=53 [UNREPLIED] src=10.96.0.10 ');
		expireConntrack(t, 30_999);
		expect(t.entries).toHaveLength(2);
		expireConntrack(t, 31_000);
		expect(t.entries).toHaveLength(0);
	});

	it('keeps a closed TCP connection in TIME_WAIT 120 s, a refused one CLOSE 10 s, a watch ESTABLISHED a day', () => {
		const t = emptyConntrack();
		const tcp = { proto: 'tcp' as const, orig: { ...orig, dport: 80 }, reply: { ...reply, sport: 80 } };
		expect(formatEntry(trackFlow(t, { ...tcp, result: 'answered' }, 0), 0)).toMatch(/^tcp +6 120 TIME_WAIT .* \[ASSURED\] mark=0 use=1$/);
		expect(formatEntry(trackFlow(t, { ...tcp, result: 'reset' }, 0), 0)).toMatch(/^tcp +6 10 CLOSE /);
		expect(formatEntry(trackFlow(t, { ...tcp, result: 'answered', open: true }, 0), 0)).toMatch(/^tcp +6 86400 ESTABLISHED /);
		expect(formatEntry(trackFlow(t, { ...tcp, result: 'silent' }, 0), 0)).toMatch(/^tcp +6 120 SYN_SENT .* \[UNREPLIED\] /);
	});

	it('is bounded: past its size the oldest entry that is not assured goes first', () => {
		const t = emptyConntrack();
		trackFlow(t, { proto: 'tcp', orig, reply, result: 'answered', open: true }, 0);
		for (let i = 0; i < CONNTRACK_KEPT_MAX + 5; i++) trackFlow(t, { proto: 'udp', orig: { ...orig, sport: i }, reply, result: 'answered' }, 0);
		expect(t.entries).toHaveLength(CONNTRACK_KEPT_MAX);
		expect(t.entries[0].assured).toBe(true);
	});
});
