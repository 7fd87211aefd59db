import { describe, it, expect } from 'vitest';
import { createCluster } from '../../index.ts';

/**
 * `kubectl get -o go-template=...` as "Connect Applications with Services"
 * uses it, against a booted cluster: a list is given to the template as a
 * List (`.items`), one named object as itself, and failures read as
 * kubectl's.
 */
describe('kubectl get -o go-template', () => {
	const cluster = createCluster({ seed: 7 });
	cluster.exec('kubectl run my-nginx --image=nginx:1.27 --labels=run=my-nginx');
	cluster.exec('kubectl run my-nginx-2 --image=nginx:1.27 --labels=run=my-nginx');
	cluster.exec('kubectl expose pod my-nginx --port=80');
	cluster.exec('kubectl create secret generic db --from-literal=password=s3cr3t');
	cluster.settle({ maxMs: 60_000 });
	const ip = (pod: string) => cluster.exec(`kubectl get pod ${pod} -o jsonpath={.status.podIP}`).stdout;

	it('ranges over the items of a list', () => {
		const r = cluster.exec(`kubectl get pods -l run=my-nginx -o go-template='{{range .items}}{{.status.podIP}}{{"\\n"}}{{end}}'`);
		expect(r).toMatchObject({ stdout: `${ip('my-nginx')}\n${ip('my-nginx-2')}\n`, exitCode: 0 });
		expect(cluster.exec(`kubectl get pods --template='{{len .items}} {{.kind}}'`).stdout).toBe('2 List');
	});

	it('prints one named object’s fields, and decodes secrets with base64decode', () => {
		const clusterIP = cluster.exec('kubectl get svc my-nginx -o jsonpath={.spec.clusterIP}').stdout;
		expect(cluster.exec(`kubectl get svc my-nginx -o go-template='{{.spec.clusterIP}}'`).stdout).toBe(clusterIP);
		expect(cluster.exec(`kubectl get secret db -o go-template='{{.data.password | base64decode}}'`).stdout).toBe('s3cr3t');
		expect(cluster.exec(`kubectl get secret db -o template='{{index .data "password"}}'`).stdout).toBe('czNjcjN0');
	});

	it('reads the template from a file', () => {
		cluster.writeFile('names.tmpl', '{{range .items}}{{.metadata.name}}{{"\\n"}}{{end}}');
		expect(cluster.exec('kubectl get pods -o go-template-file=names.tmpl').stdout).toBe('my-nginx\nmy-nginx-2\n');
		expect(cluster.exec('kubectl get pods -o go-template-file=nope.tmpl').stderr).toBe('error: error reading --template nope.tmpl, open nope.tmpl: no such file or directory\n');
	});

	it('prints <no value> for missing keys unless --allow-missing-template-keys=false', () => {
		expect(cluster.exec(`kubectl get pod my-nginx -o go-template='{{.spec.nope}}'`)).toMatchObject({ stdout: '<no value>', exitCode: 0 });
		const strict = cluster.exec(`kubectl get pod my-nginx -o go-template='{{.spec.nope}}' --allow-missing-template-keys=false`);
		expect(strict.stderr).toBe('error: error executing template "{{.spec.nope}}": template: output:1:2: executing "output" at <.spec.nope>: map has no entry for key "nope"\n');
		expect(strict.exitCode).toBe(1);
	});

	it('refuses a template that does not parse, and dumps the data when one fails', () => {
		expect(cluster.exec(`kubectl get pods -o go-template='{{.x'`).stderr).toBe('error: error parsing template {{.x, template: output:1: unclosed action\n');
		expect(cluster.exec('kubectl get pods -o go-template').stderr).toBe('error: template format specified but no template given\n');
		const failed = cluster.exec(`kubectl get pod my-nginx -o go-template='{{.metadata.name}} {{.metadata.name.x}}'`);
		expect(failed.stdout.split('\n').slice(0, 3)).toEqual([
			`my-nginx Error executing template: template: output:1:21: executing "output" at <.metadata.name.x>: can't evaluate field x in type interface {}. Printing more information for debugging the template:`,
			'\ttemplate was:',
			'\t\t{{.metadata.name}} {{.metadata.name.x}}',
		]);
		expect(failed.stdout).toContain('\traw data was:\n\t\t{"apiVersion":"v1","kind":"Pod","metadata":{');
		expect(failed.stdout).toContain('\tobject given to template engine was:\n\t\tmap[apiVersion:v1 kind:Pod metadata:map[');
		expect(failed.stderr).toBe(`error: error executing template "{{.metadata.name}} {{.metadata.name.x}}": template: output:1:21: executing "output" at <.metadata.name.x>: can't evaluate field x in type interface {}\n`);
	});

	it('prints what a changing command created', () => {
		expect(cluster.exec(`kubectl create deployment web --image=nginx:1.27 --dry-run=client -o go-template='{{.kind}}/{{.metadata.name}} {{(index .spec.template.spec.containers 0).image}}'`).stdout).toBe('Deployment/web nginx:1.27');
	});
});
