/** What a console upload may contain: checked by name and by the file's first bytes. */
import { stripAccents } from '../text.ts';
export const uploadKinds = ['image', 'video', 'pdf', 'captions'] as const;
export type UploadKind = (typeof uploadKinds)[number];

const megabyte = 1024 * 1024;

/** Largest file per kind; bigger uploads are refused with 413 before they reach the disk. */
export const uploadSizeLimits: Record<UploadKind, number> = {
  image: 10 * megabyte,
  pdf: 50 * megabyte,
  video: 5 * 1024 * megabyte,
  // an hour of dense subtitles is about 100 KB
  captions: megabyte,
};

/** Spec 2 §5: images jpeg/jpg/png, videos ogg/mp4/webm, documents pdf (no SVG). */
export const uploadFormats: Record<UploadKind, { extensions: readonly string[]; mimeTypes: readonly string[] }> = {
  image: { extensions: ['jpeg', 'jpg', 'png'], mimeTypes: ['image/jpeg', 'image/png'] },
  video: { extensions: ['ogg', 'ogv', 'mp4', 'webm'], mimeTypes: ['video/ogg', 'video/mp4', 'video/webm'] },
  pdf: { extensions: ['pdf'], mimeTypes: ['application/pdf'] },
  // plain text has no magic bytes: a WebVTT parser checks the content instead (server)
  captions: { extensions: ['vtt'], mimeTypes: ['text/vtt'] },
};

/** The `accept` attribute of a file input for these kinds. */
export function acceptAttribute(kinds: readonly UploadKind[]): string {
  return kinds
    .flatMap((kind) => [...uploadFormats[kind].mimeTypes, ...uploadFormats[kind].extensions.map((ext) => `.${ext}`)])
    .join(',');
}

/** Each form field that takes a file: its storage folder (spec 2 §7) and accepted kinds. */
export const uploadTargets = {
  'procedure-preview': { folder: 'procedures', perRecord: true, kinds: ['image'] },
  'procedure-demo': { folder: 'procedures', perRecord: true, kinds: ['video'] },
  'procedure-guide': { folder: 'procedures', perRecord: true, kinds: ['pdf'] },
  'procedure-video': { folder: 'procedures', perRecord: true, kinds: ['video'] },
  'procedure-captions': { folder: 'procedures', perRecord: true, kinds: ['captions'] },
  'event-image': { folder: 'events', perRecord: false, kinds: ['image'] },
  'event-pdf': { folder: 'events', perRecord: false, kinds: ['pdf'] },
  'event-program': { folder: 'events', perRecord: false, kinds: ['pdf'] },
  'organization-logo': { folder: 'organizations', perRecord: true, kinds: ['image'] },
  'organization-promo': { folder: 'organizations', perRecord: true, kinds: ['image'] },
  'landing-media': { folder: 'landing_page', perRecord: false, kinds: ['image', 'video'] },
  'newsletter-image': { folder: 'newsletter', perRecord: false, kinds: ['image'] },
  'bulk-mail-image': { folder: 'bulk_email_imgs', perRecord: false, kinds: ['image'] },
  'classroom-preview-image': { folder: 'aulas', perRecord: true, kinds: ['image'] },
  'classroom-preview-pdf': { folder: 'aulas', perRecord: true, kinds: ['pdf'] },
  // spec 3 §7: diplomados/{id}/Preview-Image, Preview-pdf, Certificate; a diploma's own video files under videos/ and files/
  'diploma-preview-image': { folder: 'diplomados', perRecord: true, subfolder: 'Preview-Image', kinds: ['image'] },
  'diploma-preview-pdf': { folder: 'diplomados', perRecord: true, subfolder: 'Preview-pdf', kinds: ['pdf'] },
  'diploma-certificate': { folder: 'diplomados', perRecord: true, subfolder: 'Certificate', kinds: ['image'] },
  'diploma-video': { folder: 'diplomados', perRecord: true, subfolder: 'videos', kinds: ['video'] },
  'diploma-video-pdf': { folder: 'diplomados', perRecord: true, subfolder: 'files', kinds: ['pdf'] },
  'diploma-video-image': { folder: 'diplomados', perRecord: true, subfolder: 'files', kinds: ['image'] },
} as const satisfies Record<
  string,
  { folder: string; perRecord: boolean; subfolder?: string; kinds: readonly UploadKind[] }
>;
export type UploadTarget = keyof typeof uploadTargets;
export const uploadTargetNames = Object.keys(uploadTargets) as [UploadTarget, ...UploadTarget[]];

/** The storage folder of a target: procedures/{id} and organizations/{id} carry the record id. */
export function uploadFolder(target: UploadTarget, recordId?: string): string {
  const rule: { folder: string; perRecord: boolean; subfolder?: string } = uploadTargets[target];
  const base = rule.perRecord ? `${rule.folder}/${recordId}` : rule.folder;
  return rule.subfolder ? `${base}/${rule.subfolder}` : base;
}

/** The client's file name reduced to a safe suffix: no path parts, accents or odd characters. */
export function safeFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  const cleaned = stripAccents(base)
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[._]+/, '')
    .slice(-80);
  return cleaned || 'archivo';
}

export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The kind whose extensions include this file name's, among those allowed. */
export function kindByName(name: string, allowed: readonly UploadKind[]): UploadKind | null {
  const extension = fileExtension(name);
  return allowed.find((kind) => uploadFormats[kind].extensions.includes(extension)) ?? null;
}

/** The original name shown back to the admin: the key without its folder and timestamp. */
export function displayFileName(key: string): string {
  const last = key.split('/').pop() ?? key;
  return last.replace(/^\d+_/, '');
}
