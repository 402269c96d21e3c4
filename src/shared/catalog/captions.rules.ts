/** Subtitle languages a procedure's video may carry; Spanish is required before any other. */
export const captionLanguages = ['es', 'en', 'pt'] as const;
export type CaptionLanguage = (typeof captionLanguages)[number];

/** Which of a procedure's two videos a caption file belongs to: it follows that video's access rule. */
export const captionVideos = ['demo', 'full'] as const;
export type CaptionVideo = (typeof captionVideos)[number];

/** The label the player's captions menu shows, each in its own language. */
export const captionLabels: Record<CaptionLanguage, string> = {
  es: 'Español',
  en: 'English',
  pt: 'Português',
};
