/**
 * The reader's workstation as tutorials assume it: a home directory with
 * the admin kubeconfig, and a /tmp to write manifests to.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

describe('the workstation', () => {
	it('has a home with the kubeconfig, and /tmp for a tutorial\'s files', () => {
		const cluster = createCluster({ seed: 2 });
		expect(cluster.exec('pwd').stdout).toBe('/home/reader\n');
		expect(cluster.exec('ls ~/.kube').stdout).toBe('config\n');
		// kubernetes.io pages write manifests to /tmp: `cat <<EOF > /tmp/pod.yaml` then `kubectl apply -f /tmp/pod.yaml`.
		expect(cluster.exec('cat <<EOF > /tmp/ns.yaml\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: from-tmp\nEOF\nkubectl apply -f /tmp/ns.yaml').stdout).toBe('namespace/from-tmp created\n');
	});
});
