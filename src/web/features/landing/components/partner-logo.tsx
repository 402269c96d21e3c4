import classes from './sponsor-carousel.module.css';

export type LogoLink = { id: string; title: string; logoUrl: string; link: string | null };

export function PartnerLogo({ partner, still = false }: { partner: LogoLink; still?: boolean }) {
  const image = (
    <img
      src={partner.logoUrl}
      alt={partner.title}
      width={300}
      height={150}
      loading="lazy"
      decoding="async"
      className={classes.logo}
    />
  );
  // still: before the carousel replaces it, nothing in it can hold the focus
  if (!partner.link || still) return <div className={classes.logoLink}>{image}</div>;
  return (
    <a
      href={partner.link}
      target="_blank"
      rel="noopener noreferrer"
      className={classes.logoLink}
      title={`${partner.title} (se abre en una pestaña nueva)`}
    >
      {image}
    </a>
  );
}
