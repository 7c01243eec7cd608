/**
 * sharp, loaded on first use. Loading libvips costs ~150 ms, which every CLI command paid at start
 * although most never touch an image (`call mobile_tap`, `devices`, `validate`).
 */
import type SharpModule from 'sharp';

export type SharpFn = typeof SharpModule;

let loading: Promise<SharpFn> | undefined;

export function loadSharp(): Promise<SharpFn> {
  return (loading ??= import('sharp').then(({ default: sharp }) => {
    // libvips' operation cache never hits here (every capture and frame is new pixels) but kept
    // up to 50 MB of their images alive after use. Process-wide; the renderer keeps its own tile cache.
    sharp.cache(false);
    return sharp;
  }));
}
