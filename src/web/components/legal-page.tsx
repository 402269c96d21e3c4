import { Container, List, Stack, Text, Title } from '@mantine/core';

export type LegalSection = { title: string; paragraphs?: string[]; items?: string[] };

/** A text page of numbered sections (terms, privacy notice). */
export function LegalPage({ title, intro, sections }: { title: string; intro: string; sections: LegalSection[] }) {
  return (
    <Container size="md" py={{ base: 'lg', md: 40 }}>
      <Title order={1} mb="md">
        {title}
      </Title>
      <Text mb="xl">{intro}</Text>
      <Stack gap="xl">
        {sections.map((section, index) => (
          <section key={section.title} aria-labelledby={`seccion-${index}`}>
            <Title order={2} size="h3" id={`seccion-${index}`} mb="sm">
              {index + 1}. {section.title}
            </Title>
            {section.paragraphs?.map((paragraph) => (
              <Text key={paragraph} mb="sm">
                {paragraph}
              </Text>
            ))}
            {section.items && (
              <List spacing="xs">
                {section.items.map((item) => (
                  <List.Item key={item}>{item}</List.Item>
                ))}
              </List>
            )}
          </section>
        ))}
      </Stack>
    </Container>
  );
}
