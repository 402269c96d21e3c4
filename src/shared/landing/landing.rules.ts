export const textColors = ['Blanco', 'Negro'] as const;
export type TextColor = (typeof textColors)[number];

export const defaultSlideSeconds = 5;

/** Spec 1 §9: autoplay from the first slide's tiempo, else 6 s. */
export const defaultHeroSeconds = 6;
