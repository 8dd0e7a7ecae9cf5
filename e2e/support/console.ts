import { expect, type Page } from '@playwright/test';

/** The request console (/requests/admin) showing one request, filtered by its GRiP reference: its row. */
export async function openConsoleAt(page: Page, grip: string) {
  await page.goto('/requests/admin');
  await page.getByRole('textbox', { name: 'GRiP reference', exact: true }).fill(grip);
  const row = page.getByRole('row').filter({ hasText: grip });
  await expect(row).toHaveCount(1);
  return row;
}
