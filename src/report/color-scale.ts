/** Viridis anchors: perceptually uniform and readable with the common colour-vision deficiencies. */
const VIRIDIS = ['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725'];

function channel(hex: string, offset: number): number {
  return Number.parseInt(hex.slice(offset, offset + 2), 16);
}

/** Colour of a value in [0, 1] on the viridis scale. */
export function viridis(value: number): string {
  const clamped = Math.min(1, Math.max(0, value));
  const position = clamped * (VIRIDIS.length - 1);
  const lower = Math.floor(position);
  const upper = Math.min(VIRIDIS.length - 1, lower + 1);
  const fraction = position - lower;
  const mix = (offset: number) =>
    Math.round(
      channel(VIRIDIS[lower]!, offset) * (1 - fraction) + channel(VIRIDIS[upper]!, offset) * fraction,
    );
  return `#${[1, 3, 5].map((offset) => mix(offset).toString(16).padStart(2, '0')).join('')}`;
}

/** Text colour that stays readable on a viridis fill. */
export function textOn(value: number): string {
  return value < 0.6 ? '#ffffff' : '#1a1a1a';
}
