import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';
import { cluster } from './testdata/harness.ts';

/** A tool that logs a line, prints its answer, then fails: in that order, as a real process would. */
const chatty = () => ({
	stdout: 'answer\n',
	stderr: 'log line\nerror: done\n',
	exitCode: 1,
	chunks: [
		{ fd: 2 as const, text: 'log line\n' },
		{ fd: 1 as const, text: 'answer\n' },
		{ fd: 2 as const, text: 'error: done\n' },
	],
});

describe('the order in which a command wrote its two streams', () => {
	it('is the order the terminal shows them in', () => {
		const s = cluster();
		s.register('chatty', chatty);
		expect(s.exec('chatty')).toMatchObject({ output: 'log line\nanswer\nerror: done\n', stdout: 'answer\n', stderr: 'log line\nerror: done\n', exitCode: 1 });
	});

	it('still sends each stream where its redirection says', () => {
		const s = cluster();
		s.register('chatty', chatty);
		expect(s.exec('chatty 2>/dev/null').output).toBe('answer\n');
		expect(s.exec('chatty > out.txt; cat out.txt').output).toBe('log line\nerror: done\nanswer\n');
		expect(s.exec('chatty 2>&1 | grep -c .').stdout).toBe('3\n');
	});

	it('is ignored when it does not add up to what the command printed, so nothing is lost', () => {
		const s = cluster();
		s.register('liar', () => ({ stdout: 'real\n', stderr: '', exitCode: 0, chunks: [{ fd: 1 as const, text: 'fake\n' }] }));
		expect(s.exec('liar').output).toBe('real\n');
	});

	it('puts kubectl\'s server warnings before its table, as on a real terminal', () => {
		const c = createCluster();
		expect(c.exec('kubectl get endpoints').output).toMatch(/^Warning: v1 Endpoints is deprecated in v1\.33\+; use discovery\.k8s\.io\/v1 EndpointSlice\nNAME +ENDPOINTS +AGE\nkubernetes /);
	});

	it('puts kubectl\'s -v request log before its output', () => {
		const c = createCluster();
		const lines = c.exec('kubectl get nodes -v=6').output.split('\n');
		const response = lines.findIndex((l) => l.includes('"Response" verb="GET" url="https://192.168.56.10:6443/api/v1/nodes?limit=500" status="200 OK"'));
		expect(response).toBeGreaterThan(0);
		expect(lines.findIndex((l) => l.startsWith('NAME '))).toBeGreaterThan(response);
	});
});
