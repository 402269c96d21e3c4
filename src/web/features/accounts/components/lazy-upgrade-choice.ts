import { preloadableLazy } from '#web/lib/preloadable-lazy.tsx';

/** 'Obtén Premium' on the membership card, for a member who can upgrade: its plans' and checkout's code stays off the others' profile. */
export const UpgradeChoice = preloadableLazy(() =>
  import('./upgrade-choice.tsx').then((module) => module.UpgradeChoice),
);
