/**
 * LimitRanger: applies a namespace's LimitRanges to the Pods and claims
 * created in it. The mutating phase fills in what a container leaves out
 * (each `Container` limit's `default` as its limits, `defaultRequest` as
 * its requests) and records it in the `kubernetes.io/limit-ranger`
 * annotation; the validating phase refuses values outside `min` and `max`
 * or beyond `maxLimitRequestRatio`, per container, per Pod (the sums), and
 * per PersistentVolumeClaim (its storage request):
 *
 *     pods "p" is forbidden: maximum cpu usage per Container is 800m, but limit is 1
 *
 * Pod updates are not checked: a Pod's containers and their resources do
 * not change after creation (outside in-place resize).
 *
 * Mirrors plugin/pkg/admission/limitranger/admission.go
 * (DefaultLimitRangerActions, defaultContainerResourceRequirements,
 * mergePodResourceRequirements, minConstraint, maxConstraint,
 * maxRequestConstraint, limitRequestRatioConstraint,
 * PodValidateLimitFunc, PersistentVolumeClaimValidateLimitFunc).
 */
import type { Container, KubeObject, PodSpec } from '../../api/types.ts';
import { Quantity } from '../../api/quantity.ts';
import { podLimits, podRequests, toResourceList, type ResourceList } from '../../component-helpers/resource.ts';
import { compareGoStrings } from '../../golang/json.ts';
import { admissionForbidden } from './errors.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './plugin.ts';
import type { StrategyContext } from '../registry/strategy.ts';

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

interface LimitRangeItem {
	type?: string;
	max?: Record<string, string>;
	min?: Record<string, string>;
	default?: Record<string, string>;
	defaultRequest?: Record<string, string>;
	maxLimitRequestRatio?: Record<string, string>;
}

const itemsOf = (limitRange: KubeObject) => ((limitRange.spec ?? {}) as { limits?: LimitRangeItem[] }).limits ?? [];
const sortedEntries = (record: Record<string, string> | undefined) => Object.entries(record ?? {}).sort(([a], [b]) => compareGoStrings(a, b));

/** SupportsAttributes: Pod creates and claim writes, no other subresource. */
function supports(a: AdmissionAttributes): boolean {
	if (a.subresource || !a.object || !a.namespace) return false;
	if (a.info.group !== '') return false;
	if (a.info.resource === 'pods') return a.operation === 'CREATE';
	if (a.info.resource === 'persistentvolumeclaims') return a.operation === 'CREATE' || a.operation === 'UPDATE';
	return false;
}

/** mergeContainerResources: fills the container's missing limits and requests; the annotation's phrases for it. */
function mergeContainer(container: Container, limits: Record<string, string>, requests: Record<string, string>, what: string): string[] {
	const resources = (container.resources ??= {});
	const setLimits: string[] = [];
	const setRequests: string[] = [];
	for (const [name, value] of Object.entries(limits)) {
		resources.limits ??= {};
		if (Object.hasOwn(resources.limits, name)) continue;
		resources.limits[name] = value;
		setLimits.push(name);
	}
	for (const [name, value] of Object.entries(requests)) {
		resources.requests ??= {};
		if (Object.hasOwn(resources.requests, name)) continue;
		resources.requests[name] = value;
		setRequests.push(name);
	}
	const phrases: string[] = [];
	if (setRequests.length) phrases.push(`${setRequests.sort().join(', ')} request for ${what} ${container.name}`);
	if (setLimits.length) phrases.push(`${setLimits.sort().join(', ')} limit for ${what} ${container.name}`);
	return phrases;
}

/** PodMutateLimitFunc: the defaults of the range's Container limits, merged into every container. */
function defaultPod(pod: KubeObject, limitRange: KubeObject): void {
	const limits: Record<string, string> = {};
	const requests: Record<string, string> = {};
	for (const item of itemsOf(limitRange)) {
		if (item.type !== 'Container') continue;
		Object.assign(limits, item.default ?? {});
		Object.assign(requests, item.defaultRequest ?? {});
	}
	const spec = (pod.spec ?? {}) as PodSpec;
	const phrases: string[] = [];
	for (const c of spec.containers ?? []) phrases.push(...mergeContainer(c, limits, requests, 'container'));
	for (const c of spec.initContainers ?? []) phrases.push(...mergeContainer(c, limits, requests, 'init container'));
	if (phrases.length) pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${phrases.join('; ')}` };
}

function quantity(value: string): Quantity {
	return Quantity.parse(value);
}

function minConstraint(type: string, name: string, enforced: string, request: ResourceList, limit: ResourceList): string | undefined {
	const min = quantity(enforced);
	const req = request.get(name);
	const lim = limit.get(name);
	if (!req) return `minimum ${name} usage per ${type} is ${min}.  No request is specified`;
	if (req.cmp(min) < 0) return `minimum ${name} usage per ${type} is ${min}, but request is ${req}`;
	if (lim && lim.cmp(min) < 0) return `minimum ${name} usage per ${type} is ${min}, but limit is ${lim}`;
	return undefined;
}

function maxConstraint(type: string, name: string, enforced: string, request: ResourceList, limit: ResourceList): string | undefined {
	const max = quantity(enforced);
	const req = request.get(name);
	const lim = limit.get(name);
	if (!lim) return `maximum ${name} usage per ${type} is ${max}.  No limit is specified`;
	if (lim.cmp(max) > 0) return `maximum ${name} usage per ${type} is ${max}, but limit is ${lim}`;
	if (req && req.cmp(max) > 0) return `maximum ${name} usage per ${type} is ${max}, but request is ${req}`;
	return undefined;
}

/** maxRequestConstraint: for claims, whose limits are not user input. */
function maxRequestConstraint(type: string, name: string, enforced: string, request: ResourceList): string | undefined {
	const max = quantity(enforced);
	const req = request.get(name);
	if (!req) return `maximum ${name} usage per ${type} is ${max}.  No request is specified`;
	if (req.cmp(max) > 0) return `maximum ${name} usage per ${type} is ${max}, but request is ${req}`;
	return undefined;
}

/** Go's %f: six decimals. */
const goFloat = (n: number) => n.toFixed(6);

function ratioConstraint(type: string, name: string, enforced: string, request: ResourceList, limit: ResourceList): string | undefined {
	const ratio = quantity(enforced);
	const req = request.get(name);
	const lim = limit.get(name);
	if (!req || req.isZero()) return `${name} max limit to request ratio per ${type} is ${ratio}, but no request is specified or request is 0`;
	if (!lim || lim.isZero()) return `${name} max limit to request ratio per ${type} is ${ratio}, but no limit is specified or limit is 0`;
	const observed = lim.milliValue() / req.milliValue();
	if (observed * 1000 > ratio.milliValue()) return `${name} max limit to request ratio per ${type} is ${ratio}, but provided ratio is ${goFloat(observed)}`;
	return undefined;
}

/** Every min, max and ratio of one limit against one set of requests and limits. */
function checkItem(item: LimitRangeItem, type: string, request: ResourceList, limit: ResourceList): string[] {
	const errors: string[] = [];
	for (const [name, value] of sortedEntries(item.min)) errors.push(minConstraint(type, name, value, request, limit) ?? '');
	for (const [name, value] of sortedEntries(item.max)) errors.push(maxConstraint(type, name, value, request, limit) ?? '');
	for (const [name, value] of sortedEntries(item.maxLimitRequestRatio)) errors.push(ratioConstraint(type, name, value, request, limit) ?? '');
	return errors.filter(Boolean);
}

function validatePod(pod: KubeObject, limitRange: KubeObject): string[] {
	const spec = (pod.spec ?? {}) as PodSpec;
	const errors: string[] = [];
	for (const item of itemsOf(limitRange)) {
		if (item.type === 'Container') {
			for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
				errors.push(...checkItem(item, 'Container', toResourceList(c.resources?.requests), toResourceList(c.resources?.limits)));
			}
		} else if (item.type === 'Pod') {
			errors.push(...checkItem(item, 'Pod', podRequests(spec), podLimits(spec)));
		}
	}
	return errors;
}

function validateClaim(claim: KubeObject, limitRange: KubeObject): string[] {
	const requests = toResourceList(((claim.spec ?? {}) as { resources?: { requests?: Record<string, string> } }).resources?.requests);
	const errors: string[] = [];
	for (const item of itemsOf(limitRange)) {
		if (item.type !== 'PersistentVolumeClaim') continue;
		for (const [name, value] of sortedEntries(item.min)) errors.push(minConstraint('PersistentVolumeClaim', name, value, requests, new Map()) ?? '');
		for (const [name, value] of sortedEntries(item.max)) errors.push(maxRequestConstraint('PersistentVolumeClaim', name, value, requests) ?? '');
	}
	return errors.filter(Boolean);
}

/** utilerrors.NewAggregate(...).Error(): one message as is, several in brackets. */
function aggregate(errors: string[]): string {
	return errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
}

function limitRanges(a: AdmissionAttributes, ctx: StrategyContext): KubeObject[] {
	return ctx.list('', 'limitranges', a.namespace);
}

export const limitRanger: AdmissionPlugin = {
	name: 'LimitRanger',
	admit(a, ctx) {
		if (!supports(a) || a.info.resource !== 'pods') return undefined;
		for (const limitRange of limitRanges(a, ctx)) defaultPod(a.object!, limitRange);
		return undefined;
	},
	validate(a, ctx) {
		if (!supports(a)) return undefined;
		const errors: string[] = [];
		for (const limitRange of limitRanges(a, ctx)) {
			errors.push(...(a.info.resource === 'pods' ? validatePod(a.object!, limitRange) : validateClaim(a.object!, limitRange)));
		}
		return errors.length ? admissionForbidden(a, aggregate(errors)) : undefined;
	},
};
