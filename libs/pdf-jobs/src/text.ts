import { spawn } from 'node:child_process';

/**
 * The text of a PDF, page by page, read back with Mozilla's pdf.js (pdfjs-dist): what tests check a rendered
 * report says. pdf.js ships as ES modules only, so it runs in a child Node process (the PDF on its standard
 * input, the pages as JSON on its output) — callable from Jest's CommonJS and from Playwright alike.
 */
export function pdfText(pdf: Buffer | Uint8Array): Promise<string[]> {
  const script = `
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    const doc = await getDocument({ data: new Uint8Array(Buffer.concat(chunks)), useSystemFonts: false }).promise;
    const pages = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? ' ' : '') : '')).join('').replace(/\\s+/g, ' '));
    }
    process.stdout.write(JSON.stringify(pages));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: __dirname,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (data) => (out += data));
    child.stderr.on('data', (data) => (err += data));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`pdf.js could not read the PDF: ${err.trim()}`));
      try {
        resolve(JSON.parse(out) as string[]);
      } catch (parseError) {
        reject(parseError as Error);
      }
    });
    child.stdin.end(Buffer.from(pdf));
  });
}
