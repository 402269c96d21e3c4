import { LegalPage, type LegalSection } from '#web/components/legal-page.tsx';

const sections: LegalSection[] = [
  {
    title: 'Datos que recopilamos',
    paragraphs: ['Al registrarte te pedimos los siguientes datos personales:'],
    items: ['Nombre completo', 'Correo electrónico', 'País y ciudad'],
  },
  {
    title: 'Para qué los usamos',
    items: [
      'Crear y administrar tu cuenta y tu membresía.',
      'Enviarte avisos sobre tu cuenta y tus pagos.',
      'Enviarte promociones y noticias de CxVet solo si lo aceptas; puedes cambiar esas preferencias en tu perfil.',
    ],
  },
  {
    title: 'Con quién los compartimos',
    paragraphs: [
      'No vendemos tus datos. Los pagos los procesa nuestro proveedor de pagos, que recibe solo lo necesario para cobrar tu suscripción.',
    ],
  },
  {
    title: 'Educación continua',
    paragraphs: [
      'Si ganas créditos de educación continua, guardamos tu nombre, tu cédula profesional, la prueba de que viste los videos (y aprobaste los exámenes, en un diplomado) y tu evaluación del curso o del procedimiento. Los organismos acreditadores pueden pedirlos en una auditoría, por eso los conservamos cuatro años desde cada crédito, con tu nombre, aunque elimines tu cuenta. Pasado ese plazo quitamos tu nombre, tu cédula y tu comentario.',
    ],
  },
  {
    title: 'Tus derechos',
    paragraphs: [
      'Puedes consultar y corregir tus datos desde tu perfil. En Mi CxVet › Privacidad (/perfil/privacidad) descargas en un archivo todo lo que guardamos sobre ti y eliminas tu cuenta cuando quieras; también puedes pedirlo escribiéndonos desde la página de contacto.',
      'Guardamos cuándo y cómo aceptaste o retiraste los correos de promociones y noticias. Cada correo promocional trae un enlace para darte de baja con un clic, sin iniciar sesión.',
    ],
  },
];

export function PrivacyPage() {
  return (
    <LegalPage
      title="Aviso de privacidad"
      intro="En CxVet protegemos tus datos personales. Este aviso explica qué datos recopilamos y cómo los usamos."
      sections={sections}
    />
  );
}
