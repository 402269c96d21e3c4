export const textColors = ['Blanco', 'Negro'] as const;
export type TextColor = (typeof textColors)[number];

export const defaultSlideSeconds = 5;
