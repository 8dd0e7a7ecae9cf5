import type { PDFOptions } from 'puppeteer-core';

/**
 * What every portal PDF's pages carry at the foot, centred in small grey type: `${label} · page n of m`
 * (Chromium fills the pageNumber and totalPages spans). No header. The label is the code's own plain text.
 */
export function pageFooterOptions(label: string): PDFOptions {
  return {
    displayHeaderFooter: true,
    headerTemplate: '<span></span>',
    footerTemplate: `<div style="font-size:7pt;width:100%;text-align:center;color:#777">${label} · page <span class="pageNumber"></span> of <span class="totalPages"></span></div>`,
  };
}

/**
 * A stored picture as a data URL, so the PDF's HTML carries its images and the page loads nothing (the
 * storage's `get` answer, or anything with its bytes and content type).
 */
export const imageDataUrl = (file: { data: Buffer; info: { contentType: string } }) =>
  `data:${file.info.contentType};base64,${file.data.toString('base64')}`;
