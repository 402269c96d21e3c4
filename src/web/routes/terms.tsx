import { LegalPage, type LegalSection } from '#web/components/legal-page.tsx';

const sections: LegalSection[] = [
  {
    title: 'Membresías',
    items: [
      'La membresía Básica es gratuita para siempre y da acceso completo a los procedimientos gratuitos y a sus guías en PDF.',
      'La membresía Premium cuesta 9.99 USD al mes o 99.90 USD al año y da acceso a todo el catálogo, las guías en PDF, descuentos y diplomados.',
      'La membresía Premium da acceso durante un año a partir de la fecha de pago en el plan anual, y durante 30 días a partir de cada pago en el plan mensual.',
      'Al cambiar de Premium a Básica conservas los beneficios Premium hasta tu próxima fecha de pago.',
    ],
  },
  {
    title: 'Cuentas',
    items: [
      'Las cuentas son personales e intransferibles.',
      'Una cuenta solo puede ver videos en un dispositivo a la vez; al abrir un procedimiento en otro dispositivo, el primero deja de reproducirlo.',
      'Una cuenta usada de forma indebida (compartida, revendida o con accesos automatizados) será bloqueada.',
    ],
  },
  {
    title: 'Contenido',
    items: [
      'Los videos y las guías son propiedad de CxVet y de sus autores.',
      'Los videos no pueden copiarse, descargarse, grabarse ni distribuirse por ningún medio.',
      'Las guías en PDF son para uso personal de estudio y no pueden redistribuirse.',
    ],
  },
  {
    title: 'Pagos',
    paragraphs: [
      'Los pagos los procesa nuestro proveedor de pagos por suscripción y se renuevan automáticamente hasta que cambies a la membresía Básica. CxVet no guarda los datos de tu tarjeta.',
    ],
  },
  {
    title: 'Cambios a estos términos',
    paragraphs: ['Podemos actualizar estos términos; te avisaremos por correo de cualquier cambio importante.'],
  },
];

export function TermsPage() {
  return (
    <LegalPage
      title="Términos y condiciones"
      intro="Al crear una cuenta en CxVet aceptas los siguientes términos y condiciones de uso."
      sections={sections}
    />
  );
}
