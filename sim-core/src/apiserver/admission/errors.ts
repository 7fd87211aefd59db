/**
 * How a plugin turns a refusal into a response: admission.NewForbidden names
 * the object (its name, else its generateName) and the resource it was sent
 * to, as `pods "web" is forbidden: <why>`.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/admission/errors.go.
 */
import { qualifiedResource } from '../../api/resources.ts';
import * as errors from '../errors.ts';
import type { ApiResponse } from '../../api/request.ts';
import type { AdmissionAttributes } from './plugin.ts';

/** admission.NewForbidden. */
export function admissionForbidden(a: AdmissionAttributes, why: string): ApiResponse<never> {
	const name = a.object?.metadata?.name || a.object?.metadata?.generateName || a.name;
	return errors.forbidden(qualifiedResource(a.info), name, why, a.info.group, a.info.resource);
}

/** Whether the request is for the main resource `group/resource` (no subresource). */
export function isResource(a: AdmissionAttributes, group: string, resource: string): boolean {
	return a.info.group === group && a.info.resource === resource && !a.subresource;
}
