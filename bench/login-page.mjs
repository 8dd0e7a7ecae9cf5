// Login page first load in Chromium: JavaScript transferred (response bodies as sent gzip-compressed —
// the browser is told to accept gzip only, as the target is stated in gzip; headers are reported apart)
// and Largest Contentful Paint, over several cold loads (a fresh browser context each: nothing cached).
// Usage: node bench/login-page.mjs [--url http://localhost:8080] [--runs 15]
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { percentile, round } from './stats.mjs';
import { option } from './lib/cli.mjs';

export async function measureLoginPage(baseUrl, runs) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const samples = [];
  try {
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({
        viewport: { width: 1366, height: 768 },
        extraHTTPHeaders: { 'Accept-Encoding': 'gzip' },
      });
      const page = await context.newPage();
      const finished = [];
      page.on('requestfinished', (request) => {
        if (request.resourceType() === 'script') finished.push(request.sizes());
      });
      await page.goto(`${baseUrl}/auth/login`, { waitUntil: 'networkidle' });
      await page.waitForSelector('input[name="email"]');
      const lcp = await page.evaluate(
        () =>
          new Promise((resolve) => {
            new PerformanceObserver((list) => {
              const entries = list.getEntries();
              resolve(entries[entries.length - 1].startTime);
            }).observe({ type: 'largest-contentful-paint', buffered: true });
            setTimeout(() => resolve(NaN), 3000);
          }),
      );
      const sizes = await Promise.all(finished);
      const jsBytes = sizes.reduce((sum, s) => sum + s.responseBodySize, 0);
      const headerBytes = sizes.reduce((sum, s) => sum + s.responseHeadersSize, 0);
      samples.push({ jsBytes, headerBytes, lcpMs: lcp, scripts: sizes.length });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  const js = samples.map((s) => s.jsBytes / 1024);
  const lcp = samples.map((s) => s.lcpMs).filter((v) => !Number.isNaN(v));
  return {
    runs,
    jsTransferredKB: { p50: round(percentile(js, 50)), max: round(Math.max(...js)) },
    scriptFiles: samples[0]?.scripts,
    scriptHeadersKB: round(samples[0]?.headerBytes / 1024),
    lcpMs: { p50: round(percentile(lcp, 50)), p95: round(percentile(lcp, 95)) },
    targets: { jsTransferredKB: 300, lcpMs: 1000 },
    pass: Math.max(...js) <= 300 && percentile(lcp, 95) <= 1000,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureLoginPage(option('url', 'http://localhost:8080'), Number(option('runs', '15')));
  console.log(JSON.stringify(result, null, 2));
  writeFileSync(
    new URL('./results/login-page.json', import.meta.url),
    JSON.stringify(result, null, 2) + '\n',
  );
}
