/**
 * The shape of a request to the simulated kube-apiserver and of its answer.
 * Every client (kubectl, each controller, the scheduler, each kubelet, curl)
 * sends these; the REST path form (`/api/v1/namespaces/default/pods`) maps
 * one to one onto them (see ../tools/curl/paths.ts).
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go
 * (RequestInfo), staging/src/k8s.io/client-go/rest/request.go (Request,
 * Result), staging/src/k8s.io/apiserver/pkg/authentication/user/user.go
 * (Info), staging/src/k8s.io/apimachinery/pkg/watch/watch.go (Event).
 */
import type { KubeObject, Status } from './types.ts';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export type PatchType = 'application/merge-patch+json' | 'application/strategic-merge-patch+json' | 'application/json-patch+json' | 'application/apply-patch+yaml';

/** One API request. Built by clients; read by the API server. */
export interface ApiRequest {
	verb: Verb;
	/** API group ('' = core). */
	group: string;
	version: string;
	/** Plural resource name, e.g. 'pods'. */
	resource: string;
	subresource?: string;
	namespace?: string;
	name?: string;
	body?: unknown;
	patchType?: PatchType;
	/** Query parameters, as on the URL. */
	query?: {
		labelSelector?: string;
		fieldSelector?: string;
		resourceVersion?: string;
		/** 'Strict' (kubectl's default), 'Warn' or 'Ignore'. */
		fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
		dryRun?: 'All';
		fieldManager?: string;
		force?: boolean;
		limit?: number;
		/** A list's continue token (ListOptions.continue). */
		continue?: string;
		/** For pods/log. */
		container?: string;
		tailLines?: number;
		/** For pods/log: only lines from the last N seconds (PodLogOptions.sinceSeconds). */
		sinceSeconds?: number;
		/** For pods/log: only lines from this RFC 3339 time on (PodLogOptions.sinceTime). */
		sinceTime?: string;
		previous?: boolean;
		/** For pods/log: prefix each line with its RFC 3339 timestamp. */
		timestamps?: boolean;
		/** For pods/log: at most this many bytes of the log (PodLogOptions.limitBytes). */
		limitBytes?: number;
		/** For pods/exec (PodExecOptions): the command, and whether stdin and a TTY are attached. */
		command?: string[];
		stdin?: boolean;
		tty?: boolean;
	};
	/**
	 * A watch whose stream is read in one go (curl's, ended by the reader):
	 * the events since `resourceVersion` come back in the answer's `events`
	 * and no watcher stays registered.
	 */
	streamReplay?: boolean;
	/** Impersonation headers (`kubectl --as`, `--as-group`): act as this user if allowed to impersonate. */
	impersonate?: { user: string; groups?: string[] };
	/** For delete: metav1.DeleteOptions. */
	deleteOptions?: {
		gracePeriodSeconds?: number;
		propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
		preconditions?: { uid?: string; resourceVersion?: string };
	};
}

/** The API server's answer. `body` is an object, a list, or a Status on failure. */
export interface ApiResponse<T = unknown> {
	/** HTTP status code. */
	code: number;
	body: T | Status;
	/** Warning headers (e.g. the v1 Endpoints deprecation). */
	warnings?: string[];
	/**
	 * A proxy subresource's upstream (what a Connect REST's ResourceLocation
	 * returns): the HTTP front end dials it and relays the request there.
	 */
	proxy?: ProxyLocation;
}

/** Where pods/<id>/proxy or services/<id>/proxy leads: `scheme://ip[:port]`. */
export interface ProxyLocation {
	scheme: 'http' | 'https';
	ip: string;
	/** Empty: the scheme's default port. */
	port: string;
}


export function isSuccess(response: ApiResponse): boolean {
	return response.code >= 200 && response.code < 300;
}

/** The authenticated caller, as the API server sees it (k8s.io/apiserver user.Info). */
export interface UserInfo {
	username: string;
	uid?: string;
	groups: string[];
}

/** A watch event delivered to a watcher (k8s.io/apimachinery watch.Event). */
export interface WatchEvent {
	type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
	object: KubeObject | Status;
}

/**
 * What the kubelet answers to pods/exec once the command ran (the streams
 * of a remotecommand session, collected): the API server passes it back.
 */
export interface ExecResult {
	kind: 'ExecResult';
	stdout: string;
	stderr: string;
	exitCode: number;
}
