import { Accordion, Anchor, Container, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '#web/paths.ts';

const faqs: { id: string; question: string; answer: ReactNode }[] = [
  {
    id: 'que-es',
    question: '¿Qué es CxVet?',
    answer:
      'CxVet es una plataforma en español para aprender cirugía veterinaria. Ofrece un catálogo de videos de procedimientos quirúrgicos con guías en PDF, una agenda de eventos, descuentos en cursos y talleres y acceso a diplomados, para estudiantes y para cirujanos con experiencia.',
  },
  {
    id: 'premium',
    question: '¿Qué incluye la membresía Premium?',
    answer:
      'Con la membresía Premium ves completos todos los procedimientos del catálogo, descargas todas las guías en PDF, obtienes descuentos en cursos y talleres y accedes a los diplomados. Cuesta 9.99 USD al mes o 99.90 USD al año.',
  },
  {
    id: 'basica',
    question: '¿Qué incluye la membresía Básica?',
    answer:
      'La membresía Básica es gratuita para siempre. Te permite ver completos los procedimientos gratuitos y descargar sus guías en PDF; de los procedimientos Premium ves una demostración.',
  },
  {
    id: 'cambiar',
    question: '¿Puedo cambiar de membresía?',
    answer: (
      <>
        Sí. Desde{' '}
        <Anchor component={Link} to={paths.profile}>
          tu perfil
        </Anchor>{' '}
        puedes pasar de Básica a Premium eligiendo el plan mensual o anual, o volver de Premium a Básica cuando quieras.
      </>
    ),
  },
  {
    id: 'fecha-pago',
    question: 'Si cambio a Básica, ¿pierdo mi acceso Premium de inmediato?',
    answer:
      'No. Conservas los beneficios Premium hasta tu próxima fecha de pago: 30 días después de tu último cobro en el plan mensual o un año después en el plan anual. Mientras tanto puedes reactivar Premium sin volver a pagar.',
  },
  {
    id: 'video-bloqueado',
    question: '¿Por qué un video Premium aparece bloqueado?',
    answer:
      'Los procedimientos Premium solo se ven completos con una membresía Premium vigente; sin ella se muestra una demostración y el candado en la tarjeta. También verás un aviso si tu cuenta se abre en otro dispositivo: cada cuenta puede ver videos en un dispositivo a la vez, y basta con pulsar «Usar en este dispositivo» para continuar.',
  },
  {
    id: 'pagos',
    question: '¿Quién procesa mis pagos?',
    answer:
      'Los pagos de la membresía Premium los procesa nuestro proveedor de pagos por suscripción. CxVet no recibe ni guarda los datos de tu tarjeta; el cobro se renueva automáticamente cada mes o cada año según tu plan.',
  },
  {
    id: 'contrasena',
    question: 'Olvidé mi contraseña, ¿cómo la recupero?',
    answer: (
      <>
        En{' '}
        <Anchor component={Link} to={paths.passwordRecovery}>
          recuperar contraseña
        </Anchor>{' '}
        escribe tu correo y te enviaremos un enlace para asignar una nueva contraseña de al menos 6 caracteres.
      </>
    ),
  },
  {
    id: 'guias',
    question: '¿Qué son las guías en PDF?',
    answer:
      'Son documentos descargables que acompañan a cada procedimiento: resumen la técnica, el material y los puntos clave para que estudies sin ver el video. Se descargan desde la página del procedimiento.',
  },
];

export function FaqPage() {
  return (
    <Container size="md" py={{ base: 'lg', md: 40 }}>
      <Title order={1} mb="xl">
        Preguntas frecuentes
      </Title>
      <Accordion variant="separated" radius="md" chevronPosition="right">
        {faqs.map((faq) => (
          <Accordion.Item key={faq.id} value={faq.id}>
            <Accordion.Control>
              <Text fw={600} component="span">
                {faq.question}
              </Text>
            </Accordion.Control>
            <Accordion.Panel>
              <Text>{faq.answer}</Text>
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Container>
  );
}
