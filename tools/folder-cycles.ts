/**
 * `npm run lint`: no cycle between folders. dependency-cruiser's no-circular rule sees
 * modules, and two folders can each import the other through modules that form no cycle:
 * the folders then no longer stand for layers. A folder is the directory a module is in
 * (core/ and core/client/ are two); every import from one folder to another is an edge,
 * and a cycle is reported with its folders and one import on each edge.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The product's folders whose folders must form a layered graph. */
const CHECKED = ["core", "edge", "scripts", "lookup-page"];

export interface ModuleImport {
  from: string;
  to: string;
}

/** A cycle of folders: `imports[i]` is one import from `folders[i]` to the next folder, the last to the first. */
export interface FolderCycle {
  folders: string[];
  imports: ModuleImport[];
}

/** The folder cycles among `imports`: the shortest cycle through each folder in one. */
export function folderCycles(imports: Iterable<ModuleImport>): FolderCycle[] {
  const edges = folderEdges(imports);
  const cycles = new Map<string, FolderCycle>();
  for (const component of stronglyConnected(edges)) {
    if (component.length < 2) continue;
    for (const folder of component) {
      const folders = shortestCycle(edges, folder);
      const start = folders.indexOf([...folders].sort()[0]!);
      const rotated = [...folders.slice(start), ...folders.slice(0, start)];
      const imports = rotated.map((from, i) => edges.get(from)!.get(rotated[(i + 1) % rotated.length]!)!);
      cycles.set(rotated.join(" → "), { folders: rotated, imports });
    }
  }
  return [...cycles.values()];
}

/** Folder → folder it imports → the first import between them, in module order. */
function folderEdges(imports: Iterable<ModuleImport>): Map<string, Map<string, ModuleImport>> {
  const edges = new Map<string, Map<string, ModuleImport>>();
  const sorted = [...imports].sort((a, b) => (a.from + a.to < b.from + b.to ? -1 : 1));
  for (const anImport of sorted) {
    const [from, to] = [dirname(anImport.from), dirname(anImport.to)];
    for (const folder of [from, to]) if (!edges.has(folder)) edges.set(folder, new Map());
    const out = edges.get(from)!;
    if (from !== to && !out.has(to)) out.set(to, anImport);
  }
  return edges;
}

/** Tarjan's strongly connected components, without recursion. */
function stronglyConnected(edges: Map<string, Map<string, ModuleImport>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  for (const root of [...edges.keys()].sort()) {
    if (index.has(root)) continue;
    const work: [string, string[]][] = [[root, [...(edges.get(root)?.keys() ?? [])]]];
    index.set(root, index.size);
    low.set(root, index.get(root)!);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const [node, next] = work.at(-1)!;
      const target = next.shift();
      if (target !== undefined) {
        if (!index.has(target)) {
          index.set(target, index.size);
          low.set(target, index.get(target)!);
          stack.push(target);
          onStack.add(target);
          work.push([target, [...(edges.get(target)?.keys() ?? [])]]);
        } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work.at(-1)?.[0];
      if (parent !== undefined) low.set(parent, Math.min(low.get(parent)!, low.get(node)!));
      if (low.get(node) !== index.get(node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component.sort());
    }
  }
  return components;
}

/** The folders of a shortest cycle from `start` back to it (breadth first), `start` first. */
function shortestCycle(edges: Map<string, Map<string, ModuleImport>>, start: string): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const next of [...(edges.get(node)?.keys() ?? [])].sort()) {
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return path;
      }
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, node);
      queue.push(next);
    }
  }
  return [start];
}

/** Every import between the checked folders' modules, as dependency-cruiser resolves them (.dependency-cruiser.cjs). */
function projectImports(root: string): ModuleImport[] {
  const folders = CHECKED.filter((folder) => existsSync(join(root, folder)));
  const cruised = spawnSync(join(root, "node_modules", ".bin", "depcruise"), [...folders, "--output-type", "json"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (cruised.stdout === "") throw new Error(`depcruise failed: ${cruised.stderr}`);
  // It exits with the count of its own rules' errors, which the lint's depcruise step reports: the graph is what counts.
  const result = JSON.parse(cruised.stdout) as { modules: { source: string; dependencies: { resolved: string }[] }[] };
  const inChecked = (path: string) => CHECKED.some((folder) => path.startsWith(`${folder}/`));
  return result.modules
    .filter((module) => inChecked(module.source))
    .flatMap((module) =>
      module.dependencies.filter((d) => inChecked(d.resolved)).map((d) => ({ from: module.source, to: d.resolved })),
    );
}

function report(cycles: FolderCycle[]): string[] {
  return cycles.flatMap(({ folders, imports }) => [
    `folder cycle: ${[...folders, folders[0]].join(" → ")}`,
    ...imports.map(({ from, to }) => `  ${from} → ${to}`),
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const lines = report(folderCycles(projectImports(fileURLToPath(new URL("..", import.meta.url)))));
  for (const line of lines) console.error(line);
  if (lines.length > 0) process.exit(1);
}
