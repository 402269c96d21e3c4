/** Keys this app stores in localStorage (the e2e tests set them too). */
export const storageKeys = {
  cookiesAccepted: 'cxvet-cookies-accepted',
} as const;
