/**
 * client-go's rate-limited work queue: keys are `namespace/name` strings;
 * the queue is stingy (a key added again before it is processed is processed
 * once), a key being processed is not handed out twice, and a failed key
 * comes back after the default controller rate limiter's delay: the larger
 * of a per-item exponential back-off (5 ms doubling to 1000 s) and an
 * overall token bucket (10 per second, bursts of 100) shared by every key of
 * the queue. The bucket is what keeps a controller that requeues a key at
 * once on every sync (a Deployment past its progress deadline whose last
 * condition was a finished rollout) from spinning: 10 syncs a second, as
 * upstream's, not one every 5 ms.
 *
 * The queue also remembers, per key, the origin of the first cause that
 * added it, so the trace can tie a reconcile to the command that caused it.
 * State is plain JSON and lives inside the owning process's state.
 *
 * Mirrors staging/src/k8s.io/client-go/util/workqueue/queue.go,
 * staging/src/k8s.io/client-go/util/workqueue/rate_limiting_queue.go,
 * staging/src/k8s.io/client-go/util/workqueue/default_rate_limiters.go
 * (DefaultControllerRateLimiter: ItemExponentialFailureRateLimiter and
 * BucketRateLimiter over golang.org/x/time/rate's Limiter).
 */

export interface WorkQueueState {
	/** Keys ready to process, in order. */
	queue: string[];
	/** Keys waiting in `queue` or to be re-added after processing. */
	dirty: Record<string, true>;
	/** Keys being processed now. */
	processing: Record<string, true>;
	/** Consecutive failures per key (for back-off). */
	failures: Record<string, number>;
	/** Origin of the cause that queued each key. */
	origins: Record<string, string>;
	/** The overall bucket: tokens left as of `atMs` (virtual ms); absent = full. */
	bucket?: { tokens: number; atMs: number };
}

export function emptyWorkQueue(): WorkQueueState {
	return { queue: [], dirty: {}, processing: {}, failures: {}, origins: {} };
}

export const WORKQUEUE_BASE_DELAY_MS = 5;
export const WORKQUEUE_MAX_DELAY_MS = 1000 * 1000;
/** BucketRateLimiter{Limiter: rate.NewLimiter(rate.Limit(10), 100)}. */
export const WORKQUEUE_BUCKET_QPS = 10;
export const WORKQUEUE_BUCKET_BURST = 100;

export class WorkQueue {
	constructor(private readonly state: () => WorkQueueState) {}

	get length(): number {
		return this.state().queue.length;
	}

	/** Adds a key; returns true if the caller should schedule processing (the queue went from empty to non-empty). */
	add(key: string, origin: string): boolean {
		const s = this.state();
		if (s.dirty[key]) return false;
		s.dirty[key] = true;
		s.origins[key] ??= origin;
		if (s.processing[key]) return false;
		s.queue.push(key);
		return s.queue.length === 1;
	}

	/** Takes the next key, marking it in process. */
	get(): { key: string; origin: string } | undefined {
		const s = this.state();
		const key = s.queue.shift();
		if (key === undefined) return undefined;
		s.processing[key] = true;
		delete s.dirty[key];
		const origin = s.origins[key];
		delete s.origins[key];
		return { key, origin };
	}

	/** Marks a key processed; if it was re-added meanwhile, it goes back in the queue. Returns true if the queue needs processing. */
	done(key: string): boolean {
		const s = this.state();
		delete s.processing[key];
		if (s.dirty[key]) {
			s.queue.push(key);
			return true;
		}
		return false;
	}

	/** The delay before re-adding a key rate-limited at virtual time `nowMs` (counts the failure, takes a token). */
	backoffMs(key: string, nowMs: number): number {
		const s = this.state();
		const n = s.failures[key] ?? 0;
		s.failures[key] = n + 1;
		const item = Math.min(WORKQUEUE_BASE_DELAY_MS * 2 ** n, WORKQUEUE_MAX_DELAY_MS);
		// Limiter.Reserve: refill since the last reservation, capped at the burst, then take one token (possibly into debt).
		const bucket = s.bucket ?? { tokens: WORKQUEUE_BUCKET_BURST, atMs: nowMs };
		const tokens = Math.min(WORKQUEUE_BUCKET_BURST, bucket.tokens + (Math.max(0, nowMs - bucket.atMs) * WORKQUEUE_BUCKET_QPS) / 1000) - 1;
		s.bucket = { tokens, atMs: nowMs };
		const overall = tokens >= 0 ? 0 : Math.ceil((-tokens * 1000) / WORKQUEUE_BUCKET_QPS);
		return Math.max(item, overall);
	}

	/** Stops tracking failures of a key (after a success). */
	forget(key: string): void {
		delete this.state().failures[key];
	}
}
