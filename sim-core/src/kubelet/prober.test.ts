import { describe, expect, it } from 'vitest';
import { initialResult, probeTypeName, recordProbeResult, resetProbeWorker, type ProbeWorker } from './prober.ts';

const worker = (type: ProbeWorker['type']): ProbeWorker => ({ container: 'app', type, containerId: 'c1', result: initialResult(type), run: 0, onHold: false, nextMs: 0 });

describe('probe results and thresholds (prober/worker.go)', () => {
	it('starts liveness as success, readiness as failure, startup as unknown', () => {
		expect(['liveness', 'readiness', 'startup'].map((t) => initialResult(t as ProbeWorker['type']))).toEqual(['success', 'failure', 'unknown']);
		expect(probeTypeName('liveness')).toBe('Liveness');
	});

	it('fails liveness only after failureThreshold failures in a row, then holds for a kill', () => {
		const w = worker('liveness');
		const probe = { exec: { command: ['true'] }, failureThreshold: 3 };
		expect(recordProbeResult(w, probe, 'failure')).toEqual({ changed: false, kill: false });
		expect(recordProbeResult(w, probe, 'failure')).toEqual({ changed: false, kill: false });
		expect(recordProbeResult(w, probe, 'failure')).toEqual({ changed: true, kill: true });
		expect(w.onHold).toBe(true);
		resetProbeWorker(w, 'c2');
		expect(w).toMatchObject({ containerId: 'c2', result: 'success', run: 0, onHold: false });
	});

	it('needs successThreshold successes in a row for readiness; a failure in between starts over', () => {
		const w = worker('readiness');
		const probe = { httpGet: { port: 80 }, successThreshold: 2 };
		expect(recordProbeResult(w, probe, 'success').changed).toBe(false);
		expect(recordProbeResult(w, probe, 'failure').changed).toBe(false);
		expect(recordProbeResult(w, probe, 'success').changed).toBe(false);
		expect(recordProbeResult(w, probe, 'success')).toEqual({ changed: true, kill: false });
		expect(w.result).toBe('success');
	});
});
