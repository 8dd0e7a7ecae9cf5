/** The image screens' texts (ours: the spec names none). */
export const IMAGE_TEXT = {
  pasteHint: 'Paste a PNG image here (Ctrl+V), upload a file, or pick one of the request’s uploads.',
  pasteNotPng: 'Only PNG images can be pasted. Save the picture as PNG first, or upload it as a file.',
  pasteNothing: 'The clipboard holds no image.',
  uploadWrongType: 'Upload a JPEG or PNG image.',
  tooSmall: 'This image is too small to crop: it must be at least 800 × 400 pixels.',
  cropHint: 'Drag the box to move it, its corner to resize it (ratio 2:1, at least 640 × 400).',
  noUploads: 'No uploads yet for this request.',
  noImage: 'No image yet.',
  copied: 'Image copied.',
  deleted: 'Image deleted.',
  failed: 'That did not work. Please try again.',
  missingTarget: 'Some of this page’s parameters are missing. Open it from its overview.',
} as const;
