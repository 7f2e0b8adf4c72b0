import type { Sharp } from 'sharp';

/**
 * What a camera writes into a photo and the site must never publish: make, model, serial number, GPS
 * (Christchurch), and an EXIF orientation of 6 (the pixels are stored sideways; viewers turn them).
 */
export function withCameraMetadata(picture: Sharp): Sharp {
  return picture
    .withExif({
      IFD0: { Make: 'Canon', Model: 'EOS R5', Copyright: 'Studio' },
      IFD2: { BodySerialNumber: '0123456789' },
      IFD3: {
        GPSLatitudeRef: 'S',
        GPSLatitude: '43/1 31/1 12/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '172/1 38/1 24/1',
      },
    })
    .withMetadata({ orientation: 6 });
}
