#!/usr/bin/env node
// Turns the upstream Kubernetes OpenAPI document into types.generated.ts, the
// compact field schema that the strict decoder walks.
//
// Run by hand (not part of the build or the tests):
//
//   node sim-core/src/api/schema/generate.mjs \
//     --spec /path/to/swagger.json \
//     --go-api /path/to/k8s.io/api \
//     --go-apimachinery /path/to/k8s.io/apimachinery \
//     --go-apiextensions /path/to/k8s.io/apiextensions-apiserver \
//     --source "kubernetes release-1.36 api/openapi-spec/swagger.json (…)" \
//     --go-source "k8s.io/api v0.36.3, k8s.io/apimachinery v0.36.3"
//
// --spec is the OpenAPI document of a kube-apiserver: the v2 file
// (api/openapi-spec/swagger.json), which is what types.generated.ts was made
// from. The v3 per-group files (api/openapi-spec/v3/*.json; pass --spec
// several times, they are merged) are read the same way once their allOf
// wrappers are undone, but that path has not been exercised yet.
// It is the source of truth for which fields exist, their JSON types and
// which are required.
//
// --go-api / --go-apimachinery are checkouts of k8s.io/api and
// k8s.io/apimachinery at the matching tag. They are optional, and only used
// for one thing the OpenAPI document does not keep: the Go type name of each
// field (`v1.PullPolicy` rather than `string`), because the API server's
// JSON type errors quote it ("... of type v1.PullPolicy"). When they are
// given, the generator also checks that the Go structs and the OpenAPI
// document list the same JSON fields, and fails on any difference.
//
// Only field names, type codes and required flags reach the output; the
// upstream descriptions are dropped on purpose.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------- arguments

const args = { spec: [], out: path.join(here, 'types.generated.ts') };
for (let i = 2; i < process.argv.length; i++) {
	const a = process.argv[i];
	const v = process.argv[++i];
	if (v === undefined) usage(`missing value for ${a}`);
	if (a === '--spec') args.spec.push(v);
	else if (a === '--go-api') args.goApi = v;
	else if (a === '--go-apimachinery') args.goApimachinery = v;
	else if (a === '--go-apiextensions') args.goApiextensions = v;
	else if (a === '--source') args.source = v;
	else if (a === '--go-source') args.goSource = v;
	else if (a === '--out') args.out = v;
	else usage(`unknown argument ${a}`);
}
if (args.spec.length === 0) usage('--spec is required');
if (!args.source) usage('--source is required (where the spec came from: repository, commit or tag)');

function usage(msg) {
	console.error(`generate.mjs: ${msg}\nusage: node generate.mjs --spec swagger.json [--spec …] --source "…" [--go-api dir --go-apimachinery dir --go-apiextensions dir --go-source "…"] [--out file]`);
	process.exit(2);
}

// ------------------------------------------------------------ what we ship

// The kinds the simulator serves, plus the meta types it decodes on their own.
// Everything these reference is pulled in transitively.
const ROOTS = [
	'io.k8s.api.core.v1.Namespace',
	'io.k8s.api.core.v1.Node',
	'io.k8s.api.core.v1.Pod',
	'io.k8s.api.core.v1.Service',
	'io.k8s.api.core.v1.Endpoints',
	'io.k8s.api.core.v1.ConfigMap',
	'io.k8s.api.core.v1.Secret',
	'io.k8s.api.core.v1.Event',
	'io.k8s.api.core.v1.ServiceAccount',
	'io.k8s.api.core.v1.Binding',
	'io.k8s.api.events.v1.Event',
	'io.k8s.api.apps.v1.Deployment',
	'io.k8s.api.apps.v1.ReplicaSet',
	'io.k8s.api.apps.v1.DaemonSet',
	'io.k8s.api.apps.v1.StatefulSet',
	'io.k8s.api.batch.v1.Job',
	'io.k8s.api.batch.v1.CronJob',
	'io.k8s.api.discovery.v1.EndpointSlice',
	'io.k8s.api.coordination.v1.Lease',
	'io.k8s.api.rbac.v1.Role',
	'io.k8s.api.rbac.v1.RoleBinding',
	'io.k8s.api.rbac.v1.ClusterRole',
	'io.k8s.api.rbac.v1.ClusterRoleBinding',
	'io.k8s.api.scheduling.v1.PriorityClass',
	'io.k8s.api.policy.v1.PodDisruptionBudget',
	'io.k8s.api.autoscaling.v1.Scale',
	// Every other built-in kind a default v1.36 kube-apiserver serves (GA group versions).
	'io.k8s.api.core.v1.ComponentStatus',
	'io.k8s.api.core.v1.LimitRange',
	'io.k8s.api.core.v1.PersistentVolumeClaim',
	'io.k8s.api.core.v1.PersistentVolume',
	'io.k8s.api.core.v1.PodTemplate',
	'io.k8s.api.core.v1.ReplicationController',
	'io.k8s.api.core.v1.ResourceQuota',
	'io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration',
	'io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration',
	'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy',
	'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding',
	'io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicy',
	'io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicyBinding',
	'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
	'io.k8s.api.authentication.v1.TokenReview',
	'io.k8s.api.certificates.v1.CertificateSigningRequest',
	'io.k8s.api.flowcontrol.v1.FlowSchema',
	'io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration',
	'io.k8s.api.networking.v1.IngressClass',
	'io.k8s.api.networking.v1.Ingress',
	'io.k8s.api.networking.v1.IPAddress',
	'io.k8s.api.networking.v1.NetworkPolicy',
	'io.k8s.api.networking.v1.ServiceCIDR',
	'io.k8s.api.node.v1.RuntimeClass',
	'io.k8s.api.resource.v1.DeviceClass',
	'io.k8s.api.resource.v1.ResourceClaim',
	'io.k8s.api.resource.v1.ResourceClaimTemplate',
	'io.k8s.api.resource.v1.ResourceSlice',
	'io.k8s.api.storage.v1.CSIDriver',
	'io.k8s.api.storage.v1.CSINode',
	'io.k8s.api.storage.v1.CSIStorageCapacity',
	'io.k8s.api.storage.v1.StorageClass',
	'io.k8s.api.storage.v1.VolumeAttachment',
	'io.k8s.api.storage.v1.VolumeAttributesClass',
	'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
	'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
	'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
	'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference',
	'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry',
	'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
	'io.k8s.apimachinery.pkg.apis.meta.v1.Condition',
	'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
];

// Definitions that decode through a custom UnmarshalJSON upstream and so get
// a scalar code of their own rather than a struct walk.
const SPECIAL = {
	'io.k8s.apimachinery.pkg.api.resource.Quantity': 'q',
	'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 'o',
	'io.k8s.apimachinery.pkg.apis.meta.v1.Time': 't',
	'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': 'u',
	'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': 'x',
	'io.k8s.apimachinery.pkg.runtime.RawExtension': 'x',
	// A CRD's openAPIV3Schema is taken as any JSON object: its field names
	// ($ref, x-kubernetes-*) do not fit the line format, and the empty
	// status-subresource marker has no fields to list.
	'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps': 'x',
	'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceStatus': 'x',
};

// Go name of each scalar code, as reflect prints it. Must match schema.ts.
const SCALAR_GO = {
	s: 'string', i: 'int32', l: 'int64', n: 'float64', b: 'bool', y: '[]uint8',
	q: 'resource.Quantity', o: 'intstr.IntOrString', t: 'v1.Time', u: 'v1.MicroTime', x: 'runtime.RawExtension',
};

// ------------------------------------------------------------- read the spec

const defs = {};
for (const file of args.spec) {
	const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
	const d = doc.definitions ?? doc.components?.schemas;
	if (!d) throw new Error(`${file}: neither definitions (v2) nor components.schemas (v3)`);
	for (const [k, v] of Object.entries(d)) defs[k] ??= v;
}

const refName = (ref) => ref.replace(/^#\/(definitions|components\/schemas)\//, '');
// v3 wraps every $ref in allOf so that it can carry a default; unwrap it.
const unwrap = (p) => (p.allOf?.length === 1 && p.allOf[0].$ref ? { ...p, $ref: p.allOf[0].$ref } : p);

// Collect the definitions reachable from the roots.
const reachable = [];
{
	const seen = new Set();
	const queue = [...ROOTS];
	const visit = (p) => {
		p = unwrap(p);
		if (p.$ref) queue.push(refName(p.$ref));
		if (p.items) visit(p.items);
		if (p.additionalProperties && typeof p.additionalProperties === 'object') visit(p.additionalProperties);
	};
	while (queue.length) {
		const id = queue.shift();
		if (seen.has(id)) continue;
		seen.add(id);
		if (!defs[id]) throw new Error(`definition ${id} is missing from the spec`);
		if (SPECIAL[id]) continue;
		if (!defs[id].properties) throw new Error(`definition ${id} has no properties and no special code`);
		reachable.push(id);
		for (const p of Object.values(defs[id].properties)) visit(p);
	}
}

// Short keys: the Go type name, with a group suffix where two groups share a
// name (core/v1 Event and events.k8s.io/v1 Event). The decoder strips the
// suffix to get the Go struct name back.
const keyOf = {};
{
	const byShort = {};
	for (const id of reachable) (byShort[id.split('.').pop()] ??= []).push(id);
	for (const [short, ids] of Object.entries(byShort)) {
		// core/v1 keeps the bare name; everyone else gets `_<group>`.
		ids.sort((a, b) => Number(!a.startsWith('io.k8s.api.core.')) - Number(!b.startsWith('io.k8s.api.core.')));
		ids.forEach((id, i) => {
			keyOf[id] = i === 0 ? short : `${short}_${id.split('.').slice(-3, -2)[0]}`;
		});
	}
}

// ------------------------------------------------------- read the Go structs

const goPkgDir = (id) => {
	const m = /^io\.k8s\.api\.(\w+)\.(\w+)\.\w+$/.exec(id);
	if (m) return args.goApi && path.join(args.goApi, m[1], m[2]);
	if (id.startsWith('io.k8s.apimachinery.pkg.apis.meta.v1.')) return args.goApimachinery && path.join(args.goApimachinery, 'pkg/apis/meta/v1');
	if (id.startsWith('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.')) return args.goApiextensions && path.join(args.goApiextensions, 'pkg/apis/apiextensions/v1');
	throw new Error(`no Go package known for ${id}`);
};

const goPackages = new Map(); // dir -> { name, imports: alias->pkgName, types: name->expr, structs: name->fields }
function loadGoPackage(dir) {
	if (goPackages.has(dir)) return goPackages.get(dir);
	const pkg = { dir, name: '', imports: {}, importPaths: {}, types: {}, structs: {} };
	goPackages.set(dir, pkg);
	const files = fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.go') && !f.endsWith('_test.go') && !f.startsWith('zz_generated') && !f.startsWith('generated.') && !f.includes('swagger_doc'));
	for (const f of files) {
		const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n');
		let inImports = false;
		let struct = null;
		for (const raw of lines) {
			const line = raw.replace(/\s+\/\/.*$/, '');
			if (/^\s*\/\//.test(raw)) continue;
			const pm = /^package (\w+)/.exec(line);
			if (pm) pkg.name = pm[1];
			if (/^import \($/.test(line)) { inImports = true; continue; }
			if (inImports) {
				if (line === ')') { inImports = false; continue; }
				const im = /^\s*(\w+)?\s*"([^"]+)"/.exec(line);
				if (im) {
					pkg.imports[im[1] ?? im[2].split('/').pop()] = im[2].split('/').pop();
					pkg.importPaths[im[1] ?? im[2].split('/').pop()] = im[2];
				}
				continue;
			}
			const single = /^import (\w+)?\s*"([^"]+)"/.exec(line);
			if (single) pkg.imports[single[1] ?? single[2].split('/').pop()] = single[2].split('/').pop();
			if (struct) {
				if (line === '}') { struct = null; continue; }
				const fm = /^\s+(\w+)\s+(\S+)\s+`([^`]*)`/.exec(line);
				const em = /^\s+(\S+)\s+`([^`]*)`/.exec(line);
				if (fm) struct.push({ go: fm[1], type: fm[2], tag: fm[3] });
				else if (em) struct.push({ go: null, type: em[1], tag: em[2] });
				continue;
			}
			const tm = /^type (\w+) (?:= )?(.+?)\s*$/.exec(line);
			if (tm) {
				if (tm[2] === 'struct {') pkg.structs[tm[1]] = struct = [];
				else if (tm[2] === 'struct{}') pkg.structs[tm[1]] = [];
				else pkg.types[tm[1]] = tm[2];
			}
		}
	}
	return pkg;
}

// Display a Go type expression the way reflect.Type.String() does, from
// inside package `pkg`: local names get the package name, imported ones the
// imported package's name, byte is uint8.
function goString(expr, pkg) {
	if (expr.startsWith('*')) return '*' + goString(expr.slice(1), pkg);
	if (expr.startsWith('[]')) return '[]' + goString(expr.slice(2), pkg);
	const mm = /^map\[([^\]]+)\](.+)$/.exec(expr);
	if (mm) return `map[${goString(mm[1], pkg)}]${goString(mm[2], pkg)}`;
	if (expr === 'byte') return 'uint8';
	if (/^(string|bool|u?int(8|16|32|64)?|float(32|64)|interface\{\}|any)$/.test(expr)) return expr;
	const q = /^(\w+)\.(\w+)$/.exec(expr);
	if (q) return `${pkg.imports[q[1]] ?? q[1]}.${q[2]}`;
	return `${pkg.name}.${expr}`;
}

// Resolve a Go type expression to the package and expression it names,
// following local named types (ResourceList -> map[ResourceName]…).
function goUnderlying(expr, pkg) {
	expr = expr.replace(/^\*/, '');
	for (let guard = 0; guard < 10; guard++) {
		const q = /^(\w+)\.(\w+)$/.exec(expr);
		if (q) {
			// A map or slice type of another k8s.io/api package (corev1.ResourceList): follow it there.
			const from = pkg.importPaths[q[1]];
			const there = from?.startsWith('k8s.io/api/') && args.goApi ? loadGoPackage(path.join(args.goApi, from.slice('k8s.io/api/'.length))) : undefined;
			const next = there?.types[q[2]];
			if (next && /^(\[\]|map\[)/.test(next)) return { expr: next, pkg: there, named: true };
			return { expr, pkg, named: true };
		}
		if (pkg.types[expr] && /^[A-Z]/.test(expr)) {
			const next = pkg.types[expr];
			if (/^(\[\]|map\[)/.test(next)) return { expr: next, pkg, named: true };
			expr = next;
			continue;
		}
		return { expr, pkg, named: false };
	}
	throw new Error(`named type loop at ${expr}`);
}

// JSON name -> Go type expression for a struct, following embedded structs.
function goFields(pkg, structName) {
	const fields = pkg.structs[structName];
	if (!fields) throw new Error(`Go struct ${structName} not found in ${pkg.dir}`);
	const out = {};
	for (const f of fields) {
		const jm = /json:"([^"]*)"/.exec(f.tag);
		const jsonName = jm ? jm[1].split(',')[0] : f.go;
		if (jsonName === '-') continue;
		if (f.go === null && !jsonName) {
			// An embedded struct without a JSON name: its fields are promoted.
			const q = /^\*?(?:(\w+)\.)?(\w+)$/.exec(f.type);
			let target = pkg;
			if (q[1]) {
				const alias = q[1];
				if (alias === 'metav1') target = loadGoPackage(path.join(args.goApimachinery, 'pkg/apis/meta/v1'));
				else throw new Error(`embedded struct from unknown package ${f.type} in ${structName}`);
			}
			Object.assign(out, goFields(target, q[2]));
			continue;
		}
		out[jsonName] = { expr: f.type, pkg };
	}
	return out;
}

// ------------------------------------------------------------ encode types

const overrides = [];
const TYPE_CHARS = /^[A-Za-z0-9_.]+$/;
// Go names in package v1 are written without the `v1.` prefix.
function shortGo(name, where) {
	const short = name.startsWith('v1.') ? name.slice(3) : name;
	if (!TYPE_CHARS.test(short)) throw new Error(`${where}: Go type ${name} cannot be written as an override`);
	return short;
}

// Encode one OpenAPI property schema; `go` is its Go type (or undefined when
// the Go sources were not given). Returns [code, goDisplayName].
function encode(p, go, where) {
	p = unwrap(p);
	let code;
	let defaultGo;
	let inner;
	if (p.$ref) {
		const id = refName(p.$ref);
		if (SPECIAL[id]) code = SPECIAL[id];
		else {
		code = keyOf[id];
		defaultGo = `v1.${code.replace(/_.*/, '')}`;
		if (!id.match(/\.v1\.\w+$/)) throw new Error(`${where}: ${id} is not in a package named v1; teach the decoder its Go package name`);
		}
	} else if (p.type === 'array') {
		const el = go && goUnderlying(go.expr, go.pkg);
		const elGo = el && el.expr.startsWith('[]') ? { expr: el.expr.slice(2), pkg: el.pkg } : undefined;
		if (go && !elGo) throw new Error(`${where}: OpenAPI array but Go type ${go.expr}`);
		inner = encode(p.items, elGo, where + '[]');
		code = `[${inner[0]}]`;
		defaultGo = `[]${inner[1]}`;
	} else if (p.type === 'object' && p.additionalProperties && typeof p.additionalProperties === 'object') {
		const el = go && goUnderlying(go.expr, go.pkg);
		const mm = el && /^map\[([^\]]+)\](.+)$/.exec(el.expr);
		if (go && !mm) throw new Error(`${where}: OpenAPI map but Go type ${go.expr}`);
		inner = encode(p.additionalProperties, mm ? { expr: mm[2], pkg: el.pkg } : undefined, where + '{}');
		// A named key type (map[ResourceName]…) is written `{@ResourceName,T}`.
		const key = mm ? goString(mm[1], el.pkg) : 'string';
		const keyCode = key === 'string' ? '' : `@${shortGo(key, where)},`;
		code = `{${keyCode}${inner[0]}}`;
		defaultGo = `map[${key}]${inner[1]}`;
	} else if (p.type === 'object') {
		code = 'x';
	} else if (p.type === 'string') {
		code = p.format === 'byte' ? 'y' : 's';
	} else if (p.type === 'integer') {
		code = p.format === 'int64' ? 'l' : 'i';
	} else if (p.type === 'number') {
		code = 'n';
	} else if (p.type === 'boolean') {
		code = 'b';
	} else {
		throw new Error(`${where}: unsupported schema ${JSON.stringify(p)}`);
	}
	defaultGo ??= SCALAR_GO[code];
	if (!go) return [code, defaultGo];
	const actual = goString(go.expr.replace(/^\*/, ''), go.pkg);
	if (actual !== defaultGo) {
		overrides.push(`${where} ${actual}`);
		return [`${code}@${shortGo(actual, where)}`, actual];
	}
	return [code, defaultGo];
}

const lines = [];
let fieldCount = 0;
const goChecked = Boolean(args.goApi && args.goApimachinery && args.goApiextensions);
for (const id of reachable) {
	const d = defs[id];
	const required = new Set(d.required ?? []);
	let goMap;
	if (goChecked) {
		const pkg = loadGoPackage(goPkgDir(id));
		goMap = goFields(pkg, id.split('.').pop());
		const a = Object.keys(goMap).sort().join(' ');
		const b = Object.keys(d.properties).sort().join(' ');
		if (a !== b) throw new Error(`${id}: Go fields and OpenAPI properties differ\n  go:      ${a}\n  openapi: ${b}`);
	}
	const fields = Object.keys(d.properties).sort().map((name) => {
		if (!/^[A-Za-z_]\w*$/.test(name)) throw new Error(`${id}.${name}: field name needs escaping`);
		fieldCount++;
		const [code] = encode(d.properties[name], goMap?.[name], `${keyOf[id]}.${name}`);
		return `${name}${required.has(name) ? '!' : ''}${code === 's' ? '' : ':' + code}`;
	});
	lines.push(`${keyOf[id]} ${fields.join(' ')}`);
}

// Order: depth-first from the roots, following fields in order, so that a
// type sits next to the types it uses. gzip finds more repeats that way
// (about 100 bytes fewer than alphabetical order).
{
	const byKey = new Map(lines.map((line) => [line.slice(0, line.indexOf(' ')), line]));
	const ordered = [];
	const visit = (key) => {
		const line = byKey.get(key);
		if (line === undefined) return;
		byKey.delete(key);
		ordered.push(line);
		// References are the capitalised words not preceded by `@` (Go names).
		for (const m of line.slice(line.indexOf(' ')).matchAll(/(^|[^@\w])([A-Z]\w*)/g)) visit(m[2]);
	};
	for (const id of ROOTS) visit(keyOf[id]);
	if (byKey.size) throw new Error(`unreached types: ${[...byKey.keys()].join(' ')}`);
	lines.splice(0, lines.length, ...ordered);
}

// Kinds: apiVersion/Kind, and the type key where it is not the kind itself.
const OUR_GROUPS = new Set([
	'', 'apps', 'batch', 'discovery.k8s.io', 'coordination.k8s.io', 'rbac.authorization.k8s.io', 'scheduling.k8s.io', 'policy', 'autoscaling', 'events.k8s.io',
	'admissionregistration.k8s.io', 'apiextensions.k8s.io', 'authentication.k8s.io', 'certificates.k8s.io', 'flowcontrol.apiserver.k8s.io',
	'networking.k8s.io', 'node.k8s.io', 'resource.k8s.io', 'storage.k8s.io',
]);
const kinds = [];
for (const id of ROOTS) {
	const gvks = (defs[id]['x-kubernetes-group-version-kind'] ?? []).filter((g) => OUR_GROUPS.has(g.group) && g.version === 'v1');
	// DeleteOptions and friends are listed under every group; one is enough.
	const gvk = gvks[0];
	if (!gvk) continue;
	const apiVersion = gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
	kinds.push(`${apiVersion}/${gvk.kind}${keyOf[id] === gvk.kind ? '' : '=' + keyOf[id]}`);
}

// ------------------------------------------------------------------- write

if (lines.some((line) => /[`$\\]/.test(line))) throw new Error('a type line needs escaping in a template literal');
// Wrap provenance text into comment lines of at most ~100 characters.
const wrap = (label, text) => {
	const rows = [];
	let row = `// ${label}:`;
	for (const word of text.split(/\s+/)) {
		if (row.length + word.length + 1 > 100) {
			rows.push(row);
			row = '//  ';
		}
		row += ' ' + word;
	}
	return [...rows, row].join('\n');
};
const out = `/**
 * The simulated API types' field schema as data, written by generate.mjs
 * from the upstream OpenAPI document named below.
 *
 * Mirrors api/openapi-spec/swagger.json.
 */
// GENERATED by generate.mjs — do not edit by hand; run the generator again.
//
${wrap('Source', args.source)}
${wrap('Go type names', goChecked ? args.goSource ?? 'k8s.io/api and k8s.io/apimachinery sources given to the generator' : 'not checked (no Go sources given)')}
// ${reachable.length} types, ${fieldCount} fields.
//
// Only field names, type codes and required flags are kept; see schema.ts for
// the format.

/**
 * One line per API type: \`TypeKey field field …\`, each field written
 * \`name[!][:type]\` (no type means string, \`!\` means required by the
 * OpenAPI document). Parsed lazily by schema.ts. Mirrors the definitions of
 * the upstream OpenAPI document named at the top of this file.
 */
export const TYPE_LINES = \`${lines.join('\n')}\`;

/**
 * The kinds that have a schema here, as \`apiVersion/Kind\` with \`=TypeKey\`
 * where the type key is not the kind (from the upstream
 * \`x-kubernetes-group-version-kind\` extension).
 */
export const KIND_LIST = ${JSON.stringify(kinds.join(' '))};
`;
fs.writeFileSync(args.out, out);
console.error(`wrote ${args.out}: ${reachable.length} types, ${fieldCount} fields, ${overrides.length} Go-name overrides, ${out.length} bytes`);
if (process.env.VERBOSE) console.error(overrides.join('\n'));
