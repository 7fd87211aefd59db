import { describe, expect, it } from 'vitest';
import { findImage } from '../images.ts';
import { binaryExists, resolveArgv, unwrapEntrypoint } from './userland.ts';

/** Which of `names` the image can execute. */
function present(ref: string, names: string[]): string[] {
	const image = findImage(ref);
	if (!image) throw new Error(`no image ${ref}`);
	return names.filter((n) => binaryExists(image, n));
}

const NETWORK_TOOLS = ['wget', 'curl', 'nc', 'nslookup', 'dig', 'host', 'drill', 'ping', 'traceroute', 'ip', 'ifconfig', 'route', 'netstat', 'ss', 'iptables', 'tcpdump', 'telnet'];
const PROCESS_TOOLS = ['hostname', 'ps', 'top', 'bash', 'sh'];

describe('which binaries an image has, as the real image ships them', () => {
	it.each([
		// busybox's defconfig: its network applets, but no curl, dig, host, ss, iptables, tcpdump or bash.
		['busybox:1.28', ['wget', 'nc', 'nslookup', 'ping', 'traceroute', 'ip', 'ifconfig', 'route', 'netstat', 'telnet', 'hostname', 'ps', 'top', 'sh']],
		['busybox:1.36.1', ['wget', 'nc', 'nslookup', 'ping', 'traceroute', 'ip', 'ifconfig', 'route', 'netstat', 'telnet', 'hostname', 'ps', 'top', 'sh']],
		['gcr.io/google-containers/busybox', ['wget', 'nc', 'nslookup', 'ping', 'traceroute', 'ip', 'ifconfig', 'route', 'netstat', 'telnet', 'hostname', 'ps', 'top', 'sh']],
		['radial/busyboxplus:curl', ['wget', 'curl', 'nc', 'nslookup', 'ping', 'traceroute', 'ip', 'ifconfig', 'route', 'netstat', 'telnet', 'hostname', 'ps', 'top', 'sh']],
		['registry.k8s.io/busybox:1.27.2', ['wget', 'nc', 'nslookup', 'ping', 'traceroute', 'ip', 'ifconfig', 'route', 'netstat', 'telnet', 'hostname', 'ps', 'top', 'sh']],
		// Alpine's busybox moved telnet (and httpd, ftp, tftp) to busybox-extras.
		['alpine:3.22', ['wget', 'nc', 'nslookup', 'ping', 'traceroute', 'ip', 'ifconfig', 'route', 'netstat', 'hostname', 'ps', 'top', 'sh']],
		// curlimages/curl: Alpine's applets and curl.
		['curlimages/curl', ['wget', 'curl', 'nc', 'nslookup', 'ping', 'traceroute', 'ip', 'ifconfig', 'route', 'netstat', 'hostname', 'ps', 'top', 'sh']],
		// netshoot: everything.
		['nicolaka/netshoot', [...NETWORK_TOOLS, ...PROCESS_TOOLS]],
		// jessie-dnsutils: Debian with bind9's clients and iputils' ping; no procps, no iproute2.
		['registry.k8s.io/e2e-test-images/jessie-dnsutils:1.3', ['nslookup', 'dig', 'host', 'ping', 'hostname', 'bash', 'sh']],
		// agnhost: Alpine with bind-tools, curl, netcat-openbsd, iproute2 and bash.
		['registry.k8s.io/e2e-test-images/agnhost:2.40', ['wget', 'curl', 'nc', 'nslookup', 'dig', 'host', 'ping', 'traceroute', 'ip', 'ifconfig', 'route', 'netstat', 'ss', 'hostname', 'ps', 'top', 'bash', 'sh']],
		// The Debian-based application images: curl in nginx (since 1.19), nothing of the network in the others.
		['nginx:1.27', ['curl', 'hostname', 'bash', 'sh']],
		['nginx:1.14.2', ['hostname', 'bash', 'sh']],
		['httpd', ['hostname', 'bash', 'sh']],
		['redis', ['hostname', 'bash', 'sh']],
		['postgres', ['hostname', 'bash', 'sh']],
		// python's full image is built on buildpack-deps (curl, wget, procps); -slim is not.
		['python:3.12', ['wget', 'curl', 'hostname', 'ps', 'top', 'bash', 'sh']],
		['python:3.12-slim', ['hostname', 'bash', 'sh']],
		['registry.k8s.io/hpa-example', ['curl', 'hostname', 'bash', 'sh']],
		// Images built from scratch have their one binary.
		['registry.k8s.io/serve_hostname', []],
		['registry.k8s.io/goproxy:0.1', []],
		['registry.k8s.io/pause:3.10.2', []],
	])('%s has %j of the tools a reader reaches for', (ref, expected) => {
		expect(present(ref, [...NETWORK_TOOLS, ...PROCESS_TOOLS])).toEqual(expected);
	});

	it.each([
		['curlimages/curl', ['/usr/bin/curl', '/bin/busybox', '/entrypoint.sh']],
		['registry.k8s.io/serve_hostname', ['/serve_hostname']],
		['registry.k8s.io/goproxy:0.1', ['/goproxy']],
		['registry.k8s.io/e2e-test-images/agnhost:2.40', ['/agnhost', '/usr/bin/dig', '/coredns']],
		['nicolaka/netshoot', ['/usr/sbin/tcpdump', '/usr/bin/dig', 'zsh']],
		['busybox:1.36', ['/bin/wget', '/sbin/ifconfig']],
	])('%s runs %j by path', (ref, paths) => {
		expect(present(ref, paths)).toEqual(paths);
	});

	it('does not find a program outside the directories of PATH, nor an empty name', () => {
		const agnhost = findImage('registry.k8s.io/e2e-test-images/agnhost:2.40')!;
		expect(binaryExists(agnhost, 'agnhost')).toBe(false);
		expect(binaryExists(agnhost, '/tmp/dig')).toBe(false);
		expect(binaryExists(agnhost, '')).toBe(false);
	});
});

describe('entrypoint scripts', () => {
	const curl = findImage('curlimages/curl')!;
	it.each([
		[[], ['curl']],
		[['-s', 'http://web'], ['curl', '-s', 'http://web']],
		[['http://web'], ['curl', 'http://web']],
		[['sleep', '3600'], ['sleep', '3600']],
		[['sh', '-c', 'echo hi'], ['sh', '-c', 'echo hi']],
	])("curlimages/curl's /entrypoint.sh with args %j execs %j", (args, argv) => {
		expect(unwrapEntrypoint(curl, resolveArgv(curl, undefined, args)).argv).toEqual(argv);
	});

	it('docker-php-entrypoint runs apache2-foreground by default and for an option', () => {
		const php = findImage('registry.k8s.io/hpa-example')!;
		expect(unwrapEntrypoint(php, resolveArgv(php, undefined, undefined)).argv).toEqual(['apache2-foreground']);
		expect(unwrapEntrypoint(php, resolveArgv(php, undefined, ['-DFOREGROUND'])).argv).toEqual(['apache2-foreground', '-DFOREGROUND']);
	});
});
