/**
 * Per-key exponential back-off, as client-go's flowcontrol.Backoff works
 * and as the kubelet configures it: one instance for container restarts
 * (CrashLoopBackOff: 10 s doubling to 300 s, forgotten once a container
 * ran 10 minutes) and one for image pulls (10 s doubling to 300 s,
 * forgotten after 2 × max without a failure). No jitter: the kubelet
 * builds both with jitter 0.
 *
 * State is plain JSON in the kubelet's process state.
 *
 * Mirrors staging/src/k8s.io/client-go/util/flowcontrol/backoff.go,
 * pkg/kubelet/kubelet.go (the constructors).
 */

interface BackoffConfig {
	initialMs: number;
	maxMs: number;
	/** An entry older than this (event time minus last update) is forgotten. */
	expireAfterMs: number;
}

/** FACTS.md B: initialCrashLoopBackOff 10s, MaxCrashLoopBackOff 300s, reset after 600s (pkg/kubelet/kubelet.go). */
export const CRASH_LOOP_BACKOFF: BackoffConfig = { initialMs: 10_000, maxMs: 300_000, expireAfterMs: 600_000 };
/** FACTS.md B: imageBackOffPeriod 10s, MaxImageBackOff 300s; client-go's default expiry 2 × max. */
export const IMAGE_PULL_BACKOFF: BackoffConfig = { initialMs: 10_000, maxMs: 300_000, expireAfterMs: 600_000 };

interface BackoffEntry {
	backoffMs: number;
	lastUpdateMs: number;
}

export type BackoffState = Record<string, BackoffEntry>;

function expired(cfg: BackoffConfig, eventMs: number, entry: BackoffEntry): boolean {
	return eventMs - entry.lastUpdateMs > cfg.expireAfterMs;
}

/** Backoff.Next: the first failure (or one after expiry) starts at the initial delay, later ones double up to the max. */
export function backoffNext(state: BackoffState, cfg: BackoffConfig, key: string, eventMs: number, nowMs: number): void {
	const entry = state[key];
	if (!entry || expired(cfg, eventMs, entry)) state[key] = { backoffMs: cfg.initialMs, lastUpdateMs: nowMs };
	else state[key] = { backoffMs: Math.min(entry.backoffMs * 2, cfg.maxMs), lastUpdateMs: nowMs };
}

/** Backoff.Get: the current delay (0 if none). */
export function backoffGet(state: BackoffState, key: string): number {
	return state[key]?.backoffMs ?? 0;
}

/** Backoff.IsInBackOffSince: still within the delay counted from `eventMs` (e.g. the container's finish time). */
export function isInBackOffSince(state: BackoffState, cfg: BackoffConfig, key: string, eventMs: number, nowMs: number): boolean {
	const entry = state[key];
	if (!entry || expired(cfg, eventMs, entry)) return false;
	return nowMs - eventMs < entry.backoffMs;
}

/** Backoff.IsInBackOffSinceUpdate: still within the delay counted from the last failure. */
export function isInBackOffSinceUpdate(state: BackoffState, cfg: BackoffConfig, key: string, nowMs: number): boolean {
	const entry = state[key];
	if (!entry || expired(cfg, nowMs, entry)) return false;
	return nowMs - entry.lastUpdateMs < entry.backoffMs;
}

/** Backoff.GC: drops expired entries. */
export function backoffGc(state: BackoffState, cfg: BackoffConfig, nowMs: number): void {
	for (const [key, entry] of Object.entries(state)) if (expired(cfg, nowMs, entry)) delete state[key];
}
