/**
 * Running the admission chain: the mutating phase asks each plugin's
 * `admit` in order and stops at the first rejection; the validating phase
 * first reports the strategy's field errors (422 Invalid), then asks each
 * plugin's `validate`. Each phase leaves one trace line (or the name of the
 * plugin that rejected).
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/admission/chain.go
 * (chainAdmissionHandler Admit and Validate),
 * staging/src/k8s.io/apiserver/pkg/registry/rest/create.go (the end of
 * BeforeCreate, which turns field errors into an Invalid status),
 * staging/src/k8s.io/apiserver/pkg/registry/rest/update.go (BeforeUpdate,
 * likewise).
 */
import type { KubeObject } from '../../api/types.ts';
import type { ResourceInfo } from '../../api/resources.ts';
import type { ApiResponse } from '../../api/request.ts';
import type { TraceInput } from '../config.ts';
import * as errors from '../errors.ts';
import type { FieldError } from '../errors.ts';
import type { StrategyContext } from '../registry/strategy.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './plugin.ts';

function objectName(obj: KubeObject | undefined): string {
	return obj?.metadata?.name ?? '';
}

/** The mutating phase: the rejection of the first plugin that refuses, or undefined when all admitted. */
export function admit(plugins: readonly AdmissionPlugin[], attributes: AdmissionAttributes, ctx: StrategyContext, emit: (event: TraceInput) => void): ApiResponse | undefined {
	for (const plugin of plugins) {
		if (!plugin.admit) continue;
		const rejected = plugin.admit(attributes, ctx);
		if (rejected) {
			emit({ action: 'admit', sub: plugin.name, msg: `${plugin.name} rejected the request` });
			return rejected;
		}
	}
	emit({ action: 'admit', msg: `mutating admission passed (${plugins.filter((p) => p.admit).map((p) => p.name).join(', ')})` });
	return undefined;
}

/** The validating phase, after the strategy's own validation found `fieldErrors`. */
export function validate(plugins: readonly AdmissionPlugin[], attributes: AdmissionAttributes, ctx: StrategyContext, fieldErrors: FieldError[], info: ResourceInfo, emit: (event: TraceInput) => void): ApiResponse | undefined {
	const obj = attributes.object!;
	if (fieldErrors.length) {
		emit({ action: 'validate', msg: `${fieldErrors.length} validation error(s)` });
		return errors.invalid(info.kind, objectName(obj), fieldErrors, info.group);
	}
	for (const plugin of plugins) {
		if (!plugin.validate) continue;
		const rejected = plugin.validate(attributes, ctx);
		if (rejected) {
			emit({ action: 'validate', sub: plugin.name, msg: `${plugin.name} rejected the request` });
			return rejected;
		}
	}
	emit({ action: 'validate', msg: 'object is valid' });
	return undefined;
}
