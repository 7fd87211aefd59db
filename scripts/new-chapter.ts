/**
 * `npm run new:chapter -- <section>/<slug> "English title" "中文标题"`
 *
 * Scaffolds a chapter that already passes the content tests, so a
 * maintainer starts from green and replaces the placeholders:
 * - content/<section>/<slug>.mdx and content/zh-cn/<section>/<slug>.mdx,
 *   with frontmatter, a Mermaid diagram, a sandbox and a cited footnote;
 * - content/scenarios/<section>/<slug>.yaml, a scenario with one task whose
 *   reveal solves it.
 *
 * `--root <dir>` writes under another content folder (the tests use it).
 * Existing files are never overwritten.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface ChapterRequest {
	section: string;
	slug: string;
	titleEn: string;
	titleZh: string;
}

const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Reads `<section>/<slug> "title" "标题"`; returns an error message for bad input. */
export function parseRequest(args: string[]): ChapterRequest | string {
	const [path, titleEn, titleZh] = args;
	const usage = 'usage: npm run new:chapter -- <section>/<slug> "English title" "中文标题" [--root content]';
	if (!path || !titleEn || !titleZh) return usage;
	const parts = path.split('/');
	if (parts.length !== 2 || !parts.every((p) => ID.test(p))) return `"${path}" is not <section>/<slug> in lowercase words joined by dashes (for example node/kube-proxy)\n${usage}`;
	return { section: parts[0]!, slug: parts[1]!, titleEn, titleZh };
}

function nextOrder(sectionDir: string): number {
	if (!existsSync(sectionDir)) return 1;
	return readdirSync(sectionDir).filter((f) => f.endsWith('.mdx')).length + 1;
}

function yamlString(text: string): string {
	return JSON.stringify(text);
}

function chapterEn(r: ChapterRequest, order: number): string {
	return `---
title: ${yamlString(r.titleEn)}
description: One sentence that tells a reader what this chapter explains; search results and link previews show it.
sidebar:
  order: ${order}
---

import Sandbox from '~/components/Sandbox.astro';

Open with what the reader will understand by the end, in two or three
sentences. Every number carries its upstream source[^source].

## How it works

\`\`\`mermaid
flowchart LR
  accTitle: Replace with the diagram's title
  accDescr: Replace with one or two sentences that say what the diagram shows, for readers who cannot see it.
  user([you]) -->|kubectl| api[kube-apiserver]
  api --> etcd[(etcd)]
\`\`\`

## Try it

<Sandbox scenario="${r.section}/${r.slug}" />

Tell the reader what to type and what to watch for.

[^source]: Name the repository and file, or the release notes, that the number comes from.
`;
}

function chapterZh(r: ChapterRequest, order: number): string {
	return `---
title: ${yamlString(r.titleZh)}
description: 用一句话告诉读者这一章讲什么；搜索结果和链接预览会显示它。
sidebar:
  order: ${order}
---

import Sandbox from '~/components/Sandbox.astro';

开头用两三句话说清楚读完这一章能明白什么。每个数字都要注明上游出处[^source]。

## 它是怎么工作的

\`\`\`mermaid
flowchart LR
  accTitle: 换成图的标题
  accDescr: 换成一两句话，为看不到图的读者说明图里画了什么。
  user([你]) -->|kubectl| api[kube-apiserver]
  api --> etcd[(etcd)]
\`\`\`

## 动手试试

<Sandbox scenario="${r.section}/${r.slug}" />

告诉读者该输入什么、该留意什么。

[^source]: 写明数字出自哪个仓库的哪个文件，或者哪一版发布说明。
`;
}

function scenario(r: ChapterRequest): string {
	return `# The sandbox of ${r.section}/${r.slug}. Format: CONTRIBUTING.md, "Write a scenario".
title:
  en: ${yamlString(r.titleEn)}
  zh-cn: ${yamlString(r.titleZh)}
summary:
  en: One or two sentences on the cluster the reader gets and what to try in it.
  zh-cn: 用一两句话说明读者拿到的是一个什么样的集群、可以在里面试什么。
suggestedCommand: kubectl get pods
setup:
  - run: kubectl create deployment web --image=nginx:1.27 --replicas=2
expect:
  within: 2m
  checks:
    - resource: deployments
      namespace: default
      name: web
      path: '{.status.readyReplicas}'
      equals: "2"
tasks:
  - id: scale-up
    title:
      en: Replace with the task's title
      zh-cn: 换成任务的标题
    goal:
      en: Say what the reader should achieve (here, run 3 replicas of web).
      zh-cn: 说明读者要达成什么。这里：让 web 运行 3 个副本。
    hints:
      - en: kubectl scale changes a Deployment's replicas.
        zh-cn: kubectl scale 可以修改 Deployment 的副本数。
    reveal:
      text:
        en: Explain what happened and why.
        zh-cn: 解释发生了什么，以及为什么。
      commands:
        - kubectl scale deployment web --replicas=3
    checks:
      - resource: deployments
        namespace: default
        name: web
        path: '{.status.readyReplicas}'
        equals: "3"
`;
}

/** Writes the three files; returns their paths. Throws if one exists already. */
export function scaffoldChapter(r: ChapterRequest, root: string): string[] {
	const order = nextOrder(join(root, r.section));
	const files: Array<[string, string]> = [
		[join(root, r.section, `${r.slug}.mdx`), chapterEn(r, order)],
		[join(root, 'zh-cn', r.section, `${r.slug}.mdx`), chapterZh(r, order)],
		[join(root, 'scenarios', r.section, `${r.slug}.yaml`), scenario(r)],
	];
	const taken = files.filter(([f]) => existsSync(f)).map(([f]) => f);
	if (taken.length) throw new Error(`not overwriting ${taken.join(', ')}`);
	for (const [file, text] of files) {
		mkdirSync(dirname(file), { recursive: true });
		writeFileSync(file, text);
	}
	return files.map(([f]) => f);
}

function main(argv: string[]): number {
	const rootAt = argv.indexOf('--root');
	const root = rootAt >= 0 ? argv[rootAt + 1] : join(import.meta.dirname, '..', 'content');
	const args = rootAt >= 0 ? argv.filter((_, i) => i !== rootAt && i !== rootAt + 1) : argv;
	const request = parseRequest(args);
	if (typeof request === 'string' || !root) {
		process.stderr.write(`${typeof request === 'string' ? request : 'error: --root needs a folder'}\n`);
		return 2;
	}
	try {
		for (const file of scaffoldChapter(request, root)) process.stdout.write(`created ${file}\n`);
	} catch (error) {
		process.stderr.write(`error: ${(error as Error).message}\n`);
		return 1;
	}
	const known = ['start', 'control-plane', 'node', 'addons', 'journeys', 'reference'];
	if (!known.includes(request.section)) process.stdout.write(`note: "${request.section}" is a new section: add a group for it in src/navigation/sidebar.ts, with its Chinese label.\n`);
	process.stdout.write('next: replace the placeholders in both languages, then run npm run test:unit.\n');
	return 0;
}

if (import.meta.main) process.exit(main(process.argv.slice(2)));
