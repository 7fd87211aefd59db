/**
 * Variable expansion through the whole cluster, as the Conformance suite
 * checks it (test/e2e/common/node/expansion.go, v1.36): `$(VAR)` in env
 * values, command and args comes from the container's environment, `$$`
 * escapes it, and an unknown reference stays as written.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

function runToCompletion(spec: string, seed = 1): string {
	const c = createCluster({ seed });
	c.writeFile('pod.yaml', spec);
	expect(c.exec('kubectl apply -f pod.yaml').exitCode).toBe(0);
	c.advance('30s');
	expect(c.exec('kubectl get pod var-expansion -o jsonpath={.status.phase}').stdout).toBe('Succeeded');
	return c.exec('kubectl logs var-expansion').stdout;
}

const pod = (container: string) => `apiVersion: v1
kind: Pod
metadata:
  name: var-expansion
spec:
  restartPolicy: Never
  containers:
  - name: dapi-container
    image: busybox:1.36
${container}`;

describe('[sig-node] Variable Expansion [Conformance]', () => {
	it('should allow composing env vars into new env vars', () => {
		const out = runToCompletion(
			pod(`    command: ["sh", "-c", "env"]
    env:
    - {name: FOO, value: foo-value}
    - {name: BAR, value: bar-value}
    - {name: FOOBAR, value: "$(FOO);;$(BAR)"}
`),
		);
		expect(out).toContain('FOO=foo-value\n');
		expect(out).toContain('BAR=bar-value\n');
		expect(out).toContain('FOOBAR=foo-value;;bar-value\n');
	});

	it("should allow substituting values in a container's command", () => {
		const out = runToCompletion(
			pod(`    command: ["sh", "-c", "TEST_VAR=wrong echo \\"$(TEST_VAR)\\""]
    env:
    - {name: TEST_VAR, value: test-value}
`),
		);
		expect(out).toBe('test-value\n');
	});

	it("should allow substituting values in a container's args", () => {
		const out = runToCompletion(
			pod(`    command: ["sh", "-c"]
    args: ["TEST_VAR=wrong echo \\"$(TEST_VAR)\\""]
    env:
    - {name: TEST_VAR, value: test-value}
`),
		);
		expect(out).toBe('test-value\n');
	});
});

describe('variable expansion edge cases', () => {
	it('keeps $$(VAR) as a literal $(VAR) and leaves unknown references as written', () => {
		const out = runToCompletion(
			pod(`    command: ["echo", "$(TEST_VAR)", "$$(TEST_VAR)", "$(NOT_SET)"]
    env:
    - {name: TEST_VAR, value: test-value}
`),
		);
		expect(out).toBe('test-value $(TEST_VAR) $(NOT_SET)\n');
	});
});
