/**
 * What `kubectl explain` says about access control and identity (RBAC
 * roles, rules and bindings, TokenReview, CertificateSigningRequest), in
 * this project's own words; merged by ../explain-descriptions.ts.
 *
 * Mirrors nothing upstream: the simulator's own descriptions.
 */

/** Type descriptions, by schema type key. */
export const ACCESS_TYPES: Readonly<Record<string, string>> = {
	Role: 'A Role grants permissions on resources within one namespace.',
	RoleBinding: 'A RoleBinding grants the permissions of a role to users, groups or service accounts within a namespace.',
	ClusterRole: 'A ClusterRole grants permissions cluster-wide or to be reused by RoleBindings.',
	ClusterRoleBinding: 'A ClusterRoleBinding grants the permissions of a ClusterRole across the whole cluster.',
	PolicyRule: 'One permission of a role: verbs allowed on resources of API groups (optionally only objects with given names), or on non-resource URLs. Rules only add; nothing can deny.',
	AggregationRule: 'Which ClusterRoles a ClusterRole gathers its rules from.',
	Subject: 'Who a binding grants to: a user, a group or a service account.',
	RoleRef: 'The role a binding grants.',
	TokenReview: 'A TokenReview asks the API server whether a bearer token is valid, and who it belongs to. Created, never stored.',
	TokenReviewSpec: 'The token to check, and for which audiences.',
	TokenReviewStatus: 'The answer: whether the token is valid, for whom, and for which audiences.',
	UserInfo: 'The identity of an authenticated user.',
	CertificateSigningRequest: 'A CertificateSigningRequest asks a signer for an X.509 certificate; once approved, the signer issues it in the status.',
	CertificateSigningRequestSpec: 'The request: the PEM-encoded CSR, the signer to send it to, the key usages, and who made it (filled in by the server).',
	CertificateSigningRequestStatus: 'The approval conditions and, once issued, the certificate.',
	CertificateSigningRequestCondition: 'A decision on a request: Approved, Denied or Failed.',
};

const CONDITION_STATUS = 'Whether the condition holds: True, False or Unknown.';

/** Field descriptions, by `TypeKey.field`. */
export const ACCESS_FIELDS: Readonly<Record<string, string>> = {
	'Role.rules': 'The permissions the role grants.',
	'ClusterRole.rules': 'The permissions the role grants. With an aggregationRule, the controller fills it in and overwrites changes.',
	'ClusterRole.aggregationRule': 'Makes the role the union of the ClusterRoles whose labels match; their rules are copied into rules.',
	'PolicyRule.verbs': 'What may be done: get, list, watch, create, update, patch, delete, deletecollection, or others such as bind, escalate, impersonate; * for everything.',
	'PolicyRule.apiGroups': 'The API groups of the resources: "" for the core group, e.g. apps or batch; * for every group.',
	'PolicyRule.resources': 'The resources, by plural name, e.g. pods, deployments; a subresource as pods/log; * for every resource.',
	'PolicyRule.resourceNames': 'Only objects with these names. Create and deletecollection cannot be limited this way. Unset means every object.',
	'PolicyRule.nonResourceURLs': 'URL paths that are not resources, e.g. /healthz or /metrics (a trailing * matches a prefix). Only in ClusterRoles bound by ClusterRoleBindings; not with resources.',
	'AggregationRule.clusterRoleSelectors': 'Label selectors; ClusterRoles matching any of them are gathered.',
	'RoleBinding.roleRef': 'The Role (in the binding\'s namespace) or ClusterRole granted. Cannot be changed: delete the binding and make a new one.',
	'RoleBinding.subjects': 'Who the role is granted to, within the binding\'s namespace.',
	'ClusterRoleBinding.roleRef': 'The ClusterRole granted. Cannot be changed: delete the binding and make a new one.',
	'ClusterRoleBinding.subjects': 'Who the role is granted to, in every namespace.',
	'Subject.kind': 'User, Group or ServiceAccount.',
	'Subject.name': 'The name of the user, group or service account.',
	'Subject.namespace': 'For a ServiceAccount, its namespace (required).',
	'Subject.apiGroup': 'rbac.authorization.k8s.io for User and Group (the default); "" for ServiceAccount.',
	'RoleRef.apiGroup': 'The role\'s API group: rbac.authorization.k8s.io.',
	'RoleRef.kind': 'Role or ClusterRole.',
	'RoleRef.name': 'The role\'s name.',
	'TokenReviewSpec.token': 'The bearer token to check.',
	'TokenReviewSpec.audiences': 'The audiences the token must be valid for. Unset means the API server\'s own.',
	'TokenReviewStatus.authenticated': 'Whether the token is valid.',
	'TokenReviewStatus.user': 'Who the token belongs to, when it is valid.',
	'TokenReviewStatus.audiences': 'The audiences (of those asked about) the token is valid for.',
	'TokenReviewStatus.error': 'Why the token could not be checked, if it could not.',
	'UserInfo.username': 'The user\'s name, e.g. system:serviceaccount:<namespace>:<name> for a service account.',
	'UserInfo.uid': 'A unique ID of the user, when there is one.',
	'UserInfo.groups': 'The groups the user belongs to, e.g. system:authenticated.',
	'UserInfo.extra': 'More information about the user, from the authenticator.',
	'CertificateSigningRequestSpec.request': 'The PEM-encoded PKCS#10 certificate signing request. Cannot be changed.',
	'CertificateSigningRequestSpec.signerName': 'The signer to issue the certificate, e.g. kubernetes.io/kube-apiserver-client, kubernetes.io/kube-apiserver-client-kubelet or kubernetes.io/kubelet-serving. Cannot be changed.',
	'CertificateSigningRequestSpec.expirationSeconds': 'How long the certificate should be valid, at least 600 seconds. The signer may issue a shorter one.',
	'CertificateSigningRequestSpec.usages': 'The key usages asked for, e.g. digital signature, key encipherment, client auth, server auth.',
	'CertificateSigningRequestSpec.username': 'Who made the request; set by the server.',
	'CertificateSigningRequestSpec.uid': 'The uid of who made the request; set by the server.',
	'CertificateSigningRequestSpec.groups': 'The groups of who made the request; set by the server.',
	'CertificateSigningRequestSpec.extra': 'More about who made the request; set by the server.',
	'CertificateSigningRequestStatus.conditions': 'Approved or Denied (through the approval subresource, e.g. kubectl certificate approve), or Failed (by the signer).',
	'CertificateSigningRequestStatus.certificate': 'The issued certificate, PEM-encoded, set by the signer once the request is approved.',
	'CertificateSigningRequestCondition.type': 'Approved, Denied or Failed.',
	'CertificateSigningRequestCondition.status': CONDITION_STATUS,
	'CertificateSigningRequestCondition.reason': 'A short CamelCase reason, e.g. KubectlApprove.',
	'CertificateSigningRequestCondition.message': 'A human-readable explanation.',
	'CertificateSigningRequestCondition.lastUpdateTime': 'When the condition was last updated.',
	'CertificateSigningRequestCondition.lastTransitionTime': 'When status last changed.',
};
