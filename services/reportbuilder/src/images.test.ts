import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import sharp from 'sharp';
import { REPORTBUILDER_API } from '@portal/contracts';
import { createStorage } from '@portal/server-kit';
import { imageKey, imageUrl, sectionImageName, propertyImageName, buildingImageName } from './images/keys';
import { IMAGE_TEXT } from './images/process';
import { REPORT_TEXT } from './store';
import { reportBuilderTestApp, USERS } from './testing';

// The report builder's images on a throwaway seeded database, the real Redis and a temporary local-disk
// storage: paste (PNG only), crop (spec 02 §5) into the PNG and its compressed JPEG, upload with thumbnails,
// rearrange, exists, copy, delete, serving (404, traversal refused) and roles.

jest.setTimeout(60_000);

const rb = reportBuilderTestApp('reportbuilder-images-test');
const storageDir = join(rb.varDir, 'storage');
const storage = createStorage({ driver: 'local', dir: storageDir });
const { owner: OWNER, other: OTHER, operator: OPERATOR } = USERS;

async function call(
  email: string | null,
  method: InjectOptions['method'],
  url: string,
  payload?: InjectOptions['payload'],
  headers?: Record<string, string>,
) {
  return rb.app.inject({ method, url, payload, headers, cookies: await rb.cookiesOf(email) });
}

async function request(status = 'Ready for QS'): Promise<string> {
  const [row] = (await rb.db.dataSource.query(
    `INSERT INTO requests.requests (request_type, status, user_id, user_name, user_email, group_id, group_name,
                                    address, lat, lng, point)
     SELECT 'SAVI', $2, u.id, u.name, u.email, u.group_id, g.name, '12 Dorp Street, Stellenbosch',
            -33.9376, 18.8603, ST_SetSRID(ST_MakePoint(18.8603, -33.9376), 4326)
       FROM identity.users u LEFT JOIN identity.groups g ON g.id = u.group_id
      WHERE u.email = $1
     RETURNING id`,
    [OWNER, status],
  )) as { id: string }[];
  return row!.id;
}

const picture = (width: number, height: number, format: 'png' | 'jpeg' = 'png') => {
  const image = sharp({ create: { width, height, channels: 3, background: '#4a7' } });
  return (format === 'png' ? image.png() : image.jpeg()).toBuffer();
};

const paste = async (who: string | null, id: string, data: Buffer, type = 'property') =>
  call(who, 'POST', REPORTBUILDER_API.image, { requestID: id, base64Data: data.toString('base64'), type });

function multipart(requestID: string, content: Buffer, filename = 'photo.jpg') {
  const boundary = '----portal-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="requestID"\r\n\r\n${requestID}\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        'Content-Type: image/jpeg\r\n\r\n',
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const upload = (who: string, id: string, content: Buffer) => {
  const { payload, headers } = multipart(id, content);
  return call(who, 'POST', REPORTBUILDER_API.upload, payload, headers);
};

const filesOf = (id: string) => {
  const dir = join(storageDir, 'objects', 'reportbuilder', 'uploads', id);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};

describe('paste and crop', () => {
  it('crops a pasted PNG into the cropped PNG and its compressed JPEG (both path spellings)', async () => {
    const id = await request();
    const pasted = await paste(OPERATOR, id, await picture(2000, 1200), 'section/3');
    expect(pasted.statusCode).toBe(200);
    expect(pasted.json().image).toMatchObject({
      name: sectionImageName('3', 'base'),
      width: 2000,
      height: 1200,
    });

    const crop = await call(OPERATOR, 'POST', `${REPORTBUILDER_API.imageCrop}/`, {
      requestID: id,
      image: imageUrl(id, sectionImageName('3', 'base')),
      x: 100,
      y: 50,
      width: 1600,
      height: 800,
    });
    expect(crop.statusCode).toBe(200);
    expect(crop.json().image.url).toBe(
      `/reportbuilder/assets/uploads/${id}/section-3-base-image-cropped.png`,
    );
    expect(crop.json().compressed.url).toBe(
      `/reportbuilder/assets/uploads/${id}/section-3-base-image-cropped.compressed.jpg`,
    );
    const png = await storage.get(imageKey(id, sectionImageName('3', 'cropped')));
    const jpeg = await storage.get(imageKey(id, sectionImageName('3', 'compressed')));
    expect(await sharp(png!.data).metadata()).toMatchObject({ format: 'png', width: 1600, height: 800 });
    expect(await sharp(jpeg!.data).metadata()).toMatchObject({ format: 'jpeg', width: 1280, height: 640 });
    expect(jpeg!.info.contentType).toBe('image/jpeg');

    const exists = (type: string, a: string, b = '-', c = '-') =>
      call(OWNER, 'GET', REPORTBUILDER_API.imageExists(id, type, a, b, c));
    expect((await exists('section', '3')).json()).toBe(true);
    expect((await exists('section', '4')).json()).toBe(false);
    expect((await exists('property', '-')).json()).toBe(false);
    expect((await exists('building', '3', '1')).json()).toBe(false);
  });

  it('refuses a crop box below 640 × 400, of the wrong aspect or outside the image, writing nothing', async () => {
    const id = await request();
    await paste(OPERATOR, id, await picture(1000, 600));
    const base = propertyImageName('base');
    for (const box of [
      { x: 0, y: 0, width: 600, height: 300 },
      { x: 0, y: 0, width: 800, height: 500 },
      { x: 300, y: 0, width: 800, height: 400 },
    ]) {
      const answer = await call(OPERATOR, 'POST', REPORTBUILDER_API.imageCrop, {
        requestID: id,
        image: base,
        ...box,
      });
      expect([box, answer.statusCode]).toEqual([box, 400]);
      expect(answer.json().message).toBe(IMAGE_TEXT.badCrop({ width: 1000, height: 600 }));
    }
    expect(filesOf(id)).toEqual([base]);
    const ok = await call(OPERATOR, 'POST', REPORTBUILDER_API.imageCrop, {
      requestID: id,
      image: base,
      x: 0,
      y: 0,
      width: 800,
      height: 400,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().compressed).toMatchObject({ width: 800, height: 400 });
  });

  it('pastes PNG only: a JPEG or garbage is a 400 and nothing is written', async () => {
    const id = await request();
    const jpeg = await paste(OPERATOR, id, await picture(900, 500, 'jpeg'));
    expect(jpeg.statusCode).toBe(400);
    expect(jpeg.json().message).toBe(IMAGE_TEXT.notPng);
    const dataUrl = await call(OPERATOR, 'POST', REPORTBUILDER_API.image, {
      requestID: id,
      base64Data: `data:image/jpeg;base64,${(await picture(900, 500, 'jpeg')).toString('base64')}`,
      type: 'property',
    });
    expect(dataUrl.statusCode).toBe(400);
    expect((await paste(OPERATOR, id, Buffer.from('not a picture at all'))).statusCode).toBe(400);
    expect((await paste(OPERATOR, id, await picture(900, 500), '../etc')).statusCode).toBe(400);
    expect(filesOf(id)).toEqual([]);
    const asDataUrl = await call(OPERATOR, 'POST', `${REPORTBUILDER_API.image}/`, {
      requestID: id,
      base64Data: `data:image/png;base64,${(await picture(900, 500)).toString('base64')}`,
      type: 'building/2/7',
    });
    expect(asDataUrl.statusCode).toBe(200);
    expect(filesOf(id)).toEqual([buildingImageName('2', '7', 'base')]);
  });
});

describe('uploads', () => {
  it('re-encodes an upload under a server-made name with a thumbnail; garbage is a 400 with nothing written', async () => {
    const id = await request();
    const garbage = await upload(OPERATOR, id, Buffer.from('GIF89a not really an image'));
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().message).toBe(IMAGE_TEXT.notImage);
    expect(filesOf(id)).toEqual([]);

    const names: string[] = [];
    for (const size of [
      [1200, 900],
      [900, 600],
      [640, 480],
    ] as const) {
      const answer = await upload(OPERATOR, id, await picture(size[0], size[1], 'jpeg'));
      expect(answer.statusCode).toBe(200);
      expect(answer.json().image.name).toMatch(/^upload-[A-Za-z0-9_-]+\.jpg$/);
      names.push(answer.json().image.name);
    }
    const thumbs = await call(OWNER, 'GET', REPORTBUILDER_API.thumbnails(id));
    expect(thumbs.statusCode).toBe(200);
    expect(thumbs.json().images.map((i: { name: string }) => i.name)).toEqual(names);
    const thumb = await call(OWNER, 'GET', thumbs.json().images[0].thumbnail);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({
      format: 'jpeg',
      width: 200,
      height: 150,
    });

    const moved = await call(OPERATOR, 'POST', REPORTBUILDER_API.imageRearrange, {
      requestID: id,
      sourceIndex: 0,
      destinationIndex: 2,
    });
    expect(moved.statusCode).toBe(200);
    const order = [names[1], names[2], names[0]];
    expect(moved.json().images.map((i: { name: string }) => i.name)).toEqual(order);
    const again = await call(OWNER, 'GET', `${REPORTBUILDER_API.thumbnails(id)}/`);
    expect(again.json().images.map((i: { name: string }) => i.name)).toEqual(order);
    const outside = await call(OPERATOR, 'POST', REPORTBUILDER_API.imageRearrange, {
      requestID: id,
      sourceIndex: 3,
      destinationIndex: 0,
    });
    expect(outside.statusCode).toBe(400);

    // An upload picked and cropped for the property.
    const crop = await call(OPERATOR, 'POST', REPORTBUILDER_API.imageCrop, {
      requestID: id,
      image: names[0],
      type: 'property',
      x: 0,
      y: 0,
      width: 1200,
      height: 600,
    });
    expect(crop.statusCode).toBe(200);
    expect(crop.json().image.name).toBe(propertyImageName('cropped'));
  });
});

describe('copy, delete and serving', () => {
  it('copies the section image to a building, deletes it, serves with ETag and refuses path tricks', async () => {
    const id = await request();
    await paste(OPERATOR, id, await picture(1000, 500), 'section/s1');
    const crop = await call(OPERATOR, 'POST', REPORTBUILDER_API.imageCrop, {
      requestID: id,
      image: sectionImageName('s1', 'base'),
      x: 0,
      y: 0,
      width: 1000,
      height: 500,
    });
    expect(crop.statusCode).toBe(200);
    const copy = await call(OPERATOR, 'POST', REPORTBUILDER_API.imageCopy, {
      requestID: id,
      sectionID: 's1',
      buildingID: '2',
    });
    expect(copy.statusCode).toBe(200);
    const exists = (b: string) =>
      call(OWNER, 'GET', REPORTBUILDER_API.imageExists(id, 'building', 's1', b, '-'));
    expect((await exists('2')).json()).toBe(true);

    const url = imageUrl(id, buildingImageName('s1', '2', 'cropped'));
    const served = await call(OWNER, 'GET', url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toContain('max-age');
    const etag = served.headers.etag as string;
    expect(etag).toBeTruthy();
    const cached = await rb.app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': etag },
      cookies: await rb.cookiesOf(OWNER),
    });
    expect(cached.statusCode).toBe(304);

    const removed = await call(OPERATOR, 'DELETE', REPORTBUILDER_API.deleteImage(id, 's1', '2'));
    expect(removed.statusCode).toBe(200);
    expect(removed.json().deleted).toHaveLength(3);
    expect((await exists('2')).json()).toBe(false);
    expect((await call(OWNER, 'GET', url)).statusCode).toBe(404);
    expect((await call(OPERATOR, 'DELETE', `${REPORTBUILDER_API.deleteImage(id, 's1')}/`)).statusCode).toBe(
      200,
    );
    expect(
      (await call(OWNER, 'GET', REPORTBUILDER_API.imageExists(id, 'section', 's1', '-', '-'))).json(),
    ).toBe(false);

    const prefix = REPORTBUILDER_API.uploads(id);
    for (const trick of [
      '..%2F..%2F..%2Fetc%2Fpasswd',
      '%2e%2e%2fmeta.json',
      '..',
      '.hidden.png',
      'a%00.png',
      '..%5C..%5Cx.png',
      'x.json',
    ]) {
      const answer = await call(OWNER, 'GET', `${prefix}${trick}`);
      expect([trick, [400, 404].includes(answer.statusCode)]).toEqual([trick, true]);
      expect(answer.headers['content-type']).toContain('application/json');
    }
    const traversal = await call(OWNER, 'GET', `/reportbuilder/assets/uploads/${id}/../../../etc/passwd`);
    expect([400, 404]).toContain(traversal.statusCode);
    expect((await call(OWNER, 'GET', `${prefix}nothing-here.png`)).statusCode).toBe(404);
    expect(
      (await call(OWNER, 'GET', `/reportbuilder/assets/uploads/..%2F${id}/property-base-image.png`))
        .statusCode,
    ).toBe(400);
  });
});

describe('roles', () => {
  it('reading: owner and staff; writing: staff while the status allows it', async () => {
    const id = await request();
    await paste(OPERATOR, id, await picture(900, 500));
    const url = imageUrl(id, propertyImageName('base'));
    expect((await call(null, 'GET', url)).statusCode).toBe(401);
    expect((await call(OTHER, 'GET', url)).statusCode).toBe(403);
    expect((await call(OTHER, 'GET', REPORTBUILDER_API.thumbnails(id))).statusCode).toBe(403);
    expect((await call(OWNER, 'GET', url)).statusCode).toBe(200);

    const byOwner = await paste(OWNER, id, await picture(900, 500), 'section/1');
    expect(byOwner.statusCode).toBe(403);
    expect(byOwner.json().message).toBe(REPORT_TEXT.staffOnly);
    expect((await upload(OWNER, id, await picture(900, 500, 'jpeg'))).statusCode).toBe(403);
    expect((await call(OWNER, 'DELETE', REPORTBUILDER_API.deleteImage(id, 'property'))).statusCode).toBe(403);

    await rb.db.dataSource.query("UPDATE requests.requests SET status = 'QC check' WHERE id = $1", [id]);
    const locked = await paste(OPERATOR, id, await picture(900, 500), 'section/1');
    expect(locked.statusCode).toBe(409);
    expect(locked.json().message).toBe(REPORT_TEXT.notEditable('QC check'));
    const lockedUpload = await upload(OPERATOR, id, await picture(900, 500, 'jpeg'));
    expect(lockedUpload.statusCode).toBe(409);
    expect(filesOf(id)).toEqual([propertyImageName('base')]);
    expect((await call(OWNER, 'GET', url)).statusCode).toBe(200);
  });
});
