/**
 * `kubectl apply view-last-applied` and `set-last-applied` through the
 * public API: the annotation as YAML or indented JSON, the error for an
 * object never applied, and a file's content recorded as the last applied
 * configuration without changing the object itself.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

const MANIFEST = `cat > cm.yaml <<'EOF'
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: "fast"
EOF`;

describe('kubectl apply view-last-applied / set-last-applied', () => {
	it('shows what apply last sent, as YAML with sorted keys or as indented JSON', () => {
		const c = createCluster({ seed: 4 });
		c.exec(MANIFEST);
		c.exec('kubectl apply -f cm.yaml');
		expect(c.exec('kubectl apply view-last-applied configmap settings').stdout).toBe('apiVersion: v1\ndata:\n  mode: fast\nkind: ConfigMap\nmetadata:\n  annotations: {}\n  name: settings\n  namespace: default\n');
		const json = c.exec('kubectl apply view-last-applied -f cm.yaml -o json').stdout;
		expect(json.startsWith('{\n  "apiVersion": "v1",\n  "data": {\n    "mode": "fast"\n  },')).toBe(true);
		expect(json.endsWith('}\n')).toBe(true);
		c.exec('kubectl create configmap plain --from-literal=a=b');
		expect(c.exec('kubectl apply view-last-applied cm/plain')).toMatchObject({ exitCode: 1, stderr: 'error: no last-applied-configuration annotation found on resource: plain\n' });
		expect(c.exec('kubectl apply view-last-applied cm settings -o wide').stderr).toBe("error: unexpected -o output mode: wide, the flag 'output' must be one of yaml|json\n");
	});

	it('records a file as the last applied configuration, leaving the object as it is', () => {
		const c = createCluster({ seed: 4 });
		c.exec(MANIFEST);
		c.exec('kubectl apply -f cm.yaml');
		c.exec("sed -i 's/fast/safe/' cm.yaml");
		expect(c.exec('kubectl apply set-last-applied -f cm.yaml').stdout).toBe('configmap/settings configured\n');
		expect(c.exec('kubectl apply view-last-applied cm settings').stdout).toContain('mode: safe');
		expect(c.exec('kubectl get cm settings -o jsonpath={.data.mode}').stdout).toBe('fast');
		// The next apply's three-way patch still compares the file with the live object: data.mode changes then.
		expect(c.exec('kubectl apply -f cm.yaml').stdout).toBe('configmap/settings configured\n');
		expect(c.exec('kubectl get cm settings -o jsonpath={.data.mode}').stdout).toBe('safe');
	});

	it('needs --create-annotation for an object created without one', () => {
		const c = createCluster({ seed: 4 });
		c.exec(MANIFEST);
		c.exec('kubectl create -f cm.yaml');
		expect(c.exec('kubectl apply set-last-applied -f cm.yaml').stderr).toBe('error: no last-applied-configuration annotation found on resource: settings, to create the annotation, run the command with --create-annotation\n');
		expect(c.exec('kubectl apply set-last-applied -f cm.yaml --create-annotation').stdout).toBe('configmap/settings configured\n');
		expect(c.exec('kubectl apply view-last-applied cm settings').exitCode).toBe(0);
	});
});
