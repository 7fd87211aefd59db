/**
 * `kubectl describe networkpolicy` on kubernetes.io's test-network-policy
 * (concepts/services-networking/network-policies), and the API server's
 * defaulting of policyTypes, which decides which directions a policy
 * governs.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

const POLICY = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: test-network-policy
  namespace: default
spec:
  podSelector:
    matchLabels:
      role: db
  policyTypes:
  - Ingress
  - Egress
  ingress:
  - from:
    - ipBlock:
        cidr: 172.17.0.0/16
        except:
        - 172.17.1.0/24
    - namespaceSelector:
        matchLabels:
          project: myproject
    - podSelector:
        matchLabels:
          role: frontend
    ports:
    - protocol: TCP
      port: 6379
  egress:
  - to:
    - ipBlock:
        cidr: 10.0.0.0/24
    ports:
    - protocol: TCP
      port: 5978
`;

describe('kubectl describe networkpolicy', () => {
	const c = createCluster({ seed: 10 });

	it("prints the page's policy as upstream does", () => {
		c.exec(`kubectl apply -f - <<EOF\n${POLICY}EOF`);
		const created = c.exec("kubectl get netpol test-network-policy -o jsonpath='{.metadata.creationTimestamp}'").stdout.replace('T', ' ').replace('Z', ' +0000 UTC');
		expect(c.exec('kubectl describe netpol test-network-policy').stdout).toBe(
			[
				'Name:         test-network-policy',
				'Namespace:    default',
				`Created on:   ${created}`,
				'Labels:       <none>',
				'Annotations:  <none>',
				'Spec:',
				'  PodSelector:     role=db',
				'  Allowing ingress traffic:',
				'    To Port: 6379/TCP',
				'    From:',
				'      IPBlock:',
				'        CIDR: 172.17.0.0/16',
				'        Except: 172.17.1.0/24',
				'    From:',
				'      NamespaceSelector: project=myproject',
				'    From:',
				'      PodSelector: role=frontend',
				'  Allowing egress traffic:',
				'    To Port: 5978/TCP',
				'    To:',
				'      IPBlock:',
				'        CIDR: 10.0.0.0/24',
				'        Except: ',
				'  Policy Types: Ingress, Egress',
				'',
			].join('\n'),
		);
	});

	it('defaults policyTypes: Ingress, and Egress when there are egress rules; a default-deny policy isolates all Pods', () => {
		c.exec('kubectl create -f - <<EOF\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: default-deny-ingress\nspec:\n  podSelector: {}\nEOF');
		c.exec('kubectl create -f - <<EOF\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: allow-all-egress\nspec:\n  podSelector: {}\n  egress:\n  - {}\nEOF');
		expect(c.exec("kubectl get netpol default-deny-ingress allow-all-egress -o jsonpath='{range .items[*]}{.spec.policyTypes} {end}'").stdout).toBe('["Ingress"] ["Ingress","Egress"] ');
		const deny = c.exec('kubectl describe netpol default-deny-ingress').stdout;
		expect(deny).toContain('Spec:\n  PodSelector:     <none> (Allowing the specific traffic to all pods in this namespace)\n  Allowing ingress traffic:\n    <none> (Selected pods are isolated for ingress connectivity)\n  Not affecting egress traffic\n  Policy Types: Ingress\n');
		const egress = c.exec('kubectl describe netpol allow-all-egress').stdout;
		expect(egress).toContain('  Allowing egress traffic:\n    To Port: <any> (traffic allowed to all ports)\n    To: <any> (traffic not restricted by destination)\n  Policy Types: Ingress, Egress\n');
	});
});
