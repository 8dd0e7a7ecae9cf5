import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { REPORTBUILDER_API } from '@portal/contracts';
import {
  answerFetch,
  callsTo,
  json,
  meAnswer,
  operatorUser,
  REQUEST_ID,
  reportServer,
} from '../../testing/fetchAnswers';
import { renderRemote } from '../../testing/renderRemote';
import { initialCropBox, moveCropBox, resizeCropBox, tooSmallToCrop } from './cropGeometry';
import { markerAt, markerPoint } from '../../report/markerPosition';

// jsdom has no PointerEvent: a MouseEvent carries clientX/clientY for the pointer handlers.
class TestPointerEvent extends MouseEvent {
  pointerId = 1;
}
(window as unknown as { PointerEvent: typeof MouseEvent }).PointerEvent = TestPointerEvent;

const UPLOADS = REPORTBUILDER_API.uploads(REQUEST_ID);
const thumbs = (names: string[]) => ({
  requestID: REQUEST_ID,
  images: names.map((name, index) => ({
    index,
    name,
    url: `${UPLOADS}${name}`,
    thumbnail: `${UPLOADS}${name.replace('.jpg', '.thumb.jpg')}`,
  })),
});

function imageServer(options: { exists?: boolean } = {}) {
  const bodies: { path: string; body: unknown }[] = [];
  let uploads = ['upload-a.jpg', 'upload-b.jpg'];
  const report = reportServer();
  const answers = {
    ...meAnswer(operatorUser),
    ...report.answers,
    [`GET ${REPORTBUILDER_API.thumbnails(REQUEST_ID)}`]: () => json(200, thumbs(uploads)),
    [`GET ${REPORTBUILDER_API.imageExists(REQUEST_ID, 'section', 's1', '-', '-')}`]: () =>
      json(200, options.exists ?? false),
    [`GET ${REPORTBUILDER_API.imageExists(REQUEST_ID, 'property', '-', '-', '-')}`]: () =>
      json(200, options.exists ?? false),
    [`POST ${REPORTBUILDER_API.image}`]: async (request: Request) => {
      const body = (await request.json()) as Record<string, unknown>;
      bodies.push({ path: 'image', body });
      const name = 'section-s1-base-image.png';
      return json(200, {
        success: true,
        image: { name, url: `${UPLOADS}${name}`, width: 1600, height: 1000 },
      });
    },
    [`POST ${REPORTBUILDER_API.upload}`]: async (request: Request) => {
      const form = await request.formData();
      bodies.push({
        path: 'upload',
        body: { requestID: form.get('requestID'), file: (form.get('file') as File).name },
      });
      const name = 'upload-c.jpg';
      return json(200, {
        success: true,
        image: { name, url: `${UPLOADS}${name}`, width: 1000, height: 600 },
      });
    },
    [`POST ${REPORTBUILDER_API.imageCrop}`]: async (request: Request) => {
      bodies.push({ path: 'crop', body: await request.json() });
      return json(200, { success: true, image: {}, compressed: {} });
    },
    [`POST ${REPORTBUILDER_API.imageRearrange}`]: async (request: Request) => {
      const body = (await request.json()) as { sourceIndex: number; destinationIndex: number };
      bodies.push({ path: 'rearrange', body });
      const [moved] = uploads.splice(body.sourceIndex, 1);
      uploads = [...uploads.slice(0, body.destinationIndex), moved!, ...uploads.slice(body.destinationIndex)];
      return json(200, thumbs(uploads));
    },
    [`DELETE ${REPORTBUILDER_API.deleteImage(REQUEST_ID, 's1')}`]: () =>
      json(200, { success: true, deleted: ['section-s1-base-image.png'] }),
  };
  return { bodies, answers, report };
}

const sectionImage = `/reportbuilder/section-overview-image?requestID=${REQUEST_ID}&sectionID=s1`;

beforeEach(() => sessionStorage.clear());

describe('crop geometry (spec 02 §5: ratio 2, at least 640 × 400, inside the image)', () => {
  const image = { width: 1600, height: 1000 };
  it('offers the largest centred box and keeps every change valid', () => {
    expect(initialCropBox(image)).toEqual({ x: 0, y: 100, width: 1600, height: 800 });
    const box = initialCropBox(image)!;
    expect(resizeCropBox(box, 300, image)).toEqual({ x: 0, y: 100, width: 800, height: 400 });
    expect(resizeCropBox(box, 5000, image)).toEqual({ x: 0, y: 100, width: 1600, height: 800 });
    const small = resizeCropBox(box, 900, image);
    expect(small.height).toBe(450);
    expect(moveCropBox(small, 5000, -5000, image)).toEqual({ x: 700, y: 0, width: 900, height: 450 });
    expect(tooSmallToCrop({ width: 799, height: 1000 })).toBe(true);
    expect(initialCropBox({ width: 700, height: 500 })).toBeNull();
  });
  it('stores a marker as the fraction of the image (lng = x, lat = y)', () => {
    const m = { lat: -33.93, lng: 18.86, number: 2, draggable: true };
    expect(markerPoint(m, 1)).toEqual({ x: 0.11, y: 0.08 });
    expect(markerAt(m, { x: 0.25, y: 1.3 })).toEqual({ ...m, lat: 1, lng: 0.25 });
  });
});

describe('image capture (spec 02 §2.1, §4.4, §5)', () => {
  it('refuses a pasted JPEG, takes a PNG, crops within the rules and saves, then goes back', async () => {
    const server = imageServer();
    answerFetch(server.answers);
    const { router } = renderRemote(sectionImage);
    await screen.findByRole('heading', { name: 'Section image' });

    fireEvent.paste(document, {
      clipboardData: { files: [new File(['x'], 'a.jpg', { type: 'image/jpeg' })], items: [] },
    });
    expect(await screen.findByText(/Only PNG images can be pasted/)).toBeTruthy();
    expect(server.bodies).toEqual([]);

    fireEvent.paste(document, {
      clipboardData: { files: [new File(['png'], 'a.png', { type: 'image/png' })], items: [] },
    });
    const cropBox = await screen.findByRole('region', { name: 'Crop box' });
    expect(server.bodies[0]).toEqual({
      path: 'image',
      body: {
        requestID: REQUEST_ID,
        type: 'section/s1',
        base64Data: expect.stringMatching(/^data:image\/png;base64,/),
      },
    });
    expect(cropBox.getAttribute('data-box')).toBe('0,100,1600,800');

    // Too small a width is raised to 800 × 400; a box pushed out of the image is moved back in.
    fireEvent.change(screen.getByLabelText('Width'), { target: { value: '500' } });
    fireEvent.blur(screen.getByLabelText('Width'));
    fireEvent.change(screen.getByLabelText('X'), { target: { value: '5000' } });
    fireEvent.blur(screen.getByLabelText('X'));
    await waitFor(() => expect(cropBox.getAttribute('data-box')).toBe('800,100,800,400'));
    // Dragging the box (the frame shows the image at its own size here) keeps it inside.
    fireEvent.pointerDown(cropBox, { clientX: 100, clientY: 100 });
    fireEvent.pointerMove(cropBox, { clientX: 50, clientY: 900 });
    fireEvent.pointerUp(cropBox, { clientX: 50, clientY: 900 });
    expect(cropBox.getAttribute('data-box')).toBe('750,600,800,400');
    // From the keyboard (issue 24): arrows move, Shift ×5, + and - resize (clamped as a drag), then back.
    fireEvent.keyDown(cropBox, { key: 'ArrowLeft' });
    expect(cropBox.getAttribute('data-box')).toBe('740,600,800,400');
    fireEvent.keyDown(cropBox, { key: 'ArrowUp', shiftKey: true });
    expect(cropBox.getAttribute('data-box')).toBe('740,550,800,400');
    fireEvent.keyDown(cropBox, { key: '+' });
    expect(cropBox.getAttribute('data-box')).toBe('740,550,810,405');
    // With Shift (×5) the keys type '+' and '_': both resize, as the hint says.
    fireEvent.keyDown(cropBox, { key: '+', shiftKey: true });
    expect(cropBox.getAttribute('data-box')).toBe('740,550,860,430');
    fireEvent.keyDown(cropBox, { key: '_', shiftKey: true });
    expect(cropBox.getAttribute('data-box')).toBe('740,550,810,405');
    fireEvent.keyDown(cropBox, { key: '-' });
    fireEvent.keyDown(cropBox, { key: 'ArrowDown', shiftKey: true });
    fireEvent.keyDown(cropBox, { key: 'ArrowRight' });
    expect(cropBox.getAttribute('data-box')).toBe('750,600,800,400');

    fireEvent.click(screen.getByRole('button', { name: 'Crop and save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/reportbuilder/section-overview'));
    expect(server.bodies[1]).toEqual({
      path: 'crop',
      body: {
        requestID: REQUEST_ID,
        image: 'section-s1-base-image.png',
        type: 'section/s1',
        x: 750,
        y: 600,
        width: 800,
        height: 400,
      },
    });
  });

  it('uploads a file as multipart and crops it', async () => {
    // Node's fetch reads only Node's FormData and File: the test swaps them in.
    const nodeForm = await new Response('a=b', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }).formData();
    nodeForm.append('f', await new Response('jpeg-bytes').blob(), 'house.jpg');
    const NodeFile = (nodeForm.get('f') as object).constructor as typeof File;
    const saved = global.FormData;
    global.FormData = nodeForm.constructor as typeof FormData;
    try {
      const server = imageServer();
      answerFetch(server.answers);
      renderRemote(sectionImage);
      const input = await screen.findByLabelText('Image file');
      fireEvent.change(input, {
        target: { files: [new NodeFile(['jpeg-bytes'], 'house.jpg', { type: 'image/jpeg' })] },
      });
      expect(await screen.findByRole('region', { name: 'Crop box' })).toBeTruthy();
      expect(server.bodies[0]).toEqual({
        path: 'upload',
        body: { requestID: REQUEST_ID, file: 'house.jpg' },
      });
      expect(screen.getByRole('region', { name: 'Crop box' }).getAttribute('data-box')).toBe('0,50,1000,500');
    } finally {
      global.FormData = saved;
    }
  });

  it('rearranges the uploads and picks one', async () => {
    const server = imageServer();
    answerFetch(server.answers);
    renderRemote(sectionImage);
    const list = await screen.findByRole('list', { name: 'Uploads' });
    await within(list).findByRole('img', { name: 'Upload 2' });
    fireEvent.click(screen.getByRole('button', { name: 'Move upload 2 earlier' }));
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'Upload 1' }).getAttribute('src')).toBe(
        `${UPLOADS}upload-b.thumb.jpg`,
      ),
    );
    expect(server.bodies).toEqual([
      { path: 'rearrange', body: { requestID: REQUEST_ID, sourceIndex: 1, destinationIndex: 0 } },
    ]);
    // Dragging upload 1 onto upload 2.
    fireEvent.dragStart(screen.getByRole('listitem', { name: 'Upload 1' }));
    fireEvent.drop(screen.getByRole('listitem', { name: 'Upload 2' }));
    await waitFor(() => expect(server.bodies).toHaveLength(2));
    expect(server.bodies[1]!.body).toMatchObject({ sourceIndex: 0, destinationIndex: 1 });

    fireEvent.click(
      within(screen.getByRole('listitem', { name: 'Upload 1' })).getByRole('button', { name: 'Use' }),
    );
    const loading = await screen.findByRole('img', { name: 'Loading the image' });
    Object.defineProperty(loading, 'naturalWidth', { value: 2000 });
    Object.defineProperty(loading, 'naturalHeight', { value: 1000 });
    fireEvent.load(loading);
    expect((await screen.findByRole('region', { name: 'Crop box' })).getAttribute('data-box')).toBe(
      '0,0,2000,1000',
    );
  });

  it('shows the current image and deletes it', async () => {
    const server = imageServer({ exists: true });
    const fetchMock = answerFetch(server.answers);
    renderRemote(sectionImage);
    const img = await screen.findByRole('img', { name: 'Current section image' });
    expect(img.getAttribute('src')).toMatch(`${UPLOADS}section-s1-base-image-cropped.compressed.jpg?v=`);
    fireEvent.click(screen.getByRole('button', { name: 'Delete image' }));
    expect(await screen.findByText('Image deleted.')).toBeTruthy();
    expect(callsTo(fetchMock, 'DELETE', REPORTBUILDER_API.deleteImage(REQUEST_ID, 's1'))).toHaveLength(1);
  });
});

describe('markers over the property image (spec 02 §2.1)', () => {
  it('draws the numbered markers over the cropped image and saves a dragged one as fractions', async () => {
    const server = imageServer({ exists: true });
    answerFetch(server.answers);
    renderRemote(`/reportbuilder/property-overview?requestID=${REQUEST_ID}`);
    const img = await screen.findByRole('img', { name: 'Property image' });
    expect(img.getAttribute('src')).toMatch(`${UPLOADS}property-base-image-cropped.compressed.jpg`);
    const frame = screen.getByTestId('marker-frame');
    frame.getBoundingClientRect = () => ({ left: 10, top: 20, width: 716, height: 358 }) as DOMRect;
    const first = screen.getByRole('button', { name: 'Marker 1: Main' });
    expect(screen.getByRole('button', { name: 'Marker 2: Boundary' })).toBeTruthy();
    fireEvent.pointerDown(first, { clientX: 50, clientY: 50 });
    fireEvent.pointerMove(first, { clientX: 10 + 179, clientY: 20 + 179 });
    fireEvent.pointerUp(first, { clientX: 10 + 179, clientY: 20 + 179 });
    expect(first.getAttribute('data-x')).toBe('0.25');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(server.report.state.bodies.some((b) => b.path === REPORTBUILDER_API.saveSections)).toBe(true),
    );
    const saved = server.report.state.bodies.find((b) => b.path === REPORTBUILDER_API.saveSections)!.body as {
      sections: Record<string, { marker: { lat: number; lng: number; number: number } }>;
    };
    expect(saved.sections.s1!.marker).toEqual({ lat: 0.5, lng: 0.25, number: 1, draggable: true });
    expect(saved.sections.s2!.marker).toMatchObject({ lat: -33.93, lng: 18.86, number: 2 });
  });
});
