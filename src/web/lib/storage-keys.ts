/** Keys this app stores in localStorage (the e2e tests set them too). */
export const storageKeys = {
  cookiesAccepted: 'cxvet-cookies-accepted',
  /** 'Ahorro de datos': play the lowest rendition on this device. */
  dataSaver: 'cxvet-ahorro-de-datos',
} as const;
