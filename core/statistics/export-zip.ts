import { PassThrough, type Readable } from 'node:stream';

export interface ZipFile {
  name: string;
  text: string;
}

/** The files as a zip (deflated), written to the stream as fflate produces it (loaded on the first export). */
export async function zipStream(files: readonly ZipFile[]): Promise<Readable> {
  const { Zip, ZipDeflate } = await import('fflate');
  const out = new PassThrough();
  const zip = new Zip((err, chunk, final) => {
    if (err) {
      out.destroy(err);
      return;
    }
    out.write(chunk);
    if (final) out.end();
  });
  for (const file of files) {
    const entry = new ZipDeflate(file.name, { level: 6 });
    zip.add(entry);
    entry.push(Buffer.from(file.text, 'utf8'), true);
  }
  zip.end();
  return out;
}
