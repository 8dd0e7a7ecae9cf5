import { expect, test } from '@playwright/test';

test('unknown paths land on the not-found map, which keeps at most 100 random markers', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  const map = page.getByTestId('not-found-map');
  await expect(map.locator('canvas').first()).toBeVisible();
  // Markers arrive on their own…
  await expect.poll(async () => Number(await map.getAttribute('data-marker-count'))).toBeGreaterThan(2);
  // …and on clicks; well past the cap, the oldest give way.
  const box = (await map.boundingBox())!;
  for (let i = 0; i < 110; i++)
    await page.mouse.click(
      box.x + 20 + ((i * 37) % (box.width - 40)),
      box.y + 20 + ((i * 53) % (box.height - 40)),
    );
  await expect.poll(async () => Number(await map.getAttribute('data-marker-count'))).toBe(100);
  await page.waitForTimeout(1000);
  expect(Number(await map.getAttribute('data-marker-count'))).toBe(100);

  await page.goto('/404');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});
