/**
 * The admission chain, in upstream's order (AllOrderedPlugins), with the
 * plugins a kubeadm cluster enables that change what a reader sees: the
 * default-on set plus NodeRestriction, which kubeadm adds.
 *
 * Mirrors pkg/kubeapiserver/options/plugins.go (AllOrderedPlugins).
 */
import type { AdmissionPlugin } from './plugin.ts';
import { namespaceLifecycle } from './namespace-lifecycle.ts';
import { limitRanger } from './limit-ranger.ts';
import { serviceAccountAdmission } from './service-account.ts';
import { nodeRestriction } from './node-restriction.ts';
import { taintNodesByCondition } from './taint-nodes-by-condition.ts';
import { priorityAdmission } from './priority.ts';
import { defaultTolerationSeconds } from './default-toleration-seconds.ts';
import { certificateSubjectRestriction } from './certificate-subject-restriction.ts';
import { storageObjectInUseProtection } from './storage-object-in-use-protection.ts';
import { defaultStorageClass } from './default-storage-class.ts';
import { resourceQuotaAdmission } from './resource-quota.ts';
import { runtimeClassAdmission } from './runtime-class.ts';

/** NamespaceLifecycle, LimitRanger, ServiceAccount, NodeRestriction, TaintNodesByCondition, Priority, DefaultTolerationSeconds, DefaultStorageClass, StorageObjectInUseProtection, RuntimeClass, CertificateSubjectRestriction, ResourceQuota (last, as upstream orders it). */
export function defaultAdmissionPlugins(): AdmissionPlugin[] {
	return [namespaceLifecycle, limitRanger, serviceAccountAdmission, nodeRestriction, taintNodesByCondition, priorityAdmission, defaultTolerationSeconds, defaultStorageClass, storageObjectInUseProtection, runtimeClassAdmission, certificateSubjectRestriction, resourceQuotaAdmission];
}
