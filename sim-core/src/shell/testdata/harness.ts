/** Test helpers: a small cluster of hosts with a few fake cluster tools. */
import { ShellSession, type CommandHandler, type Host } from '../index.ts';
import { MemoryFs } from '../../host/fs.ts';

export function host(name: string, kind: 'workstation' | 'node' = 'node', commands: Array<[string, CommandHandler]> = []): Host {
	const user = kind === 'node' ? 'root' : 'user';
	return { name, kind, user, home: user === 'root' ? '/root' : '/home/user', fs: new MemoryFs(), commands: new Map(commands) };
}

export const PODS =
	'NAME    READY   STATUS    RESTARTS   AGE\nweb-1   1/1     Running   0          5m\nweb-2   0/1     Pending   0          5m\ndb-0    1/1     Running   2          1h\n';

/** A fake kubectl: `get pods` prints PODS, `get secret` prints jsonpath data, anything else echoes its argv. */
export const kubectl: CommandHandler = ({ argv, env }) => {
	const a = argv.slice(1).join(' ');
	if (a.startsWith('get pods')) return { stdout: PODS, stderr: '', exitCode: 0 };
	if (a.startsWith('get secret db')) return { stdout: 'czNjcjN0', stderr: '', exitCode: 0 };
	if (a.startsWith('describe pod'))
		return {
			stdout:
				'Name: web-1\nStatus: Running\nEvents:\n  Type  Reason  Message\n  ----  ------  -------\n  Normal  Scheduled  assigned\n  Normal  Pulled  pulled\n  Normal  Created  created\n  Normal  Started  started\n',
			stderr: '',
			exitCode: 0,
		};
	if (a.startsWith('get nope')) return { stdout: '', stderr: 'error: the server doesn\'t have a resource type "nope"\n', exitCode: 1 };
	return { stdout: `kubectl ${a}${env.KUBECONFIG ? ` [${env.KUBECONFIG}]` : ''}\n`, stderr: '', exitCode: 0 };
};

export const systemctl: CommandHandler = ({ argv, host }) => ({
	stdout: `${argv.slice(1).join(' ')} on ${host.name}: active (running)\n`,
	stderr: '',
	exitCode: 0,
});

/** Workstation + control-plane + node-1 + node-2, kubectl everywhere, systemctl on nodes. */
export function cluster(): ShellSession {
	const s = new ShellSession([
		host('workstation', 'workstation'),
		host('control-plane', 'node', [['systemctl', systemctl]]),
		host('node-1', 'node', [['systemctl', systemctl]]),
		host('node-2', 'node', [['systemctl', systemctl]]),
	]);
	s.register('kubectl', kubectl);
	s.register('etcdctl', ({ argv, env }) => ({ stdout: `etcdctl(api=${env.ETCDCTL_API ?? '-'}) ${argv.slice(1).join(' ')}\n`, stderr: '', exitCode: 0 }));
	return s;
}

export const FILES: Record<string, string> = {
	'pods.txt': PODS,
	'log.txt': 'start\nerror one\nok\nok\nerror two\nok\nend\n',
	'nums.txt': '10\n9\n100\n-1\n9\n',
	'words.txt': 'b\na\nc\na\na\nb\n',
	'passwd.txt': 'root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:/bin/sh\n',
	'noeol.txt': 'a\nb',
};

/** A session on the workstation with FILES in the home directory. */
export function withFiles(files: Record<string, string> = FILES): ShellSession {
	const s = cluster();
	for (const [k, v] of Object.entries(files)) s.host.fs.writeFile(k, v);
	return s;
}

/** One row of a table-driven utility test. */
export interface Case {
	cmd: string;
	stdin?: string;
	out: string;
	err?: string;
	code?: number;
}
