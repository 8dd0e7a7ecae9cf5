// Login page first load in Chromium: JavaScript bytes transferred (as sent, gzip/br) and Largest
// Contentful Paint, over several cold loads (a fresh browser context each, so nothing is cached).
// Usage: node bench/login-page.mjs [--url http://localhost:8080] [--runs 15]
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { percentile, round } from './stats.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};

export async function measureLoginPage(baseUrl, runs) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const samples = [];
  try {
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      const scripts = new Set();
      let jsBytes = 0;
      cdp.on('Network.responseReceived', (e) => {
        if (e.type === 'Script') scripts.add(e.requestId);
      });
      cdp.on('Network.loadingFinished', (e) => {
        if (scripts.has(e.requestId)) jsBytes += e.encodedDataLength;
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
      samples.push({ jsBytes, lcpMs: lcp, scripts: scripts.size });
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
    lcpMs: { p50: round(percentile(lcp, 50)), p95: round(percentile(lcp, 95)) },
    targets: { jsTransferredKB: 300, lcpMs: 1000 },
    pass: Math.max(...js) <= 300 && percentile(lcp, 95) <= 1000,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureLoginPage(arg('url', 'http://localhost:8080'), Number(arg('runs', '15')));
  console.log(JSON.stringify(result, null, 2));
  writeFileSync(new URL('./results/login-page.json', import.meta.url), JSON.stringify(result, null, 2) + '\n');
}
