/**
 * Tiny GIF files for the tests: `frames` 1x1 frames of `delayCs` hundredths of a second, looping
 * `loops` times (0 for ever; undefined for no loop extension: played once).
 */
export function gifBytes(frames: number, delayCs: number, loops?: number): Buffer {
  const header = [
    ...Buffer.from('GIF89a'),
    1,
    0,
    1,
    0, // 1 x 1
    0x80,
    0,
    0, // global colour table of 2 colours
    0,
    0,
    0,
    255,
    255,
    255,
  ];
  const loop =
    loops === undefined
      ? []
      : [0x21, 0xff, 11, ...Buffer.from('NETSCAPE2.0'), 3, 1, loops & 0xff, loops >> 8, 0];
  const frame = [
    0x21,
    0xf9,
    4,
    0,
    delayCs & 0xff,
    delayCs >> 8,
    0,
    0, // graphic control: delay
    0x2c,
    0,
    0,
    0,
    0,
    1,
    0,
    1,
    0,
    0, // image descriptor 1 x 1
    2,
    2,
    0x44,
    0x01,
    0, // LZW data of one pixel
  ];
  return Buffer.from([
    ...header,
    ...loop,
    ...Array.from({ length: frames }, () => frame).flat(),
    0x3b,
  ]);
}
