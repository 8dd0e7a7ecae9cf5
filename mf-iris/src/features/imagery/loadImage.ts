/** Resolves when the browser has loaded the picture at `url`, rejects when it could not. */
export function loadImage(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve();
    image.onerror = () => reject(new Error(`image failed: ${url}`));
    image.src = url;
  });
}

/** The picture's bytes (for the PDF's aerial view). */
export async function fetchImageBytes(url: string): Promise<Blob> {
  const request = new Request(new URL(url, window.location.href), { credentials: 'include' });
  const answer = await fetch(request);
  if (!answer.ok) throw new Error(`image fetch failed: ${answer.status}`);
  return answer.blob();
}
