/**
 * YAML for the simulated `kubectl`: a small, dependency-free reader and
 * writer that follow what Kubernetes itself does (sigs.k8s.io/yaml on
 * go-yaml v2), with limits that make hostile input fail fast.
 *
 * Mirrors kubernetes-sigs/yaml yaml.go.
 */
export { parseYaml, parseYamlDocuments, YamlError } from './parse.ts';
export { stringifyYaml, sortYamlKeys } from './stringify.ts';
export { DEFAULT_YAML_LIMITS, type YamlLimits } from './limits.ts';
