import pc from 'picocolors';

export type Colors = ReturnType<typeof pc.createColors>;

/** Colour only on a terminal, never under NO_COLOR or when writing to a file or pipe. */
export function colorsFor(stream: NodeJS.WriteStream | null): Colors {
  const enabled = Boolean(stream?.isTTY) && !('NO_COLOR' in process.env) && process.env.TERM !== 'dumb';
  return pc.createColors(enabled);
}
