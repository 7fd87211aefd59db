import { describe, expect, it, vi } from 'vitest';
import { performance as perf } from 'node:perf_hooks';
import { CLEAR_SCREEN, INTERNAL, LIMITS, ShellSession, formatPrompt, type Host } from './index.ts';
import { MemoryFs } from '../host/fs.ts';
import { cluster, host, kubectl, PODS, systemctl } from './testdata/harness.ts';

const run = (s: ShellSession, line: string) => s.exec(line);
const out = (s: ShellSession, line: string) => s.exec(line).stdout;

describe('prompt', () => {
	it.each([
		['user', 'workstation', '/home/user', '/home/user', 'user@workstation:~$ '],
		['user', 'workstation', '/home/user/manifests', '/home/user', 'user@workstation:~/manifests$ '],
		['user', 'workstation', '/home/username', '/home/user', 'user@workstation:/home/username$ '],
		['root', 'control-plane', '/root', '/root', 'root@control-plane:~# '],
		['root', 'node-1', '/etc/kubernetes', '/root', 'root@node-1:/etc/kubernetes# '],
		['root', 'node-1', '/', '/root', 'root@node-1:/# '],
	])('%s@%s in %s', (user, h, cwd, home, expected) => {
		expect(formatPrompt(user, h, cwd, home)).toBe(expected);
	});

	it('follows cd and ssh', () => {
		const s = cluster();
		expect(s.prompt()).toBe('user@workstation:~$ ');
		run(s, 'mkdir -p manifests && cd manifests');
		expect(s.prompt()).toBe('user@workstation:~/manifests$ ');
		run(s, 'ssh control-plane');
		expect(s.prompt()).toBe('root@control-plane:~# ');
		run(s, 'mkdir -p /etc/kubernetes; cd /etc/kubernetes');
		expect(s.prompt()).toBe('root@control-plane:/etc/kubernetes# ');
		run(s, 'exit');
		expect(s.prompt()).toBe('user@workstation:~/manifests$ ');
	});
});

describe('hosts and ssh', () => {
	it('opens and closes interactive sessions, with per-host cwd', () => {
		const s = cluster();
		run(s, 'cd /');
		expect(run(s, 'ssh node-1')).toEqual({ stdout: '', stderr: '', exitCode: 0, output: '' });
		expect(out(s, 'hostname; whoami; pwd')).toBe('node-1\nroot\n/root\n');
		run(s, 'ssh node-2');
		expect(s.hostStack()).toEqual(['workstation', 'node-1', 'node-2']);
		expect(run(s, 'exit')).toEqual({
			stdout: 'logout\n',
			stderr: 'Connection to node-2 closed.\n',
			exitCode: 0,
			output: 'logout\nConnection to node-2 closed.\n',
		});
		expect(out(s, 'hostname')).toBe('node-1\n');
		expect(run(s, 'logout').stderr).toBe('Connection to node-1 closed.\n');
		expect(out(s, 'hostname; whoami; pwd')).toBe('workstation\nuser\n/\n');
	});

	it('exit on the workstation does nothing', () => {
		const s = cluster();
		expect(run(s, 'exit')).toEqual({ stdout: '', stderr: '', exitCode: 0, output: '' });
		expect(run(s, 'exit 3')).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
		expect(s.prompt()).toBe('user@workstation:~$ ');
		expect(out(s, 'hostname')).toBe('workstation\n');
	});

	it('runs one command remotely and comes back', () => {
		const s = cluster();
		expect(out(s, 'ssh node-1 systemctl status kubelet')).toBe('status kubelet on node-1: active (running)\n');
		expect(out(s, 'ssh root@node-2 hostname')).toBe('node-2\n');
		expect(out(s, 'ssh -i key.pem -o StrictHostKeyChecking=no node-1 hostname')).toBe('node-1\n');
		expect(out(s, "ssh node-1 'hostname | tr a-z A-Z'")).toBe('NODE-1\n');
		expect(out(s, 'ssh node-1 hostname | tr a-z A-Z')).toBe('NODE-1\n');
		expect(run(s, "ssh node-1 'exit 7'").exitCode).toBe(7);
		expect(s.hostStack()).toEqual(['workstation']);
		expect(out(s, 'hostname')).toBe('workstation\n');
	});

	it('a one-shot command starts in the remote home and leaves the interactive cwd alone', () => {
		const s = cluster();
		run(s, 'ssh node-1');
		run(s, 'cd /tmp 2>/dev/null || cd /');
		const here = out(s, 'pwd');
		run(s, 'exit');
		expect(out(s, 'ssh node-1 pwd')).toBe('/root\n');
		run(s, 'ssh node-1');
		expect(out(s, 'pwd')).toBe(here);
	});

	it('reports unknown hosts like OpenSSH', () => {
		const s = cluster();
		expect(run(s, 'ssh nosuchhost')).toMatchObject({
			stdout: '',
			stderr: 'ssh: Could not resolve hostname nosuchhost: Name or service not known\n',
			exitCode: 255,
		});
		expect(run(s, 'ssh nosuchhost uptime').exitCode).toBe(255);
		expect(run(s, 'ssh').exitCode).toBe(255);
		expect(s.hostStack()).toEqual(['workstation']);
	});

	it('host-specific commands exist only there, and shadow globals', () => {
		const s = cluster();
		expect(run(s, 'systemctl status kubelet')).toMatchObject({ stderr: 'bash: systemctl: command not found\n', exitCode: 127 });
		s.getHost('node-1')?.commands.set('kubectl', () => ({ stdout: 'node kubectl\n', stderr: '', exitCode: 0 }));
		expect(out(s, 'ssh node-1 kubectl get pods')).toBe('node kubectl\n');
		expect(out(s, 'ssh node-2 kubectl get pods')).toBe(PODS);
		expect(out(s, 'which systemctl; ssh node-1 which systemctl')).toBe('/usr/bin/systemctl\n');
	});

	it('the pasted rest of an input follows the ssh session', () => {
		const s = cluster();
		expect(out(s, 'ssh node-1\nhostname\nexit\nhostname')).toBe('node-1\nlogout\nworkstation\n');
	});

	it('each host has its own files', () => {
		const s = cluster();
		run(s, 'echo local > f');
		run(s, 'ssh node-1 "echo remote > f"');
		expect(out(s, 'cat f; ssh node-1 cat f')).toBe('local\nremote\n');
	});

	it('limits nesting of ssh sessions', () => {
		const s = cluster();
		const r = run(s, Array.from({ length: LIMITS.stack + 3 }, () => 'ssh node-1').join('\n'));
		expect(s.hostStack().length).toBe(LIMITS.stack);
		expect(r.exitCode).toBe(255);
	});
});

describe('the reader’s paste examples', () => {
	it('etcdctl with a continuation line and an env prefix', () => {
		const s = cluster();
		expect(
			out(s, 'ETCDCTL_API=3 etcdctl snapshot save snapshot.db \\\n  --endpoints=https://127.0.0.1:2379 \\\n  --cacert=/etc/kubernetes/pki/etcd/ca.crt'),
		).toBe('etcdctl(api=3) snapshot save snapshot.db --endpoints=https://127.0.0.1:2379 --cacert=/etc/kubernetes/pki/etcd/ca.crt\n');
		expect(out(s, 'etcdctl get x')).toBe('etcdctl(api=-) get x\n');
	});

	it('describe | grep -A 5 Events', () => {
		expect(out(cluster(), 'kubectl describe pod web-1 | grep -A 5 Events')).toBe(
			'Events:\n  Type  Reason  Message\n  ----  ------  -------\n  Normal  Scheduled  assigned\n  Normal  Pulled  pulled\n  Normal  Created  created\n',
		);
	});

	it('three-stage pipelines', () => {
		const s = cluster();
		expect(out(s, 'kubectl get pods -o wide | grep -v Running | wc -l')).toBe('2\n');
		expect(out(s, "kubectl get pods | awk 'NR>1 {print $3}' | sort | uniq -c")).toBe('      1 Pending\n      2 Running\n');
		expect(out(s, "kubectl get pods | tail -n +2 | awk '{print $1}' | sort -r | head -1 | tr a-z A-Z")).toBe('WEB-2\n');
	});

	it('here-document to a file, then apply it', () => {
		const s = cluster();
		const r = run(
			s,
			'cat <<EOF > nginx-deployment.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nginx\nEOF\nkubectl apply -f nginx-deployment.yaml\ncat nginx-deployment.yaml',
		);
		expect(r.stdout).toBe('kubectl apply -f nginx-deployment.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nginx\n');
		expect(s.host.fs.readFile('/home/user/nginx-deployment.yaml')).toBe('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nginx\n');
	});

	it('jsonpath | base64 -d', () => {
		expect(out(cluster(), "kubectl get secret db -o jsonpath='{.data.password}' | base64 -d")).toBe('s3cr3t');
	});

	it('export KUBECONFIG is seen by commands, with ~ expanded', () => {
		const s = cluster();
		expect(out(s, 'export KUBECONFIG=~/.kube/config; kubectl version')).toBe('kubectl version [/home/user/.kube/config]\n');
		expect(out(s, 'KUBECONFIG=/etc/kubernetes/admin.conf kubectl version')).toBe('kubectl version [/etc/kubernetes/admin.conf]\n');
		expect(out(s, 'echo $KUBECONFIG')).toBe('/home/user/.kube/config\n');
	});

	it('alias k=kubectl', () => {
		const s = cluster();
		expect(out(s, 'alias k=kubectl\ncomplete -o default -F __start_kubectl k\nk get pods | wc -l')).toBe('4\n');
		expect(out(s, "alias kgp='kubectl get pods'; kgp | head -1; alias")).toBe(
			"NAME    READY   STATUS    RESTARTS   AGE\nalias k='kubectl'\nalias kgp='kubectl get pods'\n",
		);
		expect(out(s, 'type k')).toBe("k is aliased to 'kubectl'\n");
	});

	it('process substitution: <(...) names a file with the output, for the line only', () => {
		const s = cluster();
		expect(out(s, 'cat <(echo one) <(echo two)')).toBe('one\ntwo\n');
		// bash's first pipe is /dev/fd/63, the next 62; the line's status is the command's, not the substituted list's.
		expect(out(s, 'echo <(true) <(true)')).toBe('/dev/fd/63 /dev/fd/62\n');
		expect(run(s, 'cat <(false); echo $?').stdout).toBe('0\n');
		expect(out(s, 'cat < <(echo redirected)')).toBe('redirected\n');
		expect(run(s, 'cat /dev/fd/63')).toMatchObject({ exitCode: 1 });
	});

	it('sourcing a completion script succeeds quietly (its functions are not interpreted), another script runs', () => {
		const s = cluster();
		s.exec("printf '# bash completion for tool\\n_tool() {\\n  COMPREPLY=()\\n}\\ncomplete -F _tool tool\\n' > comp.sh");
		expect(run(s, 'source comp.sh; echo $?')).toMatchObject({ stdout: '0\n', stderr: '' });
		s.exec("printf 'echo sourced\\n' > plain.sh");
		expect(out(s, '. plain.sh')).toBe('sourced\n');
	});
});

describe('lists, status and errors', () => {
	it('&& and || short-circuit on exit codes', () => {
		const s = cluster();
		expect(run(s, 'kubectl get nope && echo ok || echo failed')).toMatchObject({ stdout: 'failed\n', exitCode: 0 });
		expect(run(s, 'kubectl get nope || false')).toMatchObject({ exitCode: 1 });
		expect(run(s, 'true && kubectl get nope')).toMatchObject({ exitCode: 1, stderr: 'error: the server doesn\'t have a resource type "nope"\n' });
		expect(run(s, 'nosuch || echo $?').stdout).toBe('127\n');
		expect(run(s, 'false; echo $?; true; echo $?').stdout).toBe('1\n0\n');
	});

	it('unknown commands', () => {
		expect(run(cluster(), 'foo')).toEqual({ stdout: '', stderr: 'bash: foo: command not found\n', exitCode: 127, output: 'bash: foo: command not found\n' });
	});

	it('a syntax error skips only its line', () => {
		const s = cluster();
		const r = run(s, 'echo one\necho | | two\necho three');
		expect(r.stdout).toBe('one\nthree\n');
		expect(r.stderr).toBe("bash: syntax error near unexpected token '|'\n");
		expect(r.exitCode).toBe(0);
		expect(run(s, 'echo "unterminated').exitCode).toBe(2);
		expect(run(s, 'echo $?').stdout).toBe('2\n');
	});

	it('output interleaves stdout and stderr in order', () => {
		expect(run(cluster(), 'echo a; ls nope; echo b').output).toBe("a\nls: cannot access 'nope': No such file or directory\nb\n");
	});

	it('passes exec stdin to commands that read the terminal', () => {
		expect(cluster().exec('wc -l', { stdin: 'a\nb\n' }).stdout).toBe('2\n');
	});
});

describe('builtins and programs', () => {
	it('history is numbered, bounded and includes itself', () => {
		const s = cluster();
		run(s, 'echo a\necho b; echo c');
		run(s, '   ');
		expect(out(s, 'history')).toBe('    1  echo a\n    2  echo b; echo c\n    3  history\n');
		expect(out(s, 'history 1')).toBe('    4  history 1\n');
		expect(s.history()).toEqual(['echo a', 'echo b; echo c', 'history', 'history 1']);
		for (let i = 0; i < LIMITS.history + 5; i++) run(s, `true ${i}`);
		expect(s.history().length).toBe(LIMITS.history);
		expect(out(s, 'history 2')).toBe(
			`${String(LIMITS.history + 9).padStart(5)}  true ${LIMITS.history + 4}\n${String(LIMITS.history + 10).padStart(5)}  history 2\n`,
		);
		run(s, 'history -c');
		expect(s.history()).toEqual([]);
	});

	it('a here-document is one history entry', () => {
		const s = cluster();
		run(s, 'cat <<EOF > x\n1\nEOF\nls');
		expect(s.history()).toEqual(['cat <<EOF > x\n1\nEOF', 'ls']);
	});

	it('clear writes the documented marker', () => {
		expect(out(cluster(), 'clear')).toBe(CLEAR_SCREEN);
		expect(CLEAR_SCREEN).toBe('\u001b[H\u001b[2J');
	});

	it('sleep calls the onSleep hook', () => {
		const s = cluster();
		const onSleep = vi.fn();
		expect(run(s, 'sleep 1')).toMatchObject({ exitCode: 0, stdout: '' });
		s.onSleep = onSleep;
		run(s, 'sleep 5; sleep 0.5; sleep 2m 1s');
		expect(onSleep.mock.calls).toEqual([[5000], [500], [121000]]);
		expect(run(s, 'sleep x')).toMatchObject({ stderr: "sleep: invalid time interval 'x'\nTry 'sleep --help' for more information.\n", exitCode: 1 });
		expect(run(s, 'sleep')).toMatchObject({ stderr: "sleep: missing operand\nTry 'sleep --help' for more information.\n", exitCode: 1 });
	});

	it('date reads the virtual clock and formats like GNU date', () => {
		const s = cluster();
		expect(out(s, 'date')).toBe('Thu Jan  1 00:00:00 UTC 1970\n');
		s.clock = () => 1796023286_000;
		expect(out(s, 'date')).toBe('Mon Nov 30 07:21:26 UTC 2026\n');
		expect(out(s, "date -u +'%Y-%m-%dT%H:%M:%SZ'")).toBe('2026-11-30T07:21:26Z\n');
		expect(out(s, 'date +%s; date +"%j %a %b %e %y %z %Q"')).toBe('1796023286\n334 Mon Nov 30 26 +0000 %Q\n');
		expect(out(s, 'date -d @951782400')).toBe('Tue Feb 29 00:00:00 UTC 2000\n');
		expect(out(s, 'date -d @-86400')).toBe('Wed Dec 31 00:00:00 UTC 1969\n');
		expect(out(s, 'date -d @1709164800 +"%F %j %a"')).toBe('2024-02-29 060 Thu\n');
		expect(out(s, 'date -d @4107542400 +"%F %a %j"')).toBe('2100-03-01 Mon 060\n');
		// The relative and calendar strings GNU date reads, counted from the clock.
		expect(out(s, 'date -d tomorrow +%F')).toBe('2026-12-01\n');
		expect(out(s, "date -d '-1 day' +%F")).toBe('2026-11-29\n');
		expect(out(s, "date -d '2 hours ago' +%T")).toBe('05:21:26\n');
		expect(out(s, "date -d '+1 year' +%F")).toBe('2027-11-30\n');
		expect(out(s, "date -d '2026-01-02 03:04' '+%F %T'")).toBe('2026-01-02 03:04:00\n');
		expect(run(s, 'date -d someday')).toMatchObject({ stderr: "date: invalid date 'someday'\n", exitCode: 1 });
		// Setting the clock needs a machine that lets root set it: not this session's.
		expect(run(s, "date -s '+1 day'")).toMatchObject({ stderr: 'date: cannot set date: Operation not permitted\n', exitCode: 1 });
	});

	it('files get the virtual time', () => {
		const s = cluster();
		s.clock = () => 1796023286_000;
		run(s, 'echo hi > f');
		expect(s.host.fs.stat('f')?.mtime).toBe(1796023286_000);
		expect(out(s, 'ls -l f')).toBe('-rw-r--r-- 1 user user 3 Nov 30 07:21 f\n');
	});

	it('which and type', () => {
		const s = cluster();
		expect(run(s, 'which kubectl grep cd nosuch')).toMatchObject({ stdout: '/usr/bin/kubectl\n/usr/bin/grep\n', exitCode: 1 });
		expect(out(s, 'which echo')).toBe('/usr/bin/echo\n');
		expect(out(s, 'type kubectl cd')).toBe('kubectl is /usr/bin/kubectl\ncd is a shell builtin\n');
		expect(out(s, '/usr/bin/kubectl get pods | wc -l')).toBe('4\n');
	});

	it('cd, pwd, ~, cd -', () => {
		const s = cluster();
		expect(out(s, 'echo ~ ~/x "~"; cd /; pwd; cd; pwd; cd -; cd ~; pwd')).toBe('/home/user /home/user/x ~\n/\n/home/user\n/\n/home/user\n');
		expect(out(s, 'echo $PWD $OLDPWD')).toBe('/home/user /\n');
	});

	it('ls prints columns to the terminal and one name per line to a pipe', () => {
		const s = cluster();
		run(s, 'touch ' + Array.from({ length: 14 }, (_, i) => `pod-manifest-${String(i).padStart(2, '0')}.yaml`).join(' '));
		expect(out(s, 'ls')).toBe(
			'pod-manifest-00.yaml  pod-manifest-05.yaml  pod-manifest-10.yaml\npod-manifest-01.yaml  pod-manifest-06.yaml  pod-manifest-11.yaml\npod-manifest-02.yaml  pod-manifest-07.yaml  pod-manifest-12.yaml\npod-manifest-03.yaml  pod-manifest-08.yaml  pod-manifest-13.yaml\npod-manifest-04.yaml  pod-manifest-09.yaml\n',
		);
		expect(out(s, 'ls | wc -l; ls -1 | head -1')).toBe('14\npod-manifest-00.yaml\n');
	});

	it('ls -l and -lh', () => {
		const s = cluster();
		run(s, 'mkdir -p d/sub; printf "%s" 12345 > d/f; seq 2000 > d/big');
		expect(out(s, 'ls -l d')).toBe(
			'total 20\n-rw-r--r-- 1 user user 8893 Jan  1 00:00 big\n-rw-r--r-- 1 user user    5 Jan  1 00:00 f\ndrwxr-xr-x 2 user user 4096 Jan  1 00:00 sub\n',
		);
		expect(out(s, 'ls -lh d')).toBe(
			'total 20\n-rw-r--r-- 1 user user 8.7K Jan  1 00:00 big\n' + '-rw-r--r-- 1 user user    5 Jan  1 00:00 f\ndrwxr-xr-x 2 user user 4.0K Jan  1 00:00 sub\n',
		);
		expect(out(s, 'ls -ld /')).toBe('drwxr-xr-x 3 root root 4096 Jan  1 00:00 /\n');
	});

	it('echo and printf details', () => {
		const s = cluster();
		expect(out(s, 'echo -n a; echo -e "\\x41\\0102"; printf "%s|" a b; echo')).toBe('aAB\na|b|\n');
	});

	it('source runs in the current shell; bash -c in a child', () => {
		const s = cluster();
		run(s, 'echo "export FROM_FILE=1; cd /" > env.sh');
		expect(out(s, 'bash env.sh; echo "[$FROM_FILE]"; pwd')).toBe('[]\n/home/user\n');
		expect(out(s, 'source ~/env.sh; echo "[$FROM_FILE]"; pwd')).toBe('[1]\n/\n');
		expect(run(s, 'source nope.sh')).toMatchObject({ stderr: 'bash: nope.sh: No such file or directory\n', exitCode: 1 });
	});

	it('sudo runs the command; env with a command adds variables', () => {
		const s = cluster();
		expect(out(s, 'ssh node-1 sudo systemctl restart kubelet')).toBe('restart kubelet on node-1: active (running)\n');
		expect(out(s, 'sudo -E kubectl get pods | wc -l; sudo -i')).toBe('4\n');
		expect(out(s, 'env A=1 B=2 env | grep "^[AB]="')).toBe('A=1\nB=2\n');
	});

	it('xargs runs commands through the session', () => {
		const s = cluster();
		expect(out(s, "kubectl get pods | awk 'NR>1 {print $1}' | xargs -n 1 kubectl delete pod")).toBe(
			'kubectl delete pod web-1\nkubectl delete pod web-2\nkubectl delete pod db-0\n',
		);
		expect(out(s, "kubectl get pods | awk 'NR>1 {print $1}' | xargs kubectl delete pod")).toBe('kubectl delete pod web-1 web-2 db-0\n');
		const r = run(s, 'seq 2000 | xargs -n 1 true');
		expect(r.stderr).toBe('xargs: too many commands (limit 1000 in this simulated shell)\n');
	});
});

describe('robustness', () => {
	it('never throws when a handler throws or returns junk', () => {
		const s = cluster();
		s.register('boom', () => {
			throw new Error('kaboom\nsecond line');
		});
		s.register('junk', () => null as never);
		s.register('weird', () => ({ stdout: 5, stderr: ['x'], exitCode: 3.5 }) as never);
		expect(run(s, 'boom; echo after')).toMatchObject({ stdout: 'after\n', stderr: `${INTERNAL} boom: internal error: kaboom second line\n`, exitCode: 0 });
		expect(run(s, 'junk')).toMatchObject({ stdout: '', stderr: '', exitCode: 1 });
		expect(run(s, 'weird')).toMatchObject({ stdout: '', stderr: '', exitCode: 1 });
	});

	it('works with no hosts at all', () => {
		const r = new ShellSession().exec('echo hi');
		expect(r.exitCode).toBe(1);
		expect(r.stderr).toMatch(/^\[sim-core\/shell\] internal error: .*addHost/);
		expect(new ShellSession().prompt()).toBe('$ ');
	});

	it('caps output per command', () => {
		const s = cluster();
		s.register('flood', () => ({ stdout: 'x'.repeat(LIMITS.output + 10), stderr: '', exitCode: 0 }));
		const r = run(s, 'flood | wc -c');
		expect(r.stdout).toBe(`${LIMITS.output}\n`);
		expect(r.stderr).toContain('output cut');
		expect(run(s, 'seq 1 100000000 | tail -1').stdout.length).toBeLessThan(10);
	});

	it('caps the number of commands and nesting', () => {
		const s = cluster();
		expect(run(s, Array.from({ length: LIMITS.commands + 1 }, () => 'true').join(';')).stderr).toContain('too many commands');
		let nest = 'echo deep';
		for (let i = 0; i < 12; i++) nest = `echo $(${nest})`;
		const r = run(s, nest);
		expect(r.stderr).toContain('nesting too deep');
		expect(r.exitCode).toBe(1);
		expect(out(s, 'echo still fine')).toBe('still fine\n');
	});

	it('caps input size and variable growth', () => {
		const s = cluster();
		expect(run(s, 'x'.repeat(LIMITS.input + 1)).stderr).toContain('input too long');
		expect(run(s, 'echo ' + 'x'.repeat(LIMITS.line))).toMatchObject({
			stdout: '',
			exitCode: 1,
			stderr: `bash: line too long (limit ${LIMITS.line} characters in this simulated shell)\n`,
		});
		expect(run(s, 'echo ' + 'x'.repeat(LIMITS.line - 20) + ' | wc -c').stdout).toBe(`${LIMITS.line - 19}\n`);
		const r = run(s, 'A=xxxxxxxxxxxxxxxx\n' + Array.from({ length: 40 }, () => 'A=$A$A').join('\n'));
		expect(r.stderr).toContain('expansion too long');
	});

	it('a full file system reports ENOSPC', () => {
		const h: Host = { ...host('tiny', 'workstation'), fs: new MemoryFs({ maxBytes: 100 }) };
		const s = new ShellSession([h]);
		expect(run(s, 'seq 100 > big')).toMatchObject({ stderr: 'bash: /home/user/big: write error: No space left on device\n' });
		expect(run(s, 'seq 100 | tee t >/dev/null')).toMatchObject({ stderr: 'tee: t: No space left on device\n', exitCode: 1 });
	});

	it('a hostile regex gives up instead of hanging', () => {
		const s = cluster();
		const started = perf.now();
		const r = run(s, `echo ${'a'.repeat(40)} | grep -E '(a*)*b'`);
		expect(perf.now() - started).toBeLessThan(5000);
		expect(r.exitCode).toBe(2);
		expect(r.stderr).toContain('too complex');
	});

	it('a broken here-document body on a rejected line is dropped quietly (fuzz regression)', () => {
		const r = cluster().exec('<<EOF ) \n $(');
		expect(r.stderr).not.toContain('internal error');
		expect(r.stderr).toContain("syntax error near unexpected token ')'");
	});

	it('re-entrant exec from a handler works', () => {
		const s = cluster();
		s.register('outer', ({ shell }) => shell.exec('echo inner | tr a-z A-Z'));
		expect(out(s, 'outer; echo done')).toBe('INNER\ndone\n');
	});
});

describe('snapshots', () => {
	it('round-trips through plain JSON', () => {
		const s = cluster();
		s.clock = () => 5000;
		run(s, 'export KUBECONFIG=/k; X=local; mkdir -p m && echo data > m/f; cd m; alias k=kubectl; ssh node-1\ncd /tmp 2>/dev/null || cd /; echo n1 > /n1.txt');
		const json = JSON.parse(JSON.stringify(s.toJSON()));
		const hosts = new Map(
			[host('workstation', 'workstation'), host('control-plane'), host('node-1', 'node', [['systemctl', systemctl]]), host('node-2')].map((h) => [h.name, h]),
		);
		const t = ShellSession.fromJSON(json, (n) => hosts.get(n));
		t.register('kubectl', kubectl);
		expect(t.prompt()).toBe(s.prompt());
		expect(t.hostStack()).toEqual(['workstation', 'node-1']);
		expect(t.history()).toEqual(s.history());
		expect(out(t, 'cat /n1.txt; exit')).toBe('n1\nlogout\n');
		expect(out(t, 'pwd; cat f; echo $KUBECONFIG $X; k get pods | wc -l')).toBe('/home/user/m\ndata\n/k local\n4\n');
		expect(t.host.fs.stat('f')?.mtime).toBe(5000);
		expect(JSON.parse(JSON.stringify(t.toJSON())).hosts).toEqual(json.hosts);
	});

	it('restore() into an existing session; bad snapshots are rejected', () => {
		const s = cluster();
		run(s, 'echo 1 > one');
		const snap = s.toJSON();
		run(s, 'rm one; echo 2 > two');
		s.restore(snap);
		expect(out(s, 'ls | cat')).toBe('one\n');
		expect(() => s.restore({} as never)).toThrow(/not a shell session snapshot/);
	});
});

describe('for loops', () => {
	it('runs the body once per field of the expanded words, with the variable set', () => {
		const s = cluster();
		expect(run(s, 'for i in a "b c" d; do echo "<$i>"; done')).toMatchObject({ stdout: '<a>\n<b c>\n<d>\n', exitCode: 0 });
		// A command substitution is split into fields, as the DNS-debugging page's loop over `-o name` relies on.
		expect(out(s, 'for w in $(echo one two); do echo $w; echo -; done')).toBe('one\n-\ntwo\n-\n');
		// The variable keeps the last value; the loop's status is the last command's.
		expect(out(s, 'for i in 1 2; do false; done; echo $? $i')).toBe('1 2\n');
		expect(out(s, 'for i in $(true); do echo never; done; echo $?')).toBe('0\n');
	});

	it('passes its output down a pipe and its errors to the terminal', () => {
		const s = cluster();
		expect(run(s, 'for x in c a b; do echo $x; nosuchcmd; done | sort')).toMatchObject({ stdout: 'a\nb\nc\n', exitCode: 0 });
		expect(run(s, 'for x in c a b; do echo $x; nosuchcmd; done | sort').stderr).toContain('nosuchcmd: command not found');
	});

	it('reads a loop written over several lines, as pasted', () => {
		const s = cluster();
		expect(out(s, 'for n in 1 2\ndo\n  echo n=$n\ndone')).toBe('n=1\nn=2\n');
	});
});
