// Every relative link in README.md and docs/ must reach a file, and its #anchor a heading of that file.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function withoutCode(text: string): string {
  return text.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
}

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCode(readFileSync(file, 'utf8')).split('\n')) {
    const match = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!match) continue;
    const base = headingAnchor(match[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
}

function markdownFiles(root: string): string[] {
  const files = [path.join(root, 'README.md')];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const full = path.join(folder, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.md')) files.push(full);
    }
  };
  if (existsSync(path.join(root, 'docs'))) walk(path.join(root, 'docs'));
  return files.filter((file) => existsSync(file));
}

/** The broken relative links of README.md and docs/ under root, as "file: target (why)". */
export function brokenLinks(root: string): string[] {
  const broken: string[] = [];
  for (const file of markdownFiles(root)) {
    const text = withoutCode(readFileSync(file, 'utf8'));
    const targets = [
      ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!),
      ...[...text.matchAll(/^\s*\[[^\]]+\]:\s+<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1]!),
    ];
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [pathPart, anchor] = target.split('#') as [string, string | undefined];
      const destination = pathPart ? path.resolve(path.dirname(file), decodeURIComponent(pathPart)) : file;
      const where = `${path.relative(root, file)}: ${target}`;
      if (!existsSync(destination)) broken.push(`${where} (no such file)`);
      else if (anchor && destination.endsWith('.md') && !anchorsOf(destination).has(anchor))
        broken.push(`${where} (no such heading)`);
    }
  }
  return broken;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(import.meta.dirname, '..');
  const broken = brokenLinks(root);
  for (const line of broken) console.error(`broken link: ${line}`);
  if (broken.length) process.exit(1);
  console.log('every relative link in README.md and docs/ resolves');
}
