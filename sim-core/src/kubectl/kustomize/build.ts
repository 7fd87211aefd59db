/**
 * `kubectl kustomize DIR` / `kubectl apply -k DIR`: the kustomize build
 * that kubectl v1.36 embeds (kustomize v5.8.1), for what the kubernetes.io task
 * "Declarative Management of Kubernetes Objects Using Kustomize" uses:
 * resources (files, and directories with their own kustomization),
 * vars (`$(NAME)` in containers' command, args and env values),
 * configMapGenerator and secretGenerator (files, envs, literals, options,
 * generatorOptions, the content-hash name suffix), namespace, namePrefix,
 * nameSuffix, commonLabels and labels (with their selectors and templates),
 * commonAnnotations, images, replicas, patchesStrategicMerge,
 * patchesJson6902 and patches (with targets), then the name references of
 * ConfigMaps and Secrets brought up to date, and the output in kustomize's
 * legacy kind order with its deprecation warnings.
 *
 * The transformers run in kustomize's built-in order: strategic-merge
 * patches, patches, namespace, prefix, suffix, labels, annotations, JSON
 * patches, replicas, images; then the hash suffixes, computed over the
 * generated object's kind, name (prefix and suffix applied), data,
 * binaryData and, for a Secret, type: sha256 of its JSON, the first ten hex
 * digits with 0 1 3 a e spelled g h k m t. Not modelled: remote bases,
 * components, replacements, helmCharts, generator `behavior`
 * (merge/replace across overlays) and plugins; they are reported as errors
 * rather than ignored.
 *
 * Mirrors kubernetes-sigs/kustomize api/internal/target/kusttarget.go (the
 * build and the transformer order), kubernetes-sigs/kustomize
 * api/hasher/hasher.go (the name suffix), kubernetes-sigs/kustomize
 * api/resid/gvk.go (the legacy order), kubernetes-sigs/kustomize
 * api/types/kustomization.go (the fields and their deprecations).
 */
import type { KubeObject } from '../../api/types.ts';
import { apiResources } from '../../api/schema/index.ts';
import { applyPatch } from '../../api/patch.ts';
import { encodeBase64 } from '../../golang/base64.ts';
import { goMarshal, type GoJsonValue } from '../../golang/json.ts';
import { sha256, toHex } from '../../golang/sha256.ts';
import { parseYaml, parseYamlDocuments } from '../../yaml/index.ts';

/** The files kustomize reads: the machine kubectl runs on. */
export interface KustomizeFiles {
	readFile(path: string): string | undefined;
	listDir(path: string): string[] | undefined;
}

export type KustomizeResult = { objects: KubeObject[]; warnings: string[] } | { error: string };

type Obj = Record<string, unknown>;
const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const UNSUPPORTED = ['components', 'replacements', 'helmCharts', 'helmGlobals', 'generators', 'transformers', 'validators', 'crds', 'openapi', 'configurations', 'helmChartInflationGenerator'];
const DEPRECATED: Record<string, string> = { commonLabels: 'labels', patchesStrategicMerge: 'patches', patchesJson6902: 'patches', bases: 'resources', imageTags: 'images', vars: 'replacements' };

/** path.Join and Clean for slash paths. */
export function joinPath(...parts: string[]): string {
	const absolute = parts[0]?.startsWith('/');
	const out: string[] = [];
	for (const segment of parts.join('/').split('/')) {
		if (!segment || segment === '.') continue;
		if (segment === '..') {
			if (out.length && out[out.length - 1] !== '..') out.pop();
			else if (!absolute) out.push('..');
		} else out.push(segment);
	}
	return (absolute ? '/' : '') + out.join('/') || (absolute ? '/' : '.');
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const meta = (o: Obj): Obj => (isObj(o.metadata) ? o.metadata : (o.metadata = {}));
const kindOf = (o: Obj) => String(o.kind ?? '');
const nameOf = (o: Obj) => String(meta(o).name ?? '');
const groupOf = (o: Obj) => {
	const api = String(o.apiVersion ?? '');
	return api.includes('/') ? api.slice(0, api.indexOf('/')) : '';
};
const versionOf = (o: Obj) => {
	const api = String(o.apiVersion ?? '');
	return api.slice(api.indexOf('/') + 1);
};
/** kustomize's resource id in messages: `Deployment.v1.apps/my-nginx.[noNs]`. */
const idOf = (o: Obj) => `${kindOf(o)}.${versionOf(o)}${groupOf(o) ? `.${groupOf(o)}` : ''}/${nameOf(o)}.${meta(o).namespace ? String(meta(o).namespace) : '[noNs]'}`;

function clusterScoped(o: Obj): boolean {
	const found = apiResources().find((r) => r.kind === kindOf(o) && r.group === groupOf(o));
	return found ? !found.namespaced : false;
}

/** kustomize's Hash: the ten-character suffix of a generated ConfigMap or Secret. */
export function nameHash(o: Obj): string {
	const encoded: { [key: string]: GoJsonValue } = {};
	const sorted = (m: unknown) => (isObj(m) ? Object.fromEntries(Object.keys(m).sort().map((k) => [k, String(m[k])])) : undefined);
	if (isObj(o.binaryData) && Object.keys(o.binaryData).length) encoded.binaryData = sorted(o.binaryData);
	encoded.data = sorted(o.data) ?? {};
	encoded.kind = kindOf(o);
	encoded.name = nameOf(o);
	if (kindOf(o) === 'Secret') encoded.type = String(o.type ?? 'Opaque');
	const hex = toHex(sha256([...new TextEncoder().encode(goMarshal(encoded))]));
	const spell: Record<string, string> = { '0': 'g', '1': 'h', '3': 'k', a: 'm', e: 't' };
	return [...hex.slice(0, 10)].map((c) => spell[c] ?? c).join('');
}

/** The pod templates (or a Pod's spec) of a workload, where images, labels and references live. */
function podSpecs(o: Obj): Obj[] {
	const spec = isObj(o.spec) ? o.spec : undefined;
	if (!spec) return [];
	if (kindOf(o) === 'Pod') return [spec];
	if (kindOf(o) === 'CronJob') {
		const job = isObj(spec.jobTemplate) && isObj(spec.jobTemplate.spec) ? spec.jobTemplate.spec : undefined;
		return job && isObj(job.template) && isObj(job.template.spec) ? [job.template.spec] : [];
	}
	return isObj(spec.template) && isObj(spec.template.spec) ? [spec.template.spec] : [];
}

function templateMetas(o: Obj): Obj[] {
	const spec = isObj(o.spec) ? o.spec : undefined;
	if (!spec) return [];
	if (kindOf(o) === 'CronJob') {
		const job = isObj(spec.jobTemplate) ? spec.jobTemplate : undefined;
		const inner = job && isObj(job.spec) && isObj(job.spec.template) ? job.spec.template : undefined;
		return [job, inner].filter(isObj).map(meta);
	}
	return isObj(spec.template) ? [meta(spec.template)] : [];
}

function addLabels(o: Obj, labels: Record<string, string>, selectors: boolean, templates: boolean): void {
	const set = (m: Obj, key: string) => (m[key] = { ...(isObj(m[key]) ? m[key] : {}), ...labels });
	set(meta(o), 'labels');
	if (templates || selectors) for (const t of templateMetas(o)) set(t, 'labels');
	if (!selectors || !isObj(o.spec)) return;
	const spec = o.spec;
	if (kindOf(o) === 'Service') set(spec, 'selector');
	else if (['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job'].includes(kindOf(o))) {
		if (!isObj(spec.selector)) spec.selector = {};
		set(spec.selector as Obj, 'matchLabels');
	} else if (kindOf(o) === 'ReplicationController') set(spec, 'selector');
}

/** images: a container image whose name (before tag or digest) is `name` gets the new name, tag or digest. */
function setImages(o: Obj, images: Obj[]): void {
	for (const spec of podSpecs(o)) {
		for (const list of ['containers', 'initContainers']) {
			for (const c of Array.isArray(spec[list]) ? (spec[list] as Obj[]) : []) {
				const image = String(c.image ?? '');
				const at = image.indexOf('@');
				const colon = image.lastIndexOf(':');
				const base = at >= 0 ? image.slice(0, at) : colon > image.lastIndexOf('/') ? image.slice(0, colon) : image;
				const rule = images.find((i) => String(i.name) === base);
				if (!rule) continue;
				const tag = at >= 0 ? image.slice(at) : colon > image.lastIndexOf('/') ? image.slice(colon) : '';
				const name = rule.newName !== undefined ? String(rule.newName) : base;
				c.image = rule.digest !== undefined ? `${name}@${String(rule.digest)}` : rule.newTag !== undefined ? `${name}:${String(rule.newTag)}` : `${name}${tag}`;
			}
		}
	}
}

/** Each place a Pod spec names a ConfigMap or a Secret, with a setter. */
function references(o: Obj, kind: 'ConfigMap' | 'Secret'): Array<{ get: () => string; set: (name: string) => void }> {
	const out: Array<{ get: () => string; set: (name: string) => void }> = [];
	const ref = (holder: unknown, key: string) => {
		if (isObj(holder) && typeof holder[key] === 'string') out.push({ get: () => String(holder[key]), set: (n) => (holder[key] = n) });
	};
	for (const spec of podSpecs(o)) {
		for (const v of Array.isArray(spec.volumes) ? (spec.volumes as Obj[]) : []) {
			if (kind === 'ConfigMap') ref(v.configMap, 'name');
			else ref(v.secret, 'secretName');
			if (isObj(v.projected)) for (const s of Array.isArray(v.projected.sources) ? (v.projected.sources as Obj[]) : []) ref(kind === 'ConfigMap' ? s.configMap : s.secret, 'name');
		}
		for (const list of ['containers', 'initContainers']) {
			for (const c of Array.isArray(spec[list]) ? (spec[list] as Obj[]) : []) {
				for (const e of Array.isArray(c.env) ? (c.env as Obj[]) : []) if (isObj(e.valueFrom)) ref(kind === 'ConfigMap' ? e.valueFrom.configMapKeyRef : e.valueFrom.secretKeyRef, 'name');
				for (const e of Array.isArray(c.envFrom) ? (c.envFrom as Obj[]) : []) ref(kind === 'ConfigMap' ? e.configMapRef : e.secretRef, 'name');
			}
		}
		if (kind === 'Secret') for (const s of Array.isArray(spec.imagePullSecrets) ? (spec.imagePullSecrets as Obj[]) : []) ref(s, 'name');
	}
	return out;
}

/** `K=V` lines of an env file (comments and blank lines skipped). */
function envPairs(text: string, path: string): Array<[string, string]> | string {
	const pairs: Array<[string, string]> = [];
	for (const [i, raw] of text.split('\n').entries()) {
		const line = raw.replace(/\r$/, '').trimStart();
		if (!line || line.startsWith('#')) continue;
		const eq = line.indexOf('=');
		if (eq <= 0) return `line ${i + 1} has an invalid env var "${line}" in ${path}: missing "="`;
		pairs.push([line.slice(0, eq), line.slice(eq + 1)]);
	}
	return pairs;
}

/** A literal `KEY=VALUE`, quotes around the value removed. */
function literalPair(text: string): [string, string] | string {
	const eq = text.indexOf('=');
	if (eq <= 0) return `invalid literal source ${text}, expected key=value`;
	let value = text.slice(eq + 1);
	if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0])) value = value.slice(1, -1);
	return [text.slice(0, eq), value];
}

interface Generated {
	object: Obj;
	hash: boolean;
}

function generate(kind: 'ConfigMap' | 'Secret', spec: Obj, dir: string, files: KustomizeFiles, globalOptions: Obj): Generated | string {
	const data: Record<string, string> = {};
	const put = (key: string, value: string) => {
		if (key in data) return `cannot add key ${key}, another key by that name already exists`;
		data[key] = kind === 'Secret' ? encodeBase64(value) : value;
		return undefined;
	};
	for (const entry of Array.isArray(spec.files) ? spec.files.map(String) : []) {
		const eq = entry.indexOf('=');
		const [key, path] = eq > 0 ? [entry.slice(0, eq), entry.slice(eq + 1)] : [entry.slice(entry.lastIndexOf('/') + 1), entry];
		const text = files.readFile(joinPath(dir, path));
		if (text === undefined) return `evalsymlink failure on '${joinPath(dir, path)}' : lstat ${joinPath(dir, path)}: no such file or directory`;
		const problem = put(key, text);
		if (problem) return problem;
	}
	const envs = [...(Array.isArray(spec.envs) ? spec.envs.map(String) : []), ...(spec.env !== undefined ? [String(spec.env)] : [])];
	for (const path of envs) {
		const text = files.readFile(joinPath(dir, path));
		if (text === undefined) return `evalsymlink failure on '${joinPath(dir, path)}' : lstat ${joinPath(dir, path)}: no such file or directory`;
		const pairs = envPairs(text, path);
		if (typeof pairs === 'string') return pairs;
		for (const [k, v] of pairs) {
			const problem = put(k, v);
			if (problem) return problem;
		}
	}
	for (const literal of Array.isArray(spec.literals) ? spec.literals.map(String) : []) {
		const pair = literalPair(literal);
		if (typeof pair === 'string') return pair;
		const problem = put(...pair);
		if (problem) return problem;
	}
	const options = { ...(isObj(globalOptions) ? globalOptions : {}) } as Obj;
	const own = isObj(spec.options) ? spec.options : {};
	const labels = { ...(isObj(options.labels) ? options.labels : {}), ...(isObj(own.labels) ? own.labels : {}) };
	const annotations = { ...(isObj(options.annotations) ? options.annotations : {}), ...(isObj(own.annotations) ? own.annotations : {}) };
	const metadata: Obj = { name: String(spec.name ?? '') };
	if (spec.namespace !== undefined) metadata.namespace = String(spec.namespace);
	if (Object.keys(labels).length) metadata.labels = labels;
	if (Object.keys(annotations).length) metadata.annotations = annotations;
	const object: Obj = { apiVersion: 'v1', kind, metadata };
	if (Object.keys(data).length || kind === 'ConfigMap') object.data = data;
	if (kind === 'Secret') object.type = String(spec.type ?? 'Opaque');
	if (options.immutable === true || own.immutable === true) object.immutable = true;
	// A true global disableNameSuffixHash wins over a generator's own false (booleans cannot say "unset").
	const hash = !(options.disableNameSuffixHash === true || own.disableNameSuffixHash === true);
	return { object, hash };
}

function loadKustomization(dir: string, files: KustomizeFiles): Obj | string {
	if (files.listDir(dir) === undefined) return `must build at directory: not a valid directory: evalsymlink failure on '${dir}' : lstat ${dir}: no such file or directory`;
	for (const name of KUSTOMIZATION_FILES) {
		const text = files.readFile(joinPath(dir, name));
		if (text === undefined) continue;
		try {
			const parsed = parseYaml(text);
			return isObj(parsed) ? parsed : {};
		} catch (e) {
			return `invalid Kustomization: ${e instanceof Error ? e.message : String(e)}`;
		}
	}
	return `unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '${dir}'`;
}

function findTarget(objects: Obj[], patch: Obj): Obj | string {
	const matches = objects.filter((o) => kindOf(o) === kindOf(patch) && nameOf(o) === nameOf(patch) && (!meta(patch).namespace || meta(o).namespace === meta(patch).namespace));
	if (matches.length === 1) return matches[0];
	const id = idOf(patch);
	return `no resource matches strategic merge patch "${id}": no matches for Id ${id}; failed to find unique target for patch ${id}`;
}

/** A patch target selector: kind, name (a regular expression), namespace, group, version, labelSelector. */
function selects(o: Obj, target: Obj): boolean {
	const exact = (field: unknown, value: string) => field === undefined || new RegExp(`^(?:${String(field)})$`).test(value);
	if (!exact(target.kind, kindOf(o)) || !exact(target.name, nameOf(o)) || !exact(target.namespace, String(meta(o).namespace ?? ''))) return false;
	if (!exact(target.group, groupOf(o)) || !exact(target.version, versionOf(o))) return false;
	if (typeof target.labelSelector === 'string') {
		const labels = isObj(meta(o).labels) ? (meta(o).labels as Record<string, string>) : {};
		for (const term of target.labelSelector.split(',')) {
			const [k, v] = term.split('=');
			if (labels[k.trim()] !== v?.trim()) return false;
		}
	}
	return true;
}

function patchText(entry: Obj | string, dir: string, files: KustomizeFiles): string | { error: string } {
	if (typeof entry === 'string') {
		// patchesStrategicMerge: a file path, or an inline patch.
		if (entry.includes('\n')) return entry;
		const text = files.readFile(joinPath(dir, entry));
		return text ?? { error: `evalsymlink failure on '${joinPath(dir, entry)}' : lstat ${joinPath(dir, entry)}: no such file or directory` };
	}
	if (typeof entry.patch === 'string') return entry.patch;
	if (typeof entry.path === 'string') {
		const text = files.readFile(joinPath(dir, entry.path));
		return text ?? { error: `evalsymlink failure on '${joinPath(dir, entry.path)}' : lstat ${joinPath(dir, entry.path)}: no such file or directory` };
	}
	return { error: 'must specify one of patch and path in patches' };
}

function strategic(objects: Obj[], patch: Obj, target?: Obj): string | undefined {
	const targets = target ? objects.filter((o) => selects(o, target)) : [findTarget(objects, patch)];
	for (const t of targets) {
		if (typeof t === 'string') return t;
		const body = { ...patch };
		delete body.apiVersion;
		delete body.kind;
		if (target && isObj(body.metadata)) {
			body.metadata = { ...body.metadata };
			delete (body.metadata as Obj).name;
		}
		const result = applyPatch(t, JSON.stringify(body), 'application/strategic-merge-patch+json', kindOf(t));
		if ('error' in result) return result.error;
		Object.assign(t, result.value as Obj);
		for (const key of Object.keys(t)) if (!(key in (result.value as Obj))) delete t[key];
	}
	return undefined;
}

function json6902(objects: Obj[], ops: unknown, target: Obj): string | undefined {
	const targets = objects.filter((o) => selects(o, target));
	if (!targets.length) return `unable to find patch target ${JSON.stringify(target.name ?? '')} in ${JSON.stringify(target.kind ?? '')}`;
	for (const t of targets) {
		const result = applyPatch(t, JSON.stringify(ops), 'application/json-patch+json', kindOf(t));
		if ('error' in result) return result.error;
		for (const key of Object.keys(t)) delete t[key];
		Object.assign(t, result.value as Obj);
	}
	return undefined;
}

interface Accumulated {
	objects: Obj[];
	/** The generated objects that get a hash suffix, by identity. */
	hashed: Set<Obj>;
	/** Each object's name before this build renamed it, for the reference updates (kind/original name). */
	original: Map<Obj, string>;
	warnings: string[];
	/** vars, resolved once every name is final. */
	vars?: Obj[];
}

function build(dir: string, files: KustomizeFiles, depth: number, warnings: string[]): Accumulated | string {
	if (depth > 20) return 'too many levels of kustomization directories';
	const k = loadKustomization(dir, files);
	if (typeof k === 'string') return k;
	for (const field of UNSUPPORTED) if (k[field] !== undefined) return `'${field}' is not supported by this sandbox's kustomize`;
	for (const [field, instead] of Object.entries(DEPRECATED)) {
		if (k[field] !== undefined) warnings.push(`# Warning: '${field}' is deprecated. Please use '${instead}' instead. Run 'kustomize edit fix' to update your Kustomization automatically.`);
	}
	const acc: Accumulated = { objects: [], hashed: new Set(), original: new Map(), warnings };
	const resources = [...(Array.isArray(k.resources) ? k.resources : []), ...(Array.isArray(k.bases) ? k.bases : [])].map(String);
	for (const resource of resources) {
		if (/^(https?:|git@|github\.com\/)/.test(resource)) return `remote resources (${resource}) cannot be fetched from this sandbox: it has no network outside the cluster`;
		const path = joinPath(dir, resource);
		if (files.listDir(path) !== undefined) {
			const inner = build(path, files, depth + 1, warnings);
			if (typeof inner === 'string') return inner;
			acc.objects.push(...inner.objects);
			for (const o of inner.hashed) acc.hashed.add(o);
			for (const [o, n] of inner.original) acc.original.set(o, n);
			if (inner.vars) acc.vars = [...(acc.vars ?? []), ...inner.vars];
			continue;
		}
		const text = files.readFile(path);
		if (text === undefined) return `accumulating resources: accumulation err='accumulating resources from '${resource}': evalsymlink failure on '${path}' : lstat ${path}: no such file or directory'`;
		let docs: unknown[];
		try {
			docs = parseYamlDocuments(text);
		} catch (e) {
			return `accumulating resources: ${resource}: ${e instanceof Error ? e.message : String(e)}`;
		}
		for (const doc of docs) {
			if (!isObj(doc)) continue;
			if (kindOf(doc) === 'List' && Array.isArray(doc.items)) acc.objects.push(...doc.items.filter(isObj));
			else acc.objects.push(doc);
		}
	}
	for (const o of acc.objects) if (!acc.original.has(o)) acc.original.set(o, nameOf(o));

	// Generators.
	const generatorOptions = isObj(k.generatorOptions) ? k.generatorOptions : {};
	for (const [field, kind] of [['configMapGenerator', 'ConfigMap'], ['secretGenerator', 'Secret']] as const) {
		for (const spec of Array.isArray(k[field]) ? (k[field] as unknown[]).filter(isObj) : []) {
			if (spec.behavior !== undefined && spec.behavior !== 'create') return `${field} behavior '${String(spec.behavior)}' is not supported by this sandbox's kustomize`;
			const made = generate(kind, spec, dir, files, generatorOptions);
			if (typeof made === 'string') return made;
			acc.objects.push(made.object);
			acc.original.set(made.object, nameOf(made.object));
			if (made.hash) acc.hashed.add(made.object);
		}
	}

	// Transformers, in kustomize's built-in order.
	for (const entry of Array.isArray(k.patchesStrategicMerge) ? k.patchesStrategicMerge : []) {
		const text = patchText(entry as string, dir, files);
		if (typeof text !== 'string') return text.error;
		for (const doc of parseYamlDocuments(text).filter(isObj)) {
			const problem = strategic(acc.objects, doc);
			if (problem) return problem;
		}
	}
	for (const entry of Array.isArray(k.patches) ? k.patches.filter(isObj) : []) {
		const text = patchText(entry, dir, files);
		if (typeof text !== 'string') return text.error;
		const parsed = parseYaml(text);
		const target = isObj(entry.target) ? entry.target : undefined;
		const problem = Array.isArray(parsed)
			? target
				? json6902(acc.objects, parsed, target)
				: 'unable to apply a JSON patch without a target'
			: isObj(parsed)
				? strategic(acc.objects, parsed, target)
				: 'empty patch';
		if (problem) return problem;
	}
	const namespace = k.namespace !== undefined ? String(k.namespace) : undefined;
	if (namespace) for (const o of acc.objects) if (!clusterScoped(o)) meta(o).namespace = namespace;
	const prefix = k.namePrefix !== undefined ? String(k.namePrefix) : '';
	const suffix = k.nameSuffix !== undefined ? String(k.nameSuffix) : '';
	if (prefix || suffix) for (const o of acc.objects) if (kindOf(o) !== 'CustomResourceDefinition' && kindOf(o) !== 'Namespace') meta(o).name = `${prefix}${nameOf(o)}${suffix}`;
	if (isObj(k.commonLabels)) for (const o of acc.objects) addLabels(o, k.commonLabels as Record<string, string>, true, true);
	for (const entry of Array.isArray(k.labels) ? k.labels.filter(isObj) : []) {
		if (!isObj(entry.pairs)) continue;
		for (const o of acc.objects) addLabels(o, entry.pairs as Record<string, string>, entry.includeSelectors === true, entry.includeTemplates === true);
	}
	if (isObj(k.commonAnnotations)) {
		for (const o of acc.objects) {
			const set = (m: Obj) => (m.annotations = { ...(isObj(m.annotations) ? m.annotations : {}), ...(k.commonAnnotations as Obj) });
			set(meta(o));
			for (const t of templateMetas(o)) set(t);
		}
	}
	for (const entry of Array.isArray(k.patchesJson6902) ? k.patchesJson6902.filter(isObj) : []) {
		const text = patchText(entry, dir, files);
		if (typeof text !== 'string') return text.error;
		const ops = parseYaml(text);
		const problem = json6902(acc.objects, ops, isObj(entry.target) ? entry.target : {});
		if (problem) return problem;
	}
	for (const entry of Array.isArray(k.replicas) ? k.replicas.filter(isObj) : []) {
		for (const o of acc.objects) {
			if (acc.original.get(o) !== String(entry.name) && nameOf(o) !== String(entry.name)) continue;
			if (!['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController'].includes(kindOf(o))) continue;
			(isObj(o.spec) ? o.spec : (o.spec = {}) as Obj).replicas = Number(entry.count);
		}
	}
	const images = [...(Array.isArray(k.images) ? k.images : []), ...(Array.isArray(k.imageTags) ? k.imageTags : [])].filter(isObj);
	if (images.length) for (const o of acc.objects) setImages(o, images);
	if (Array.isArray(k.vars)) acc.vars = [...(acc.vars ?? []), ...k.vars.filter(isObj)];
	return acc;
}

/** A field of an object by a dotted path (`metadata.name`, `spec.ports[0].port`'s simple form `spec.ports.0.port`). */
function fieldAt(o: Obj, path: string): unknown {
	let at: unknown = o;
	for (const part of path.replace(/\[(\d+)\]/g, '.$1').split('.')) at = isObj(at) ? at[part] : Array.isArray(at) ? at[Number(part)] : undefined;
	return at;
}

/** vars: each `$(NAME)` in containers' command, args and env values becomes the field the var names, once names are final. */
function resolveVars(acc: Accumulated): string | undefined {
	const values = new Map<string, string>();
	for (const v of acc.vars ?? []) {
		const ref = isObj(v.objref) ? v.objref : {};
		const target = acc.objects.find((o) => kindOf(o) === String(ref.kind) && (acc.original.get(o) === String(ref.name) || nameOf(o) === String(ref.name)));
		if (!target) return `var '${String(v.name)}' cannot be mapped to a field in the set of known resources`;
		const path = isObj(v.fieldref) && typeof v.fieldref.fieldpath === 'string' ? v.fieldref.fieldpath : 'metadata.name';
		values.set(String(v.name), String(fieldAt(target, path) ?? ''));
	}
	if (!values.size) return undefined;
	const expand = (text: unknown) => (typeof text === 'string' ? text.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (m, name: string) => values.get(name) ?? m) : text);
	for (const o of acc.objects) {
		for (const spec of podSpecs(o)) {
			for (const list of ['containers', 'initContainers']) {
				for (const c of Array.isArray(spec[list]) ? (spec[list] as Obj[]) : []) {
					for (const key of ['command', 'args']) if (Array.isArray(c[key])) c[key] = (c[key] as unknown[]).map(expand);
					for (const e of Array.isArray(c.env) ? (c.env as Obj[]) : []) if (typeof e.value === 'string') e.value = expand(e.value);
				}
			}
		}
	}
	return undefined;
}

/** The legacy order kustomize prints kinds in (resid.Gvk's orderFirst and orderLast). */
const ORDER_FIRST = ['Namespace', 'ResourceQuota', 'StorageClass', 'CustomResourceDefinition', 'ServiceAccount', 'PodSecurityPolicy', 'Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding', 'ConfigMap', 'Secret', 'Endpoints', 'Service', 'LimitRange', 'PriorityClass', 'PersistentVolume', 'PersistentVolumeClaim', 'Deployment', 'StatefulSet', 'CronJob', 'PodDisruptionBudget'];
const ORDER_LAST = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];

function legacyRank(o: Obj): number {
	const first = ORDER_FIRST.indexOf(kindOf(o));
	if (first >= 0) return first - ORDER_FIRST.length;
	const last = ORDER_LAST.indexOf(kindOf(o));
	return last >= 0 ? 1 + last : 0;
}

const gvkString = (o: Obj) => `${groupOf(o)}_${versionOf(o)}_${kindOf(o)}`;

/** Builds the kustomization in `dir` (an absolute path). */
export function kustomize(dir: string, files: KustomizeFiles): KustomizeResult {
	const warnings: string[] = [];
	const built = build(joinPath(dir), files, 0, warnings);
	if (typeof built === 'string') return { error: built };
	// The hash suffixes, then every reference to a renamed ConfigMap or Secret.
	const renamed = new Map<string, string>();
	for (const o of built.objects) {
		const before = built.original.get(o) ?? nameOf(o);
		if (built.hashed.has(o)) meta(o).name = `${nameOf(o)}-${nameHash(o)}`;
		if (nameOf(o) !== before) renamed.set(`${kindOf(o)}/${before}`, nameOf(o));
	}
	for (const o of built.objects) {
		for (const kind of ['ConfigMap', 'Secret'] as const) {
			for (const ref of references(o, kind)) {
				const to = renamed.get(`${kind}/${ref.get()}`);
				if (to) ref.set(to);
			}
		}
		if (kindOf(o) === 'StatefulSet' && isObj(o.spec) && typeof o.spec.serviceName === 'string') {
			const to = renamed.get(`Service/${o.spec.serviceName}`);
			if (to) o.spec.serviceName = to;
		}
	}
	const varProblem = resolveVars(built);
	if (varProblem) return { error: varProblem };
	const objects = [...built.objects].sort((a, b) => {
		const rank = legacyRank(a) - legacyRank(b);
		if (rank) return rank;
		const gvk = gvkString(a) < gvkString(b) ? -1 : gvkString(a) > gvkString(b) ? 1 : 0;
		if (gvk) return gvk;
		const ns = String(meta(a).namespace ?? '').localeCompare(String(meta(b).namespace ?? ''));
		return ns || (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0);
	});
	return { objects: objects as unknown as KubeObject[], warnings };
}
