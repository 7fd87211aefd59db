/**
 * Admission control: the chain of plugins every write passes after
 * authorization and before storage. Mutating plugins may change the object
 * (defaults that depend on cluster state: a service account, tolerations, a
 * priority); validating plugins may only accept or reject.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/admission/interfaces.go
 * (MutationInterface, ValidationInterface).
 */
import type { KubeObject } from '../../api/types.ts';
import type { ResourceInfo } from '../../api/resources.ts';
import type { ApiResponse, UserInfo } from '../../api/request.ts';
import type { StrategyContext } from '../registry/strategy.ts';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** What a plugin is told about a request. */
export interface AdmissionAttributes {
	operation: AdmissionOperation;
	info: ResourceInfo;
	subresource?: string;
	namespace?: string;
	name: string;
	/** The incoming object (mutable in the mutating phase). */
	object?: KubeObject;
	oldObject?: KubeObject;
	user: UserInfo;
	dryRun: boolean;
}

/** One admission plugin, named as upstream names it (e.g. 'DefaultTolerationSeconds'). */
export interface AdmissionPlugin {
	name: string;
	/** Mutating phase: may change `attributes.object`; returns an error response to reject. */
	admit?(attributes: AdmissionAttributes, ctx: StrategyContext): ApiResponse<never> | undefined;
	/** Validating phase: returns an error response to reject. */
	validate?(attributes: AdmissionAttributes, ctx: StrategyContext): ApiResponse<never> | undefined;
}
