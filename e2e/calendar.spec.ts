import { readFile } from 'node:fs/promises';
import ICAL from 'ical.js';
import { expect, test } from './fixtures.ts';

test("'Añadir al calendario' downloads the event's .ics, which a calendar reads with its start on the site's clock", async ({
  page,
}, testInfo) => {
  await page.goto('/eventos');
  const congress = page.getByRole('article', { name: 'Congreso Internacional de Cirugía Veterinaria' });
  await expect(congress).toBeVisible();
  await congress.screenshot({ path: testInfo.outputPath('evento-1280.png') });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    congress.getByRole('link', { name: 'Añadir al calendario' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^evento-[0-9a-f-]{36}\.ics$/);
  const text = await readFile((await download.path())!, 'utf8');
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
  expect(event.summary).toBe('Congreso Internacional de Cirugía Veterinaria');
  expect(event.location).toBe('World Trade Center, Ciudad de México');
  expect(event.startDate.zone?.tzid).toBe('America/Mexico_City');
  // the demo congress starts at 10:00 in Mexico City
  expect(event.startDate.hour).toBe(10);
  expect(event.endDate.compare(event.startDate)).toBe(1);
  // an event with only a display text offers no calendar file
  const workshop = page.getByRole('article', { name: 'Taller práctico de osteosíntesis' });
  await expect(workshop.getByRole('link', { name: 'Ver programa' })).toBeVisible();
  await expect(workshop.getByRole('link', { name: 'Añadir al calendario' })).toHaveCount(0);
  await page.setViewportSize({ width: 360, height: 800 });
  await congress.getByRole('link', { name: 'Añadir al calendario' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('eventos-360.png') });
});
