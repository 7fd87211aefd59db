/**
 * Starting points for the YAML editor: small manifests that work as they
 * are (the last one on purpose never schedules, to show the "why" table).
 * The catalogue key names each one in the reader's language.
 */
export interface YamlTemplate {
	id: string;
	/** `sandbox.yaml.template.*` key. */
	key: string;
	yaml: string;
}

export const YAML_TEMPLATES: readonly YamlTemplate[] = [
	{
		id: 'pod',
		key: 'sandbox.yaml.template.pod',
		yaml: `apiVersion: v1
kind: Pod
metadata:
  name: hello
  labels:
    app: hello
spec:
  containers:
  - name: web
    image: nginx:1.27
    ports:
    - containerPort: 80
    resources:
      requests:
        cpu: 100m
        memory: 64Mi
`,
	},
	{
		id: 'deployment',
		key: 'sandbox.yaml.template.deployment',
		yaml: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        resources:
          requests:
            cpu: 100m
            memory: 64Mi
`,
	},
	{
		id: 'service',
		key: 'sandbox.yaml.template.service',
		yaml: `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - port: 80
    targetPort: 80
`,
	},
	{
		id: 'pending',
		key: 'sandbox.yaml.template.pending',
		yaml: `apiVersion: v1
kind: Pod
metadata:
  name: picky
spec:
  nodeSelector:
    disktype: ssd
  containers:
  - name: web
    image: nginx:1.27
`,
	},
];
