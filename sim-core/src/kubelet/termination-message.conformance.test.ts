/**
 * Termination messages through the whole cluster, as the Conformance suite
 * checks them (test/e2e/common/node/runtime.go, v1.36): what a container
 * writes to the file at terminationMessagePath becomes
 * `state.terminated.message`; under FallbackToLogsOnError a failed
 * container that wrote nothing there gets its log's tail instead, and a
 * successful one gets nothing.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

function terminated(container: string, seed = 1): { message?: string; exitCode: number; reason: string } {
	const c = createCluster({ seed });
	c.writeFile(
		'pod.yaml',
		`apiVersion: v1
kind: Pod
metadata:
  name: termination-message-container
spec:
  restartPolicy: Never
  containers:
  - name: termination-message-container
    image: busybox:1.36
${container}`,
	);
	expect(c.exec('kubectl apply -f pod.yaml').exitCode).toBe(0);
	c.advance('30s');
	return JSON.parse(c.exec('kubectl get pod termination-message-container -o jsonpath={.status.containerStatuses[0].state.terminated}').stdout);
}

describe('[sig-node] Container Runtime blackbox test on terminated container [Conformance]', () => {
	it('should report termination message if TerminationMessagePath is set as non-root user and at a non-default path', () => {
		const state = terminated(`    command: ["/bin/sh", "-c"]
    args: ["/bin/echo -n DONE > /dev/termination-custom-log"]
    terminationMessagePath: /dev/termination-custom-log
    securityContext:
      runAsUser: 1000
`);
		expect(state).toMatchObject({ exitCode: 0, reason: 'Completed', message: 'DONE' });
	});

	it('should report termination message from log output if TerminationMessagePolicy FallbackToLogsOnError is set', () => {
		const state = terminated(`    command: ["/bin/sh", "-c"]
    args: ["/bin/echo -n DONE; /bin/false"]
    terminationMessagePolicy: FallbackToLogsOnError
`);
		expect(state).toMatchObject({ exitCode: 1, reason: 'Error', message: 'DONE' });
	});

	it('should report termination message as empty when pod succeeds and TerminationMessagePolicy FallbackToLogsOnError is set', () => {
		const state = terminated(`    command: ["/bin/sh", "-c"]
    args: ["/bin/echo -n OK"]
    terminationMessagePolicy: FallbackToLogsOnError
`);
		expect(state).toMatchObject({ exitCode: 0, reason: 'Completed' });
		expect(state.message).toBeUndefined();
	});

	it('should report termination message from file when pod succeeds and TerminationMessagePolicy FallbackToLogsOnError is set', () => {
		const state = terminated(`    command: ["/bin/sh", "-c"]
    args: ["/bin/echo -n OK > /dev/termination-log"]
    terminationMessagePolicy: FallbackToLogsOnError
`);
		expect(state).toMatchObject({ exitCode: 0, reason: 'Completed', message: 'OK' });
	});
});

describe('termination message limits', () => {
	it('keeps the last 4096 bytes of the file and the last 2048 bytes of the log', () => {
		const file = terminated(`    command: ["/bin/sh", "-c"]
    args: ["i=0; while [ $i -lt 500 ]; do echo line-$i >> /dev/termination-log; i=$((i+1)); done"]
`);
		expect(new TextEncoder().encode(file.message).length).toBe(4096);
		expect(file.message?.endsWith('line-499\n')).toBe(true);
		const log = terminated(`    command: ["/bin/sh", "-c"]
    args: ["i=0; while [ $i -lt 500 ]; do echo log-line-$i-padding-to-make-the-line-longer; i=$((i+1)); done; exit 3"]
    terminationMessagePolicy: FallbackToLogsOnError
`);
		expect(new TextEncoder().encode(log.message).length).toBe(2048);
		expect(log.message?.endsWith('log-line-499-padding-to-make-the-line-longer\n')).toBe(true);
		// 80 lines of 45 bytes are more than 2048: the first of them are cut.
		expect(log.message?.includes('log-line-420-')).toBe(false);
		// Short lines: only the last 80 are read.
		const short = terminated(`    command: ["/bin/sh", "-c"]
    args: ["i=0; while [ $i -lt 500 ]; do echo l-$i; i=$((i+1)); done; exit 3"]
    terminationMessagePolicy: FallbackToLogsOnError
`);
		expect(short.message?.split('\n').filter(Boolean)).toHaveLength(80);
		expect(short.message?.startsWith('l-420\n')).toBe(true);
	});
});
