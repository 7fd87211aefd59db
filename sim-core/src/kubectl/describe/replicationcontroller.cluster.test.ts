/**
 * `kubectl describe rc` on kubernetes.io's ReplicationController example:
 * the selector as a label set, replicas, the Pods it controls by phase and
 * the Pod template, as for a ReplicaSet. (The replication controller
 * itself is not running in this cluster yet: no Pods are made.)
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

describe('kubectl describe replicationcontroller', () => {
	it("prints the page's controller in upstream's layout", () => {
		const c = createCluster({ seed: 13 });
		c.exec('kubectl create -f - <<EOF\napiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: nginx\nspec:\n  replicas: 3\n  selector:\n    app: nginx\n  template:\n    metadata:\n      name: nginx\n      labels:\n        app: nginx\n    spec:\n      containers:\n      - name: nginx\n        image: nginx\n        ports:\n        - containerPort: 80\nEOF');
		expect(c.exec('kubectl describe rc nginx').stdout).toBe(
			[
				'Name:         nginx',
				'Namespace:    default',
				'Selector:     app=nginx',
				'Labels:       app=nginx',
				'Annotations:  <none>',
				'Replicas:     0 current / 3 desired',
				'Pods Status:  0 Running / 0 Waiting / 0 Succeeded / 0 Failed',
				'Pod Template:',
				'  Labels:  app=nginx',
				'  Containers:',
				'   nginx:',
				'    Image:         nginx',
				'    Port:          80/TCP',
				'    Host Port:     0/TCP',
				'    Environment:   <none>',
				'    Mounts:        <none>',
				'  Volumes:         <none>',
				'  Node-Selectors:  <none>',
				'  Tolerations:     <none>',
				'Events:            <none>',
				'',
			].join('\n'),
		);
	});
});
