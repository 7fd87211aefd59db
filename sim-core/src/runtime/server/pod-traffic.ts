/**
 * Traffic into a pod's network namespace, answered by the servers its
 * containers run: the kubelet's httpGet and tcpSocket probes, and HTTP
 * requests from the network to a Pod IP (Service traffic, curl), each
 * written to the server's access log.
 *
 * Upstream the kubelet dials the pod itself (pkg/probe/http/http.go,
 * pkg/probe/tcp/tcp.go) and containerd plays no part; here the runtime
 * holds the processes, so it answers for them. Probes go through
 * containerd's endpoint (and fail while it is down), traffic from the
 * network does not.
 *
 * Mirrors pkg/probe/http/http.go, pkg/probe/tcp/tcp.go.
 */
import type { CriResult, ProbeAnswer } from '../../cri-api/cri.ts';
import { accessLogLine, httpAnswer, PROBE_USER_AGENT } from '../behaviour.ts';
import { gatewayIp } from '../ipam.ts';
import { listenersOf, programHost, syncContainerMounts } from './container-process.ts';
import { catchUp } from './events.ts';
import { recordRequest } from '../resource-usage.ts';
import type { CriService } from './cri-service.ts';

/** What a server at a Pod IP answered to one HTTP request, with its name and version. */
export type ServedAnswer =
	| { kind: 'refused' }
	| { kind: 'eof' }
	/** `latencyMs`: how long the server takes to answer (its CPU time for the request, more while it is throttled). */
	| { kind: 'http'; status: number; bytes: number; body?: string; contentType?: string; server: string; version: string; startedWallMs: number; hostname: string; latencyMs?: number };

/** An HTTP GET from the node to a port of the pod (httpGet probes). */
export function probeHttp(ctx: CriService, sandboxId: string, port: number, path: string, userAgent = PROBE_USER_AGENT): CriResult<ProbeAnswer> {
	if (!ctx.up) return ctx.down();
	for (const c of Object.values(ctx.host.containers)) if (c.sandboxId === sandboxId) catchUp(ctx, c);
	const listener = listenersOf(ctx, sandboxId, ctx.nowMs).find((l) => l.port.port === port);
	if (!listener) return { ok: true, value: { kind: 'refused' } };
	if (listener.port.protocol !== 'http') return { ok: true, value: { kind: 'eof' } };
	const c = listener.container;
	if (listener.server.component) {
		const hook = ctx.deps.hooks?.probe;
		const status = hook ? hook(ctx.node, listener.server.component, port, path) : 200;
		return { ok: true, value: status === undefined ? { kind: 'refused' } : { kind: 'http', status } };
	}
	const image = ctx.catalogImageOf(c);
	if (!image) return { ok: true, value: { kind: 'refused' } };
	// A static-file server reads its document root, which may be a volume.
	if (listener.server.docRoot) syncContainerMounts(ctx, c, image);
	const sandbox = ctx.host.sandboxes[sandboxId];
	const client = sandbox?.hostNetwork ? '127.0.0.1' : (gatewayIp(ctx.host.podCidr) ?? ctx.host.nodeIp);
	const answer = httpAnswer(image, c.ctx, c.files, listener.server, path, ctx.nowMs - (c.program?.serving?.sinceMs ?? ctx.nowMs), { clientIp: client, wallMs: ctx.kernel.wallMs() });
	const line = accessLogLine(listener.server, client, path, answer.status, answer.bytes, userAgent, ctx.kernel.wallMs());
	if (line) programHost(ctx, c, image).write(ctx.nowMs, { stream: 'stdout', text: line });
	return { ok: true, value: { kind: 'http', status: answer.status } };
}

/**
 * An HTTP request from the network to a Pod's address (Service traffic,
 * curl to a Pod IP): the server's answer, with its name and version, and
 * the access-log line it writes with the client's address. The
 * container's process serves, not containerd, so this works while
 * containerd is down. Undefined: no ready sandbox holds that address.
 * Without a path, only says whether something listens (nothing is served).
 */
export function serveHttp(ctx: CriService, ip: string, port: number, path: string | undefined, clientIp: string, userAgent: string, method = 'GET'): ServedAnswer | undefined {
	const sandbox = Object.values(ctx.host.sandboxes).find((s) => s.state === 'SANDBOX_READY' && !s.hostNetwork && s.ip === ip);
	if (!sandbox) return undefined;
	for (const c of Object.values(ctx.host.containers)) if (c.sandboxId === sandbox.id) catchUp(ctx, c);
	const listener = listenersOf(ctx, sandbox.id, ctx.nowMs).find((l) => l.port.port === port);
	if (!listener) return { kind: 'refused' };
	if (listener.port.protocol !== 'http' || listener.server.component) return { kind: 'eof' };
	if (path === undefined) return { kind: 'http', status: 0, bytes: 0, server: listener.server.name, version: '', startedWallMs: 0, hostname: '' };
	const c = listener.container;
	const image = ctx.catalogImageOf(c);
	if (!image) return { kind: 'refused' };
	if (listener.server.docRoot) syncContainerMounts(ctx, c, image);
	const since = c.program?.serving?.sinceMs ?? ctx.nowMs;
	// The request's CPU time joins the container's account (kubectl top, the HPA).
	const latencyMs = recordRequest(c, ctx.nowMs);
	const answer = httpAnswer(image, c.ctx, c.files, listener.server, path, ctx.nowMs - since, { clientIp, wallMs: ctx.kernel.wallMs(), method, port });
	const line = accessLogLine(listener.server, clientIp, path, answer.status, answer.bytes, userAgent, ctx.kernel.wallMs());
	if (line) programHost(ctx, c, image).write(ctx.nowMs, { stream: 'stdout', text: line });
	const out: Extract<ServedAnswer, { kind: 'http' }> = { kind: 'http', status: answer.status, bytes: answer.bytes, server: listener.server.name, version: image.version, startedWallMs: ctx.kernel.epochMs + since, hostname: c.ctx.hostname };
	if (answer.body !== undefined) out.body = answer.body;
	if (answer.contentType) out.contentType = answer.contentType;
	if (latencyMs >= 1) out.latencyMs = Math.round(latencyMs);
	return out;
}

/** A TCP connect from the node to a port of the pod (tcpSocket probes). */
export function probeTcp(ctx: CriService, sandboxId: string, port: number): CriResult<ProbeAnswer> {
	if (!ctx.up) return ctx.down();
	for (const c of Object.values(ctx.host.containers)) if (c.sandboxId === sandboxId) catchUp(ctx, c);
	const listener = listenersOf(ctx, sandboxId, ctx.nowMs).find((l) => l.port.port === port);
	return { ok: true, value: listener ? { kind: 'connected' } : { kind: 'refused' } };
}
