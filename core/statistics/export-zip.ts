import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipDeflate } from 'fflate';

export interface ZipFile {
  name: string;
  text: string;
}

/** The files as a zip (deflated), written to the stream as fflate produces it. */
export function zipStream(files: readonly ZipFile[]): Readable {
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
