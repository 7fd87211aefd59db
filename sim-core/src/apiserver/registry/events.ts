/**
 * The core/v1 Event strategy: the legacy namespace rule (the involved
 * object's namespace must be the event's), the extra fields new-style events
 * must carry, and the field selectors `kubectl get events` and `kubectl
 * describe` use. Events may be created by an update (the event recorder's
 * patches).
 *
 * Mirrors pkg/registry/core/event/strategy.go (ToSelectableFields),
 * pkg/apis/core/validation/events.go (legacyValidateEvent).
 */
import type { CoreEvent, KubeObject } from '../../api/types.ts';
import type { Strategy } from './strategy.ts';
import { invalid, required, type FieldError } from './field.ts';
import { isDNS1123Subdomain } from '../../api/labels.ts';
import { validateObjectMetaUpdate, validateQualifiedName } from './objectmeta.ts';

/** ReportingInstanceLengthLimit, ActionLengthLimit, ReasonLengthLimit (events.go). */
const REPORTING_INSTANCE_MAX = 128;
const ACTION_MAX = 128;
const REASON_MAX = 128;
/** NoteLengthLimit = 1 KiB. */
const NOTE_MAX = 1024;

/** legacyValidateEvent for requests to core/v1 (the `reportingComponent` spelling). */
function validateEvent(obj: KubeObject): FieldError[] {
	const event = obj as CoreEvent;
	const errs: FieldError[] = [];
	const namespace = event.metadata.namespace ?? '';
	const involvedNamespace = event.involvedObject?.namespace ?? '';
	if (!event.eventTime) {
		if (!involvedNamespace) {
			if (namespace !== '' && namespace !== 'default') errs.push(invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace'));
		} else if (namespace !== involvedNamespace) {
			errs.push(invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace'));
		}
	} else {
		if (!involvedNamespace && namespace !== 'default' && namespace !== 'kube-system') errs.push(invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace'));
		const controller = event.reportingComponent ?? '';
		if (!controller) errs.push(required('reportingComponent'));
		errs.push(...validateQualifiedName(controller, 'reportingComponent'));
		const instance = event.reportingInstance ?? '';
		if (!instance) errs.push(required('reportingInstance'));
		if (instance.length > REPORTING_INSTANCE_MAX) errs.push(invalid('reportingInstance', '', `can have at most ${REPORTING_INSTANCE_MAX} characters`));
		const action = event.action ?? '';
		if (!action) errs.push(required('action'));
		if (action.length > ACTION_MAX) errs.push(invalid('action', '', `can have at most ${ACTION_MAX} characters`));
		const reason = event.reason ?? '';
		if (!reason) errs.push(required('reason'));
		if (reason.length > REASON_MAX) errs.push(invalid('reason', '', `can have at most ${REASON_MAX} characters`));
		if ((event.message ?? '').length > NOTE_MAX) errs.push(invalid('message', '', `can have at most ${NOTE_MAX} characters`));
	}
	for (const m of isDNS1123Subdomain(namespace)) errs.push(invalid('namespace', namespace, m));
	return errs;
}

/** ToSelectableFields for core/v1 Events. */
function eventFields(obj: KubeObject): Record<string, string> {
	const event = obj as CoreEvent;
	const involved = event.involvedObject ?? {};
	return {
		'involvedObject.kind': involved.kind ?? '',
		'involvedObject.namespace': involved.namespace ?? '',
		'involvedObject.name': involved.name ?? '',
		'involvedObject.uid': involved.uid ?? '',
		'involvedObject.apiVersion': involved.apiVersion ?? '',
		'involvedObject.resourceVersion': involved.resourceVersion ?? '',
		'involvedObject.fieldPath': involved.fieldPath ?? '',
		reason: event.reason ?? '',
		reportingComponent: event.reportingComponent ?? '',
		// source is source.component, else the reporting controller.
		source: event.source?.component || event.reportingComponent || '',
		type: event.type ?? '',
	};
}

export const eventStrategy: Strategy = {
	allowCreateOnUpdate: true,
	validate: validateEvent,
	validateUpdate(obj, old) {
		return [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateEvent(obj)];
	},
	fields: eventFields,
};
