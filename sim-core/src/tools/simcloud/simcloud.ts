/**
 * `simcloud`: the command-line client of the simulator's cloud, on the
 * reader's workstation, as a cloud's CLI is (`gcloud compute`, `aws ec2`,
 * `az vm`). It shows what the cloud-controller-manager built and lets the
 * reader do what an operator does in the cloud console:
 *
 *     simcloud instances list
 *     simcloud instances delete NAME       # the machine is gone for good
 *     simcloud load-balancers list         # (or: simcloud lb list)
 *     simcloud load-balancers hosts NAME   # each host and its health check now
 *     simcloud routes list
 *
 * Tables are aligned the way Go CLIs align them (text/tabwriter, padding
 * 3). Only on the workstation: the nodes have no cloud credentials.
 *
 * Mirrors nothing upstream: the CLI of the simulated cloud (its table
 * layout follows golang/go src/text/tabwriter/tabwriter.go).
 */
import { TabWriter } from '../../golang/tabwriter.ts';
import type { CommandContext, CommandResult } from '../../shell/types.ts';

/** What the CLI reads from and asks of the cloud. */
export interface SimcloudDeps {
	instances(): Array<{ id: string; zone: string; type: string; state: string; ip: string }>;
	deleteInstance(name: string): string | undefined;
	loadBalancers(): Array<{ name: string; ip: string; service: string; ports: Array<{ protocol: string; port: number; nodePort: number }>; nodes: string[]; healthCheck: { port: number; path: string }; ready: boolean }>;
	hostHealthy(lbName: string, node: string): boolean;
	routes(): Array<{ name: string; targetNode: string; destinationCidr: string }>;
	/** The instance's address, for the hosts table. */
	instanceIp(node: string): string | undefined;
}

const USAGE = [
	'Usage: simcloud COMMAND',
	'',
	'Commands:',
	'  instances list              the cloud instances behind the cluster\'s machines',
	'  instances delete NAME       delete an instance (its machine is gone for good)',
	'  load-balancers list         the network load balancers (alias: lb)',
	'  load-balancers hosts NAME   a load balancer\'s hosts and their health checks',
	'  routes list                 the route table',
	'',
].join('\n');

function table(rows: string[][]): string {
	const w = new TabWriter({ minwidth: 0, tabwidth: 8, padding: 3, padchar: ' ', flags: 0 });
	for (const row of rows) w.write(`${row.join('\t')}\n`);
	return w.flush();
}

const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode = 1): CommandResult => ({ stdout: '', stderr, exitCode });

export function createSimcloud(deps: SimcloudDeps): (ctx: CommandContext) => CommandResult {
	return (ctx) => {
		if (ctx.host.kind !== 'workstation') return fail(`bash: simcloud: command not found\n`, 127);
		const [group, verb, name, ...rest] = ctx.argv.slice(1);
		if (!group || group === 'help' || group === '--help' || group === '-h') return ok(USAGE);
		const extra = () => fail(`simcloud: unexpected argument "${rest[0]}"\n${USAGE}`, 2);
		switch (group) {
			case 'instances':
				if (verb === 'list' && !name) {
					const rows = deps.instances().map((i) => [i.id, i.zone, i.type, i.state.toUpperCase(), i.ip, `simcloud://${i.zone}/${i.id}`]);
					return ok(table([['NAME', 'ZONE', 'TYPE', 'STATE', 'INTERNAL-IP', 'PROVIDER-ID'], ...rows]));
				}
				if (verb === 'delete' && name) {
					if (rest.length) return extra();
					const error = deps.deleteInstance(name);
					return error ? fail(`ERROR: (simcloud.instances.delete) ${error}\n`) : ok(`Deleted instance ${name}.\n`);
				}
				break;
			case 'load-balancers':
			case 'lb':
				if (verb === 'list' && !name) {
					const rows = deps.loadBalancers().map((lb) => [
						lb.name,
						lb.ip,
						lb.ports.map((p) => `${p.port}->${p.nodePort}/${p.protocol}`).join(',') || '<none>',
						lb.nodes.join(',') || '<none>',
						`${lb.healthCheck.port}${lb.healthCheck.path}`,
						lb.ready ? 'ACTIVE' : 'PROVISIONING',
						lb.service,
					]);
					return ok(table([['NAME', 'ADDRESS', 'PORTS', 'HOSTS', 'HEALTH-CHECK', 'STATUS', 'SERVICE'], ...rows]));
				}
				if (verb === 'hosts' && name) {
					if (rest.length) return extra();
					const lb = deps.loadBalancers().find((l) => l.name === name || l.ip === name || l.service === name);
					if (!lb) return fail(`ERROR: (simcloud.load-balancers.hosts) load balancer ${name} not found\n`);
					const rows = lb.nodes.map((n) => [n, deps.instanceIp(n) ?? '', `${lb.healthCheck.port}${lb.healthCheck.path}`, deps.hostHealthy(lb.name, n) ? 'HEALTHY' : 'UNHEALTHY']);
					return ok(table([['HOST', 'ADDRESS', 'HEALTH-CHECK', 'STATE'], ...rows]));
				}
				break;
			case 'routes':
				if (verb === 'list' && !name) {
					const rows = deps.routes().map((r) => [r.name, r.destinationCidr, r.targetNode]);
					return ok(table([['NAME', 'DESTINATION', 'NEXT-HOP-INSTANCE'], ...rows]));
				}
				break;
		}
		return fail(`simcloud: unknown command "${ctx.argv.slice(1).join(' ')}"\n${USAGE}`, 2);
	};
}
