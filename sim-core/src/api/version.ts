/**
 * The version every simulated binary reports (k8s.io/component-base/version):
 * Kubernetes v1.36.3 (FACTS.md "Version basis"). The real build's commit and
 * date are not modelled: the commit stands in with the k8s.io/kubectl
 * v0.36.3 tag's commit and its date; the Go version is go.mod's directive.
 *
 * Mirrors staging/src/k8s.io/component-base/version/version.go (Get),
 * staging/src/k8s.io/component-base/version/base.go,
 * staging/src/k8s.io/apimachinery/pkg/version/types.go (Info).
 */
export const KUBERNETES_GIT_VERSION = 'v1.36.3';

export const BUILD_INFO = {
	gitCommit: '73fdc7a337b55d4097e8723cb44d09ac7473e1d4',
	gitTreeState: 'clean',
	buildDate: '2026-07-23T05:16:13Z',
	goVersion: 'go1.26.0',
	compiler: 'gc',
	platform: 'linux/amd64',
} as const;
