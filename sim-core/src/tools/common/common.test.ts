/**
 * The Go formats the tools share, checked against upstream examples: Go's
 * time.Duration.String() documentation and etcd README outputs,
 * go-humanize's documented Bytes examples, the etcd README's
 * `endpoint status -w table` output (tablewriter v0.0.5 with
 * SetAlignment(ALIGN_RIGHT)), and Go's text/tabwriter rules.
 */
import { describe, expect, it } from 'vitest';
import { opensslDate, zapTimestamp } from './calendar.ts';
import { httpDate } from '../../golang/time.ts';
import { humanizeBytes } from './humanize.ts';
import { goDuration } from '../../golang/duration.ts';
import { GoRaw, goMarshal, goMarshalIndent } from '../../golang/json.ts';
import { renderTable } from './tablewriter.ts';
import { tabwriteWithTabs } from './tabwriter.ts';
import { zapLine } from './zap.ts';
import { parseRfc3339 } from '../../golang/time.ts';

describe('Go Duration.String', () => {
	it.each([
		[0, '0s'],
		[850, '850ns'],
		[903_138, '903.138µs'], // etcdctl README: took = 903.138µs
		[2_095_242, '2.095242ms'], // etcdctl README: took = 2.095242ms
		[6_500_000, '6.5ms'],
		[1_500_000_000, '1.5s'],
		[90_000_000_000, '1m30s'],
		[3_600_000_000_000, '1h0m0s'],
		[9_900_000_000_000, '2h45m0s'], // time package docs
	])('%d ns prints as %s', (ns, text) => {
		expect(goDuration(ns)).toBe(text);
	});
});

describe('go-humanize Bytes (SI)', () => {
	it.each([
		[5, '5 B'],
		[20_480, '20 kB'],
		[24_576, '25 kB'], // etcdctl README: a small member's DB SIZE
		[82_854_982, '83 MB'], // go-humanize docs: Bytes(82854982) -> 83 MB
		[2_147_483_648, '2.1 GB'], // etcd's default 2 GiB quota
	])('%d bytes print as %s', (bytes, text) => {
		expect(humanizeBytes(bytes)).toBe(text);
	});
});

describe('tablewriter as etcdctl configures it', () => {
	it('reproduces the endpoint status table of etcdctl/README.md', () => {
		const table = renderTable(
			['endpoint', 'ID', 'version', 'storage version', 'db size', 'db size in use', 'is leader', 'is learner', 'raft term', 'raft index', 'raft applied index', 'errors'],
			[
				['http://127.0.0.1:2379', '8211f1d0f64f3269', '3.6.0-alpha.0', '3.6.0', '25 kB', '25 kB', 'false', 'false', '2', '8', '8', ''],
				['http://127.0.0.1:22379', '91bc3c398fb3c146', '3.6.0-alpha.0', '3.6.0', '25 kB', '25 kB', 'true', 'false', '2', '8', '8', ''],
				['http://127.0.0.1:32379', 'fd422379fda50e48', '3.6.0-alpha.0', '3.6.0', '25 kB', '25 kB', 'false', 'false', '2', '8', '8', ''],
			],
		);
		expect(table).toBe(
			[
				'+------------------------+------------------+---------------+-----------------+---------+----------------+-----------+------------+-----------+------------+--------------------+--------+',
				'|        ENDPOINT        |        ID        |    VERSION    | STORAGE VERSION | DB SIZE | DB SIZE IN USE | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX | ERRORS |',
				'+------------------------+------------------+---------------+-----------------+---------+----------------+-----------+------------+-----------+------------+--------------------+--------+',
				'|  http://127.0.0.1:2379 | 8211f1d0f64f3269 | 3.6.0-alpha.0 |           3.6.0 |   25 kB |          25 kB |     false |      false |         2 |          8 |                  8 |        |',
				'| http://127.0.0.1:22379 | 91bc3c398fb3c146 | 3.6.0-alpha.0 |           3.6.0 |   25 kB |          25 kB |      true |      false |         2 |          8 |                  8 |        |',
				'| http://127.0.0.1:32379 | fd422379fda50e48 | 3.6.0-alpha.0 |           3.6.0 |   25 kB |          25 kB |     false |      false |         2 |          8 |                  8 |        |',
				'+------------------------+------------------+---------------+-----------------+---------+----------------+-----------+------------+-----------+------------+--------------------+--------+',
				'',
			].join('\n'),
		);
	});

	it('wraps a cell longer than 30 columns on spaces', () => {
		const out = renderTable(['errors'], [['memberID:10276657743932975437 alarm:NOSPACE']]).split('\n');
		expect(out[3]).toBe('| memberID:10276657743932975437 |');
		expect(out[4]).toBe('|                 alarm:NOSPACE |');
	});
});

describe('text/tabwriter with tab padding (minwidth 0, tabwidth 8, padding 1)', () => {
	it('pads each column to the next multiple of 8 after the widest cell plus one', () => {
		// Widest first cell: 10 + 1 = 11 → 16 columns; "ab" needs 2 tabs (to 8, then 16), the 10-wide cell 1.
		expect(tabwriteWithTabs('ab\tx\n0123456789\ty\n')).toBe('ab\t\tx\n0123456789\ty\n');
	});

	it('ends a column block at a line without tabs', () => {
		expect(tabwriteWithTabs('a\tx\nplain\n0123456789\ty\n')).toBe('a\tx\nplain\n0123456789\ty\n');
	});
});

describe('encoding/json', () => {
	it('escapes HTML characters and keeps the field order given', () => {
		expect(goMarshal({ b: '<a & b>', a: 1 })).toBe('{"b":"\\u003ca \\u0026 b\\u003e","a":1}');
	});

	it('indents with two spaces, keeps empty containers closed, and writes raw uint64 values', () => {
		expect(goMarshalIndent({ metadata: {}, items: [], id: new GoRaw('10276657743932975437') })).toBe('{\n  "metadata": {},\n  "items": [],\n  "id": 10276657743932975437\n}');
	});
});

describe('timestamps', () => {
	const t = parseRfc3339('2026-11-30T08:00:05Z');
	it('formats zap, HTTP and OpenSSL times', () => {
		expect(zapTimestamp(t, 123)).toBe('2026-11-30T08:00:05.000123Z');
		// 2026-11-30 is a Monday.
		expect(httpDate(t)).toBe('Mon, 30 Nov 2026 08:00:05 GMT');
		expect(opensslDate(parseRfc3339('2026-12-03T07:55:00Z'))).toBe('Dec  3 07:55:00 2026 GMT');
	});

	it('writes zap JSON lines in level, ts, logger, caller, msg order, without HTML escaping', () => {
		expect(zapLine({ level: 'warn', ts: 'T', logger: 'client', caller: 'c.go:1', msg: 'm', fields: [['peer', 'Peer{Addr: <nil>}'], ['attempt', 0]] })).toBe('{"level":"warn","ts":"T","logger":"client","caller":"c.go:1","msg":"m","peer":"Peer{Addr: <nil>}","attempt":0}\n');
	});
});
