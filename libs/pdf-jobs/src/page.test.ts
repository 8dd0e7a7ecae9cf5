import { imageDataUrl, pageFooterOptions } from './page';

describe('pageFooterOptions', () => {
  it('prints the label and the page count at the foot of every page, and no header', () => {
    expect(pageFooterOptions('IRiS risk report')).toEqual({
      displayHeaderFooter: true,
      headerTemplate: '<span></span>',
      footerTemplate:
        '<div style="font-size:7pt;width:100%;text-align:center;color:#777">IRiS risk report · page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
    });
  });
});

describe('imageDataUrl', () => {
  it('writes the bytes as base64 under their content type', () => {
    const file = { data: Buffer.from([0xff, 0xd8, 0xff, 0x00]), info: { contentType: 'image/jpeg' } };
    expect(imageDataUrl(file)).toBe('data:image/jpeg;base64,/9j/AA==');
  });
});
