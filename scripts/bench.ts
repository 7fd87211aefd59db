/**
 * `npm run bench`: runs every benchmark module and prints one table of
 * medians. Speed is measured here, never asserted in tests.
 *
 * A benchmark either does work (its CPU time is measured over several
 * samples, after warm-up runs) or returns a measurement of its own (bytes of
 * JavaScript a page loads, milliseconds to interactive in Chromium).
 *
 * Usage: npm run bench [-- <filter>]
 */
import { readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/** One benchmark case. */
export interface Benchmark {
	name: string;
	/** Samples to take (median reported); default 15. */
	samples?: number;
	/** Unmeasured runs first; default 2. */
	warmup?: number;
	/** Per-sample setup, not measured. */
	setup?: () => unknown | Promise<unknown>;
	/**
	 * The measured work. Return nothing to have CPU time measured, or a
	 * `{ value, unit }` to report your own measurement.
	 */
	run: (prepared: unknown) => void | { value: number; unit: string; note?: string } | Promise<void | { value: number; unit: string; note?: string }>;
	/** Shown beside the figure. */
	note?: string;
}

const ROOTS = ['sim-core/bench', 'tests/bench'];

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function cpuMs(start: NodeJS.CpuUsage): number {
	const used = process.cpuUsage(start);
	return (used.user + used.system) / 1000;
}

async function main(): Promise<void> {
	const filter = process.argv[2];
	const rows: Array<{ file: string; name: string; median: string; spread: string; samples: number; note: string }> = [];
	for (const root of ROOTS) {
		let files: string[] = [];
		try {
			files = readdirSync(root).filter((f) => f.endsWith('.bench.ts')).sort();
		} catch {
			continue;
		}
		for (const file of files) {
			const path = join(root, file);
			const module = (await import(pathToFileURL(join(process.cwd(), path)).href)) as { benchmarks: Benchmark[] };
			for (const bench of module.benchmarks) {
				if (filter && !`${path} ${bench.name}`.includes(filter)) continue;
				const samples = bench.samples ?? 15;
				const values: number[] = [];
				let unit = 'ms CPU';
				let note = bench.note ?? '';
				for (let i = 0; i < (bench.warmup ?? 2) + samples; i++) {
					const prepared = bench.setup ? await bench.setup() : undefined;
					const start = process.cpuUsage();
					const result = await bench.run(prepared);
					const spent = cpuMs(start);
					if (i < (bench.warmup ?? 2)) continue;
					if (result && typeof result === 'object') {
						values.push(result.value);
						unit = result.unit;
						if (result.note) note = result.note;
					} else values.push(spent);
				}
				const m = median(values);
				const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2));
				rows.push({ file: relative('.', path), name: bench.name, median: `${fmt(m)} ${unit}`, spread: `${fmt(Math.min(...values))}..${fmt(Math.max(...values))}`, samples, note });
				console.error(`  done: ${path} > ${bench.name}: ${fmt(m)} ${unit}`);
			}
		}
	}
	const header = ['benchmark', 'median', 'min..max', 'n', 'note'];
	const table = [header, ...rows.map((r) => [`${r.file} > ${r.name}`, r.median, r.spread, String(r.samples), r.note])];
	const widths = header.map((_, c) => Math.max(...table.map((row) => row[c].length)));
	const lines = table.map((row) => row.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd());
	lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
	console.log(`\nBenchmarks (node ${process.version}, medians)\n\n${lines.join('\n')}\n`);
	mkdirSync('tests/.output', { recursive: true });
	writeFileSync('tests/.output/bench.json', JSON.stringify(rows, null, 2));
}

await main();
